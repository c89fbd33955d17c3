/**
 * A minimal controller loop over a RESTStore, in the shape of client-go's informer + work queue:
 * watch the store (current state as ADDED, then changes; restarted when the watch ends), queue the
 * changed objects' keys (deduplicated), reconcile one key at a time, retry failures with backoff,
 * and requeue keys a reconcile asks to look at again later.
 */
import type { Obj, RESTStore, Watcher } from '../rest.ts';

export interface Key {
  namespace?: string;
  name: string;
}

/** A reconcile step: may ask to be called again after a delay (e.g. waiting on finalizers). */
export type Reconcile = (key: Key) => Promise<void | { requeueAfterMs: number }>;

export interface Controller {
  /** Resolves when the queue is empty and nothing is being reconciled (for tests). */
  idle(): Promise<void>;
  /** Queue a key by hand. */
  enqueue(key: Key): void;
  stop(): void;
}

export interface ControllerOptions {
  /** Extra keys to queue for an event (e.g. other CRDs of the same group when one goes away). */
  related?: (type: string, obj: Obj) => Promise<Key[]> | Key[];
  /** Backoff for failed reconciles (default 200 ms, doubling to 5 s). */
  baseBackoffMs?: number;
  onError?: (key: Key, err: unknown) => void;
  /**
   * Filled with the watched objects by key (`namespace/name`), as an informer's indexer: a
   * reconcile reads other objects here instead of listing the store each time. An object is in it
   * before its key is queued.
   */
  cache?: Map<string, Obj>;
}

function keyString(k: Key): string {
  return `${k.namespace ?? ''}/${k.name}`;
}

export function runController(store: RESTStore, reconcile: Reconcile, opts: ControllerOptions = {}): Controller {
  const queue = new Map<string, Key>();
  const failures = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let running = false;
  let stopped = false;
  let watcher: Watcher | undefined;
  let idleWaiters: (() => void)[] = [];
  const base = opts.baseBackoffMs ?? 200;

  const checkIdle = () => {
    if (!running && queue.size === 0) {
      const ws = idleWaiters;
      idleWaiters = [];
      for (const w of ws) w();
    }
  };

  const later = (key: Key, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      enqueue(key);
    }, ms);
    t.unref();
    timers.add(t);
  };

  const pump = async () => {
    if (running || stopped) return;
    running = true;
    try {
      while (!stopped && queue.size > 0) {
        const [k, key] = queue.entries().next().value as [string, Key];
        queue.delete(k);
        try {
          const r = await reconcile(key);
          failures.delete(k);
          if (r && r.requeueAfterMs >= 0) later(key, r.requeueAfterMs);
        } catch (err) {
          const n = (failures.get(k) ?? 0) + 1;
          failures.set(k, n);
          opts.onError?.(key, err);
          later(key, Math.min(base * 2 ** (n - 1), 5000));
        }
      }
    } finally {
      running = false;
      checkIdle();
    }
  };

  const enqueue = (key: Key) => {
    if (stopped) return;
    queue.set(keyString(key), key);
    void pump();
  };

  const startWatch = async () => {
    if (stopped) return;
    try {
      watcher = await store.watch(
        undefined,
        {},
        (ev) => {
          if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') return;
          const m = (ev.object.metadata ?? {}) as { name?: string; namespace?: string };
          if (!m.name) return;
          if (opts.cache) {
            const k = `${m.namespace ?? ''}/${m.name}`;
            if (ev.type === 'DELETED') opts.cache.delete(k);
            else opts.cache.set(k, ev.object);
          }
          enqueue({ name: m.name, ...(m.namespace ? { namespace: m.namespace } : {}) });
          if (opts.related) {
            void Promise.resolve(opts.related(ev.type, ev.object)).then((keys) => keys.forEach(enqueue));
          }
        },
        () => {
          // The watch ended (e.g. too old after compaction): start over from the current state.
          if (!stopped) void startWatch();
        },
      );
    } catch {
      const t = setTimeout(() => {
        timers.delete(t);
        void startWatch();
      }, base);
      t.unref();
      timers.add(t);
    }
  };
  void startWatch();

  return {
    enqueue,
    idle: () =>
      new Promise<void>((resolve) => {
        // Let pending watch deliveries land before judging idleness.
        setTimeout(() => {
          if (!running && queue.size === 0) resolve();
          else idleWaiters.push(resolve);
        }, 20);
      }),
    stop() {
      stopped = true;
      watcher?.stop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      queue.clear();
      checkIdle();
    },
  };
}
