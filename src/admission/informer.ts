/**
 * A watch-fed cache of the objects under one storage prefix (upstream's informer and lister, as
 * the admission plugins use them: namespaces, policies, bindings, params, CRDs): list, then
 * watch from the list's revision, relisting when the watch fails. Objects are decoded once per
 * change, when first asked for; `version` grows with every change so that compiled artefacts can tell they are stale.
 * The store publishes a commit's events before the writer hears back, so an object written through
 * this process is in the cache by the time its writer's request returns. As upstream's admission
 * plugins take their informers from one shared factory, callers asking for the same store and
 * prefix share one cache: with hundreds of large CRDs, each plugin decoding its own copy of every
 * CRD cost hundreds of MB and seconds of startup.
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

/** The running caches by store, then by prefix and relist delay, with how many callers hold each. */
const shared = new WeakMap<Store, Map<string, { cache: ObjectCache; holders: number }>>();

/**
 * Caches the objects under `prefix` (ending in '/'), sharing the cache other callers hold for the
 * same store and prefix; the objects are shared too, so callers must not mutate them. `stop` ends
 * this caller's hold, and the watch once no caller holds it.
 */
export function objectCache(store: Store, prefix: string, opts: { relistDelayMs?: number } = {}): ObjectCache {
  let byKey = shared.get(store);
  if (byKey === undefined) shared.set(store, (byKey = new Map()));
  const key = `${opts.relistDelayMs ?? ''} ${prefix}`;
  let entry = byKey.get(key);
  if (entry === undefined) byKey.set(key, (entry = { cache: startObjectCache(store, prefix, opts), holders: 0 }));
  entry.holders++;
  const held = entry;
  const cache = held.cache;
  let stopped = false;
  return {
    synced: cache.synced,
    isSynced: () => !stopped && cache.isSynced(),
    get: (k) => cache.get(k),
    entries: () => cache.entries(),
    get version() {
      return cache.version;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (--held.holders > 0) return;
      cache.stop();
      if (byKey.get(key) === held) byKey.delete(key);
    },
  };
}

/**
 * An object as the cache holds it: its stored text until someone first asks for it, then the
 * decoded object (null: the text is not a JSON object). Most cached objects are never asked for
 * (a CRD is read by the admission plugins only for a policy or webhook that matches its kinds), so
 * decoding every one at start cost the seconds and the memory of a second copy of every CRD; the
 * text is the watch cache's own string, not a copy.
 */
type Entry = { text: string; obj?: Obj | null };

function decoded(e: Entry): Obj | undefined {
  if (e.obj === undefined) {
    e.obj = decode(e.text);
    e.text = '';
  }
  return e.obj ?? undefined;
}

function decode(value: string): Obj | null {
  try {
    const o = JSON.parse(value) as unknown;
    return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Obj) : null;
  } catch {
    return null;
  }
}

function* decodedEntries(entries: Map<string, Entry>): IterableIterator<[string, Obj]> {
  for (const [key, e] of entries) {
    const o = decoded(e);
    if (o !== undefined) yield [key, o];
  }
}

function startObjectCache(store: Store, prefix: string, opts: { relistDelayMs?: number }): ObjectCache {
  const objects = new Map<string, Entry>();
  let synced = false;
  let stopped = false;
  let watch: Watch | undefined;
  let timer: NodeJS.Timeout | undefined;
  let version = 0;

  const put = (key: string, value: string) => {
    objects.set(key, { text: value });
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
      // From the watch cache when there is one (a consistent read): the texts kept are then the
      // cache's own strings.
      const list = await store.range(prefix, { resourcePrefix: prefix });
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
    get: (key) => {
      const e = objects.get(key);
      return e && decoded(e);
    },
    entries: () => decodedEntries(objects),
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
