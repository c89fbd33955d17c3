/**
 * The watch cache in front of a Store (k8s.io/apiserver's storage/cacher): one watch on the store
 * for everything under `/registry/`, from the oldest revision the store keeps, and per resource
 * prefix an in-memory copy (./watch-cache.ts) built on first use from a list at a revision the
 * cacher's own backlog of events reaches back to, then kept current from that watch. The backlog
 * holds every resource's events, cached or not, so it is bounded by bytes as well as by events
 * (a busy resource nobody lists, such as Leases, costs at most its share of `backlogBytes`). It
 * implements the Store contract, so the layers above cannot tell it from the store; what it
 * answers itself:
 *
 * - ranges whose `resourcePrefix` names a cached resource: without a revision as a consistent read
 *   (ConsistentListFromCache: the store's current revision, then wait until the cache has caught
 *   up with it, falling back to the store when it does not in time), and at a revision inside the
 *   cache's window (Exact reads and continue tokens); anything older goes to the store;
 * - watches whose `resourcePrefix` names a cached resource: fanned out from the one store watch,
 *   from any revision inside the window; older is CompactedError (the registry's 410 `too old
 *   resource version`), and a watcher that falls behind is closed (WatcherEvictedError);
 * - everything else (gets, writes, other prefixes) goes straight to the store.
 */
import { WatchClosedError } from '../broadcaster.ts';
import { hasPrefix } from '../prefix.ts';
import {
  CompactedError,
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Store,
  type Watch,
  type WatchEvent,
  type WatchOptions,
  type WriteOptions,
} from '../store.ts';
import { WatcherEvictedError } from './cache-watcher.ts';
import { defaultRingSizing, eventOverhead, EventRing, type RingSizing } from './event-ring.ts';
import { WatchCache } from './watch-cache.ts';

/** The root every cached key lives under. */
const root = '/registry/';

const defaultBacklogBytes = 8 * 1024 * 1024;

export interface CacherOptions {
  /**
   * The cached resource a range or watch prefix falls in, given the caller's `resourcePrefix` hint
   * (default: the hint itself when the prefix lies under it). Undefined: not cached.
   */
  resourceOf?: (prefix: string, hint: string | undefined) => string | undefined;
  /**
   * For a backend that delivers its watch events in the process that commits them (SQLite):
   * resolves to the current revision once every event up to it has been handed to the cacher's
   * watch. Without it (etcd), a consistent read waits for the cache to reach the store's revision.
   */
  progress?: () => Promise<number>;
  /** How long a read waits for the cache to reach a revision before it asks the store (upstream's 3 s). */
  freshWaitMs?: number;
  /** The event window's sizing (upstream's 100 to 100*1024 events, 75 s). */
  ring?: Partial<RingSizing>;
  /**
   * The most bytes of keys and values the backlog of every resource's events keeps (default
   * 8 MiB): events of resources no cache holds yet cost their whole size, so a busy uncached
   * resource (Leases) does not keep 100*1024 events of history.
   */
  backlogBytes?: number;
  /** Live events a client watcher may have pending before it is closed. */
  watcherCapacity?: number;
  /**
   * How many revisions before the current one the store watch starts (default: from the store's
   * compacted revision, all the history it keeps). 0 starts at the current revision.
   */
  historyRevisions?: number;
  /** How often idle watchers learn the cache's revision (for their bookmarks). */
  progressIntervalMs?: number;
  now?: () => number;
}

/** Puts the watch cache in front of `store` (kube-apiserver's `--watch-cache`). */
export async function openCacher(store: Store, opts: CacherOptions = {}): Promise<Cacher> {
  const c = new Cacher(store, opts);
  await c.start();
  return c;
}

function defaultResourceOf(prefix: string, hint: string | undefined): string | undefined {
  return hint !== undefined && hint.startsWith(root) && hasPrefix(prefix, hint) ? hint : undefined;
}

