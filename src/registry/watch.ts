/**
 * WATCH with the watch cache's semantics over the store's revision-ordered watch:
 *
 * - resourceVersion unset or "0" (no sendInitialEvents): ADDED for the current state, then changes;
 * - resourceVersion N: every change after N; N older than the compacted revision is a 410
 *   `too old resource version: N (compacted)` delivered as an ERROR event; N in the future waits
 *   for the store, then a 504 ERROR event;
 * - sendInitialEvents=true (resourceVersionMatch=NotOlderThan): the current state as ADDED, then,
 *   when bookmarks are allowed, a BOOKMARK annotated `k8s.io/initial-events-end: "true"`;
 * - selectors: an object that stops matching arrives as DELETED (its previous content at the new
 *   resourceVersion), one that starts matching as ADDED;
 * - allowWatchBookmarks: periodic BOOKMARK events carrying the latest revision seen, and one
 *   2 s before a timeoutSeconds deadline;
 * - timeoutSeconds: the watch ends (onEnd without error).
 *
 * Events reach `onEvent` asynchronously, after watch() has resolved, in revision order.
 */
import { newInternalError, newResourceExpired, StatusError } from '../apimachinery/index.ts';
import { CompactedError, WatcherEvictedError, type Watch, type WatchEvent as StorageEvent } from '../storage/index.ts';
import type { GenericStore } from './generic-store.ts';
import { invalidListOptions, validateWatchOptions } from './list-options.ts';
import type { Lister } from './list.ts';
import type { Obj, Watcher, WatchEvent, WatchOptions } from './rest.ts';
import { setResourceVersion } from './meta.ts';
import { decodeMetadataOnly, decodeShared } from './shared-objects.ts';

/** The annotation on the bookmark that ends the initial events of a watch list. */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

/** NewTooOldResourceVersionError as the watch cache words it. */
export function tooOldResourceVersion(requested: number, oldest: number): StatusError {
  return newResourceExpired(`too old resource version: ${requested} (${oldest})`);
}

export async function startWatch(
  s: GenericStore,
  lister: Lister,
  ns: string | undefined,
  opts: WatchOptions,
  onEvent: (ev: WatchEvent) => void,
  onEnd?: (err?: Error) => void,
): Promise<Watcher> {
  const errs = validateWatchOptions(opts);
  if (errs.length > 0) throw invalidListOptions(errs);
  const pred = lister.predicate(opts);
  const rvText = opts.resourceVersion ?? '';
  const fromRV = lister.parseRV(rvText);
  const w = new RegistryWatch(s, onEvent, onEnd, opts.allowWatchBookmarks === true);

  const legacyInitial = opts.sendInitialEvents === undefined && (rvText === '' || rvText === '0');
  let startRev: number;
  if (opts.sendInitialEvents === true || legacyInitial) {
    if (fromRV > 0) {
      try {
        await lister.waitFresh(fromRV);
      } catch (e) {
        w.failLater(e);
        return w;
      }
    }
    const snap = await lister.snapshot(ns, pred);
    for (const obj of snap.items) w.enqueue({ type: 'ADDED', object: obj });
    startRev = snap.revision;
    if (opts.sendInitialEvents === true && opts.allowWatchBookmarks === true) {
      w.enqueue({ type: 'BOOKMARK', object: w.bookmarkObject(startRev, true) });
    }
  } else if (fromRV === 0) {
    startRev = await s.store.currentRevision();
  } else {
    startRev = fromRV;
    const current = await s.store.currentRevision();
    if (fromRV > current) {
      try {
        await lister.waitFresh(fromRV);
      } catch (e) {
        w.failLater(e);
        return w;
      }
    }
  }
  w.lastRevision = startRev;
  w.begin(s.keys.root(ns), startRev, (obj) => pred.matches(obj), pred.empty, opts.metadataOnly === true && pred.empty);
  if (opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0) w.endAfter(opts.timeoutSeconds * 1000);
  return w;
}

class RegistryWatch implements Watcher {
  private queue: WatchEvent[] = [];
  private flushing = false;
  private stopped = false;
  private storageWatch: Watch | undefined;
  private timers: NodeJS.Timeout[] = [];
  /** The revision of the latest change delivered (or of the start): what a bookmark may claim. */
  lastRevision = 0;

  constructor(
    private readonly s: GenericStore,
    private readonly onEvent: (ev: WatchEvent) => void,
    private readonly onEnd: ((err?: Error) => void) | undefined,
    private readonly bookmarks: boolean,
  ) {}

  bookmarkObject(rev: number, initialEnd: boolean): Obj {
    const metadata: Record<string, unknown> = {};
    if (initialEnd) metadata.annotations = { [initialEventsEndAnnotation]: 'true' };
    metadata.resourceVersion = String(rev);
    return { apiVersion: this.s.apiVersion, kind: this.s.info.kind, metadata };
  }

