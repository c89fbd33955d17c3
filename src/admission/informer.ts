/**
 * A watch-fed cache of the objects under one storage prefix (upstream's informer and lister, as
 * the admission plugins use them: namespaces, policies, bindings, params, CRDs): list, then
 * watch from the list's revision, relisting when the watch fails. Objects are decoded once per
 * change; `version` grows with every change so that compiled artefacts can tell they are stale.
 * The store publishes a commit's events before the writer hears back, so an object written through
 * this process is in the cache by the time its writer's request returns.
 */
import type { Store, Watch, WatchEvent } from '../storage/index.ts';
import type { Obj } from '../registry/index.ts';

export interface ObjectCache {
  /** Resolves once the first list is in. */
  readonly synced: Promise<void>;
  /** Whether the first list is in and the watch runs. */
  isSynced(): boolean;
  /** The object at `key` relative to the prefix (`name` or `namespace/name`). */
  get(key: string): Obj | undefined;
  /** Every cached object, with its relative key. */
  entries(): IterableIterator<[string, Obj]>;
  /** Grows with every change seen. */
  readonly version: number;
  stop(): void;
}

/** Starts caching the objects under `prefix` (ending in '/'). */
export function objectCache(store: Store, prefix: string, opts: { relistDelayMs?: number } = {}): ObjectCache {
  const objects = new Map<string, Obj>();
  let synced = false;
  let stopped = false;
  let watch: Watch | undefined;
  let timer: NodeJS.Timeout | undefined;
  let version = 0;

  const decode = (value: string): Obj | undefined => {
    try {
      const o = JSON.parse(value) as unknown;
      return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Obj) : undefined;
    } catch {
      return undefined;
    }
  };
  const put = (key: string, value: string) => {
    const o = decode(value);
    if (o === undefined) objects.delete(key);
    else objects.set(key, o);
  };
  const onEvent = (ev: WatchEvent) => {
    const key = ev.kv.key.slice(prefix.length);
    if (ev.type === 'DELETE') objects.delete(key);
    else put(key, ev.kv.value);
    version++;
  };
  const relistLater = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void start();
    }, opts.relistDelayMs ?? 1000);
    timer.unref();
  };
  const start = async (): Promise<void> => {
    if (stopped) return;
    synced = false;
    try {
      const list = await store.range(prefix);
      if (stopped) return;
      objects.clear();
      for (const kv of list.items) put(kv.key.slice(prefix.length), kv.value);
      version++;
      watch = store.watch(prefix, {
        afterRevision: list.revision,
        onEvent,
        onError: () => {
          synced = false;
          watch = undefined;
          relistLater();
        },
      });
      synced = true;
    } catch {
      relistLater();
    }
  };
  const first = start();
  return {
    synced: first,
    isSynced: () => synced,
    get: (key) => objects.get(key),
    entries: () => objects.entries(),
    get version() {
      return version;
    },
    stop() {
      stopped = true;
      synced = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      watch?.cancel();
      watch = undefined;
    },
  };
}
