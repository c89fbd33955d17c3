/**
 * One resource's watch cache (upstream's watchCache): the current state of every key under the
 * resource's prefix, kept by applying the store's events in revision order, and a window of recent
 * events (./event-ring.ts). It answers ranges at the current revision, and at an older revision
 * inside the window by undoing the window's later events (as upstream's btree snapshots serve
 * Exact reads and continuations), and starts client watches from any revision inside the window.
 * What lies outside the window is not answered here: the caller goes to the store (ranges) or
 * answers 410 (watches), as the cacher does.
 *
 * Everything held is frozen and shared: ranges and watch events hand out the cached KeyValues
 * themselves, never copies.
 */
import { prefixEnd } from '../prefix.ts';
import { CompactedError, type KeyValue, type RangeOptions, type RangeResult, type WatchEvent, type WatchOptions } from '../store.ts';
import { CacheWatcher } from './cache-watcher.ts';
import { EventRing, type RingSizing } from './event-ring.ts';
import { SortedKeys } from './sorted-keys.ts';

export class WatchCache {
  private readonly state = new SortedKeys();
  private readonly ring: EventRing;
  private readonly watchers = new Set<CacheWatcher>();

  constructor(
    /** The resource's key prefix (`/registry/apps/deployments/`). */
    readonly prefix: string,
    /** The revision the initial state was read at: events at or before it are already in it. */
    private readonly listRevision: number,
    items: KeyValue[],
    sizing: RingSizing,
    now?: () => number,
  ) {
    this.ring = new EventRing(sizing, now);
    for (const kv of items) this.state.set(kv);
  }

  /** Number of live keys (for tests and the bench). */
  get size(): number {
    return this.state.size;
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  /**
   * The oldest revision whose state this cache can rebuild: every change after it is in the window
   * (the initial list's revision until an event is evicted). A watch from before it is 410.
   */
  oldestRevision(): number {
    return Math.max(this.listRevision, this.ring.evictedThrough);
  }

  /** Applies one change (frozen, in revision order) and hands it to the watchers. */
  apply(ev: WatchEvent): void {
    if (ev.kv.modRevision <= this.listRevision) return;
    if (ev.type === 'PUT') this.state.set(ev.kv);
    else this.state.delete(ev.kv.key);
    this.ring.push(ev);
    for (const w of this.watchers) w.dispatch(ev);
  }

  /** The cached value a new event replaces (so that `prev` shares the cached object). */
  current(key: string): KeyValue | undefined {
    return this.state.get(key);
  }

  /**
   * A range under `prefix` (the resource's or one namespace's) at `opts.revision`, or at `current`
   * (the revision every change has been applied up to) when none is given. Undefined when the
   * revision lies outside the window, or the window cannot rebuild it.
   */
  range(prefix: string, opts: RangeOptions, current: number): RangeResult | undefined {
    const revision = opts.revision && opts.revision > 0 ? opts.revision : current;
    if (revision > current || revision < this.oldestRevision()) return undefined;
    const start = opts.startKey !== undefined && opts.startKey > prefix ? opts.startKey : prefix;
    const end = prefixEnd(prefix);
    if (end !== undefined && start >= end) return { items: [], revision, more: false, count: 0 };
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const i0 = this.state.lowerBound(start);
    const i1 = this.state.endIndex(end);
    if (revision === current) {
      const count = i1 - i0;
      if (opts.countOnly) return { items: [], revision, more: false, count };
      const n = limit > 0 ? Math.min(limit, count) : count;
      const items: KeyValue[] = new Array(n);
      for (let i = 0; i < n; i++) items[i] = this.state.valueAt(i0 + i);
      return { items, revision, more: limit > 0 && count > limit, count };
    }
    const overrides = this.undo(revision, start, end);
    if (!overrides) return undefined;
    return this.rangeAt(revision, overrides, i0, i1, limit, opts.countOnly === true);
  }

  /**
   * For each key in [start, end) changed after `revision`: its value at `revision` (null when it
   * did not exist then). Undefined when an event lacks the previous value needed.
   */
  private undo(revision: number, start: string, end: string | undefined): Map<string, KeyValue | null> | undefined {
    const events = this.ring.since(revision);
    const out = new Map<string, KeyValue | null>();
    // Newest first, so that the earliest change after `revision` has the last word.
    for (let i = events.length - 1; i >= 0; i--) {
      const ev = events[i]!;
      const k = ev.kv.key;
      if (k < start || (end !== undefined && k >= end)) continue;
      if (ev.prev) out.set(k, ev.prev);
      else if (ev.type === 'PUT' && ev.kv.createRevision === ev.kv.modRevision) out.set(k, null);
      else return undefined;
    }
    return out;
  }

  private rangeAt(
    revision: number,
    overrides: Map<string, KeyValue | null>,
    i0: number,
    i1: number,
    limit: number,
    countOnly: boolean,
  ): RangeResult {
    let count = i1 - i0;
    // Keys that existed at `revision` but are gone now, in key order.
    const gone: string[] = [];
    for (const [k, v] of overrides) {
      const now = this.state.get(k) !== undefined;
      if (v && !now) gone.push(k);
      count += (v ? 1 : 0) - (now ? 1 : 0);
    }
    if (countOnly) return { items: [], revision, more: false, count };
    gone.sort();
    const items: KeyValue[] = [];
    const want = limit > 0 ? limit : Infinity;
    let i = i0;
    let g = 0;
    while (items.length < want && (i < i1 || g < gone.length)) {
      let key: string;
      if (g < gone.length && (i >= i1 || gone[g]! < this.state.keyAt(i))) key = gone[g++]!;
      else key = this.state.keyAt(i++);
      const v = overrides.has(key) ? overrides.get(key)! : this.state.get(key)!;
      if (v) items.push(v);
    }
    return { items, revision, more: limit > 0 && count > limit, count };
  }

  /**
   * A client watch of `prefix` from `opts.afterRevision`: the window's later events first, then
   * live ones. CompactedError (the oldest revision this cache can serve as `compacted`) when the
   * revision is older than the window.
   */
  watch(prefix: string, opts: WatchOptions, capacity: number): CacheWatcher {
    const oldest = this.oldestRevision();
    if (opts.afterRevision < oldest) throw new CompactedError(opts.afterRevision, oldest);
    const w = new CacheWatcher(prefix, opts.afterRevision, opts, capacity, (x) => this.watchers.delete(x));
    w.replay(this.ring.since(opts.afterRevision));
    this.watchers.add(w);
    return w;
  }

  /** Tells every idle watcher that nothing changed up to `revision` (their bookmarks may say so). */
  progress(revision: number): void {
    for (const w of this.watchers) w.progress(revision);
  }

  /** Ends every watcher with `err` (the cache is being dropped). */
  failAll(err: Error): void {
    for (const w of [...this.watchers]) w.fail(err);
  }
}