export class Cacher implements Store {
  /** Every change up to this revision has been applied to every cache. */
  private rev = 0;
  /** The first revision of the backlog: the state at it plus the backlog's events give any later one. */
  private base = 0;
  private compacted = 0;
  private closed = false;
  private rootWatch: Watch | undefined;
  /** Every event since `base` (bounded by events and bytes), from which a resource cache built later takes its history. */
  private backlog: EventRing;
  private readonly caches = new Map<string, WatchCache>();
  private readonly building = new Map<string, Promise<WatchCache>>();
  private waiters: { rev: number; resolve: () => void }[] = [];
  private readonly sizing: RingSizing;
  private readonly resourceOf: (prefix: string, hint: string | undefined) => string | undefined;
  private readonly freshWaitMs: number;
  private readonly watcherCapacity: number;
  private timer: NodeJS.Timeout | undefined;
  private lastProgress = 0;

  constructor(
    private readonly store: Store,
    private readonly opts: CacherOptions = {},
  ) {
    this.sizing = { ...defaultRingSizing, ...opts.ring };
    this.backlog = new EventRing(this.sizing, opts.now, opts.backlogBytes ?? defaultBacklogBytes);
    this.resourceOf = opts.resourceOf ?? defaultResourceOf;
    this.freshWaitMs = opts.freshWaitMs ?? 3000;
    this.watcherCapacity = opts.watcherCapacity ?? 10_000;
  }

  /** Starts the store watch at the current revision. */
  async start(): Promise<void> {
    this.compacted = await this.store.compactedRevision();
    await this.startWatch();
    // The store watch exists before anything is served (a bounded wait: an unreachable store
    // answers reads itself).
    const created = this.rootWatch?.created;
    if (created) await Promise.race([created, new Promise((r) => setTimeout(r, 5000).unref())]);
    const every = this.opts.progressIntervalMs ?? 1000;
    this.timer = setInterval(() => this.tellProgress(), every);
    this.timer.unref();
  }

  /**
   * Watches from the oldest revision the store still has (its compacted one; the first when it
   * never compacted), so that the window reaches back as far as the store's own history: a client
   * resuming a watch on a restarted server gets what it missed, as it would from the store.
   */
  private async startWatch(): Promise<void> {
    const current = await this.store.currentRevision();
    const compacted = await this.store.compactedRevision();
    let rev = Math.min(current, Math.max(compacted, 1, current - (this.opts.historyRevisions ?? Infinity)));
    // No cache is built yet, so the backlog keeps only its last maxBytes of events: a store that
    // can tell where those begin spares the replay of everything older (with hundreds of large
    // CRDs, each revision's text and the one it replaced: over 100 MB read to keep 8 MiB).
    const maxBytes = this.opts.backlogBytes ?? defaultBacklogBytes;
    if (this.store.historyStart && maxBytes !== Infinity && rev < current) rev = Math.max(rev, await this.store.historyStart(root, rev, maxBytes, eventOverhead));
    this.rev = rev;
    this.base = rev;
    this.backlog = new EventRing(this.sizing, this.opts.now, this.opts.backlogBytes ?? defaultBacklogBytes);
    this.rootWatch = this.store.watch(root, {
      afterRevision: rev,
      onEvent: (ev) => this.onEvent(ev),
      onError: (err) => this.onWatchError(err),
      onProgress: (r) => this.advance(r),
    });
  }

  /** Number of resources cached (for tests and the bench). */
  get cachedResources(): number {
    return this.caches.size;
  }

  /** The cache of one resource, if built (for tests and the bench). */
  cacheOf(resourcePrefix: string): WatchCache | undefined {
    return this.caches.get(resourcePrefix);
  }

  private onEvent(raw: WatchEvent): void {
    const cache = this.cacheForKey(raw.kv.key);
    const ev = freezeEvent(raw, cache?.current(raw.kv.key));
    this.backlog.push(ev);
    cache?.apply(ev);
    this.advance(ev.kv.modRevision);
  }