  enqueue(ev: WatchEvent): void {
    if (this.stopped) return;
    this.queue.push(ev);
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushing = false;
    while (!this.stopped && this.queue.length > 0) {
      const ev = this.queue.shift()!;
      this.onEvent(ev);
    }
  }

  begin(prefix: string, afterRevision: number, matches: (obj: Obj) => boolean, everything: boolean, metadataOnly: boolean): void {
    if (this.stopped) return;
    try {
      this.storageWatch = this.s.store.watch(prefix, {
        afterRevision,
        resourcePrefix: this.s.keys.prefix,
        onEvent: metadataOnly ? (ev) => this.onMetadataEvent(ev) : (ev) => this.onStorageEvent(ev, matches, everything),
        onError: (err) => (err instanceof WatcherEvictedError ? this.finishLater() : this.fail(err)),
        // The watch cache's revision: bookmarks may claim it while nothing under the prefix changes.
        onProgress: (rev) => {
          if (rev > this.lastRevision) this.lastRevision = rev;
        },
      });
    } catch (e) {
      this.failLater(e);
      return;
    }
    if (this.bookmarks) {
      const t = setInterval(() => {
        this.enqueue({ type: 'BOOKMARK', object: this.bookmarkObject(this.lastRevision, false) });
      }, this.s.bookmarkIntervalMs);
      t.unref();
      this.timers.push(t);
    }
  }

  /** A change to a watch of everything that wants only metadata: no selector to match, nothing to decode but the metadata. */
  private onMetadataEvent(ev: StorageEvent): void {
    if (this.stopped) return;
    this.lastRevision = ev.kv.modRevision;
    const type = ev.type === 'DELETE' ? 'DELETED' : ev.prev ? 'MODIFIED' : 'ADDED';
    this.enqueue({ type, object: decodeMetadataOnly(this.s, ev.kv) });
  }

  private onStorageEvent(ev: StorageEvent, matches: (obj: Obj) => boolean, everything: boolean): void {
    if (this.stopped) return;
    this.lastRevision = ev.kv.modRevision;
    if (ev.type === 'DELETE') {
      const obj = decodeShared(this.s, ev.kv);
      if (everything || matches(obj)) this.enqueue({ type: 'DELETED', object: obj });
      return;
    }
    // Decoded once per change for every watcher of this store (the cache shares the event).
    const cur = decodeShared(this.s, ev.kv);
    if (everything) {
      this.enqueue({ type: ev.prev ? 'MODIFIED' : 'ADDED', object: cur });
      return;
    }
    const curMatch = matches(cur);
    let prev: Obj | undefined;
    if (ev.prev) prev = decodeShared(this.s, ev.prev);
    const prevMatch = prev !== undefined && matches(prev);
    if (curMatch && prevMatch) this.enqueue({ type: 'MODIFIED', object: cur });
    else if (curMatch) this.enqueue({ type: 'ADDED', object: cur });
    else if (prevMatch && prev) {
      // The previous content, at the revision of the change that made it stop matching.
      setResourceVersion(prev, String(ev.kv.modRevision));
      this.enqueue({ type: 'DELETED', object: prev });
    }
  }

  /** An error found while starting: delivered as an ERROR event after watch() resolves, then the end. */
  failLater(e: unknown): void {
    setImmediate(() => this.fail(e));
  }

  private fail(e: unknown): void {
    if (this.stopped) return;
    let status;
    if (e instanceof CompactedError) status = tooOldResourceVersion(e.requested, e.compacted).status;
    else if (e instanceof StatusError) status = e.status;
    else status = newInternalError(e instanceof Error ? e : String(e)).status;
    this.enqueue({ type: 'ERROR', object: status as unknown as Obj });
    setImmediate(() => {
      // Let the ERROR event out first.
      this.flush();
      this.finish(e instanceof Error ? e : new Error(String(e)));
    });
  }

  /** The watch cache closed this watcher for falling behind: the stream ends as upstream's does, without an ERROR (the client watches again). */
  private finishLater(): void {
    setImmediate(() => {
      this.flush();
      this.finish();
    });
  }

  endAfter(ms: number): void {
    if (this.bookmarks && ms > 2000) {
      // The watch cache also sends a bookmark right before the deadline (2 s ahead).
      const b = setTimeout(() => this.enqueue({ type: 'BOOKMARK', object: this.bookmarkObject(this.lastRevision, false) }), ms - 2000);
      b.unref();
      this.timers.push(b);
    }
    const t = setTimeout(() => {
      // Deliver what is already queued, then end.
      this.flush();
      this.finish();
    }, ms);
    t.unref();
    this.timers.push(t);
  }

  private finish(err?: Error): void {
    if (this.stopped) return;
    this.stop();
    this.onEnd?.(err);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.queue = [];
    this.storageWatch?.cancel();
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}