  /** The cache whose prefix `key` lies under (a resource prefix is `/registry/[group/]resource/`). */
  private cacheForKey(key: string): WatchCache | undefined {
    let i = root.length - 1;
    for (let n = 0; n < 3; n++) {
      i = key.indexOf('/', i + 1);
      if (i < 0) return undefined;
      const c = this.caches.get(key.slice(0, i + 1));
      if (c) return c;
    }
    return undefined;
  }

  private advance(rev: number): void {
    if (rev <= this.rev) return;
    this.rev = rev;
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => w.rev <= rev);
    this.waiters = this.waiters.filter((w) => w.rev > rev);
    for (const w of ready) w.resolve();
  }

  private tellProgress(): void {
    if (this.rev === this.lastProgress) return;
    this.lastProgress = this.rev;
    for (const c of this.caches.values()) c.progress(this.rev);
  }

  /**
   * The store watch failed (compacted past it, or the store is closing): every cache is dropped
   * and its watchers closed (clients watch again and, if too old, list again); then the watch
   * starts over at the current revision.
   */
  private onWatchError(err: Error): void {
    const closing = this.closed || err instanceof WatchClosedError || err.name.endsWith('ClosedError');
    for (const c of this.caches.values()) c.failAll(closing ? new WatchClosedError() : new WatcherEvictedError(0));
    this.caches.clear();
    this.building.clear();
    if (closing) return;
    this.startWatch().catch(() => {
      // The store is unreachable: the next read builds what it needs, or fails as the store fails.
      this.rootWatch = undefined;
    });
  }

  /** Resolves true once every change up to `rev` is applied, false after `ms`. */
  private waitFor(rev: number, ms: number): Promise<boolean> {
    if (this.rev >= rev) return Promise.resolve(true);
    return new Promise((resolve) => {
      const entry = {
        rev,
        resolve: () => {
          clearTimeout(t);
          resolve(true);
        },
      };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== entry);
        resolve(false);
      }, ms);
      this.waiters.push(entry);
    });
  }

  /** Whether the caches have caught up with the store's current revision (a consistent read may be served). */
  private async fresh(): Promise<boolean> {
    if (this.opts.progress) {
      this.advance(await this.opts.progress());
      return true;
    }
    return this.waitFor(await this.store.currentRevision(), this.freshWaitMs);
  }

  /** The cache of `resource`, built on first use. */
  private cache(resource: string): WatchCache | Promise<WatchCache> {
    const c = this.caches.get(resource);
    if (c) return c;
    let b = this.building.get(resource);
    if (!b) {
      b = this.build(resource).finally(() => this.building.delete(resource));
      this.building.set(resource, b);
    }
    return b;
  }

  /**
   * Lists the resource at the backlog's first revision (or, when that is compacted, the current
   * one) and replays the backlog's events after it: the cache's window then reaches back as far
   * as the backlog does.
   */
  private async build(resource: string): Promise<WatchCache> {
    let compacted = this.compacted;
    for (;;) {
      if (!this.rootWatch) await this.startWatch();
      const from = Math.max(this.base, this.backlog.evictedThrough, compacted);
      let res: RangeResult;
      try {
        res = await this.store.range(resource, from > 0 ? { revision: from } : {});
      } catch (e) {
        // Compacted since: the oldest state the store still has will do.
        if (!(e instanceof CompactedError) || e.compacted <= compacted) throw e;
        compacted = e.compacted;
        continue;
      }
      // The backlog must still hold every event after the list (a burst may have evicted some).
      if (this.backlog.evictedThrough > res.revision) continue;
      const cache = new WatchCache(resource, res.revision, res.items.map(freezeKeyValue), this.sizing, this.opts.now);
      for (const ev of this.backlog.since(res.revision)) if (hasPrefix(ev.kv.key, resource)) cache.apply(ev);
      this.caches.set(resource, cache);
      return cache;
    }
  }

  async currentRevision(): Promise<number> {
    return this.store.currentRevision();
  }

  async compactedRevision(): Promise<number> {
    return this.store.compactedRevision();
  }

  get(key: string, revision?: number): Promise<KeyValue | undefined> {
    return this.store.get(key, revision);
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const resource = this.closed ? undefined : this.resourceOf(prefix, opts.resourcePrefix);
    if (resource === undefined) return this.store.range(prefix, opts);
    const cache = await this.cache(resource);
    const at = opts.revision ?? 0;
    if (at === 0) {
      // Consistent read: from the cache once it has what the store has, else from the store.
      if (!(await this.fresh())) return this.store.range(prefix, opts);
    } else {
      if (at < this.compacted) return this.store.range(prefix, opts);
      if (at > this.rev && !(await this.waitFor(at, this.freshWaitMs))) return this.store.range(prefix, opts);
    }
    return cache.range(prefix, opts, this.rev) ?? this.store.range(prefix, opts);
  }

  create(key: string, value: string, opts?: WriteOptions): Promise<KeyValue> {
    return this.store.create(key, value, opts);
  }

  update(key: string, value: string, expectedModRevision: number, opts?: WriteOptions): Promise<KeyValue> {
    return this.store.update(key, value, expectedModRevision, opts);
  }

  delete(key: string, expectedModRevision: number): Promise<KeyValue> {
    return this.store.delete(key, expectedModRevision);
  }

  watch(prefix: string, opts: WatchOptions): Watch {
    const resource = this.closed ? undefined : this.resourceOf(prefix, opts.resourcePrefix);
    if (resource === undefined) return this.store.watch(prefix, opts);
    if (opts.afterRevision < this.compacted) {
      const err = new CompactedError(opts.afterRevision, this.compacted);
      if (!opts.onError) throw err;
      return failed(opts, err);
    }
    const c = this.cache(resource);
    if (c instanceof WatchCache) return this.attach(c, prefix, opts, true);
    // Attach once the cache is built; the caller may cancel meanwhile.
    let inner: Watch | undefined;
    let cancelled = false;
    c.then(
      (cache) => {
        if (!cancelled) inner = this.attach(cache, prefix, opts, false);
      },
      (err: unknown) => {
        if (!cancelled) opts.onError?.(err instanceof Error ? err : new Error(String(err)));
      },
    );
    return {
      cancel: () => {
        cancelled = true;
        inner?.cancel();
      },
    };
  }

  private attach(cache: WatchCache, prefix: string, opts: WatchOptions, canThrow: boolean): Watch {
    try {
      return cache.watch(prefix, opts, this.watcherCapacity);
    } catch (e) {
      if (canThrow && !opts.onError) throw e;
      return failed(opts, e as Error);
    }
  }

  async compact(revision: number): Promise<void> {
    await this.store.compact(revision);
    if (revision > this.compacted) this.compacted = revision;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.rootWatch?.cancel();
    for (const c of this.caches.values()) c.failAll(new WatchClosedError());
    this.caches.clear();
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
    await this.store.close();
  }
}

/** A watch that failed before it started: onError from a microtask, as the backends report it. */
function failed(opts: WatchOptions, err: Error): Watch {
  let done = false;
  queueMicrotask(() => {
    if (!done) opts.onError?.(err);
  });
  return {
    cancel: () => {
      done = true;
    },
  };
}

function freezeKeyValue(kv: KeyValue): KeyValue {
  return Object.isFrozen(kv) ? kv : Object.freeze({ key: kv.key, value: kv.value, createRevision: kv.createRevision, modRevision: kv.modRevision });
}

/** A frozen copy of a store event whose `prev` is the cached value it replaces when that is the same version. */
function freezeEvent(ev: WatchEvent, cached: KeyValue | undefined): WatchEvent {
  const kv = freezeKeyValue(ev.kv);
  if (!ev.prev) return Object.freeze({ type: ev.type, kv });
  const prev = cached && cached.modRevision === ev.prev.modRevision && cached.value === ev.prev.value ? cached : freezeKeyValue(ev.prev);
  return Object.freeze({ type: ev.type, kv, prev });
}

