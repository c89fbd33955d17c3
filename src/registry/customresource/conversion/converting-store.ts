/**
 * The storage of one served version of a CRD whose objects are converted by a webhook, as
 * upstream's per-version storage codec converts them (crdConversionRESTOptionsGetter): a view of
 * the Store contract in which every value reads at the served version and is written at the
 * storage version. Reads convert what is stored at another version — a range page in one batch,
 * a get alone, watch events in order (the events that queued while a conversion was in flight go
 * together) — and writes convert the object to the storage version, pruned by that version's
 * schema, before it is stored. The registry's store above sees one version only, so its
 * selectors, no-op detection and decoding see the served version's objects; values already at
 * the wanted version pass untouched. A failed conversion rejects the read or write (a watch ends
 * with it) with upstream's 500. A dry run stores nothing but converts all the same: copyInto is
 * the round trip upstream's dry-run storage makes through the codec (to the storage version and
 * back), so the webhook is called, and refuses, as on a real write.
 */
import type { KeyValue, Store, Watch, WatchEvent } from '../../../storage/index.ts';
import { canonicalJSON } from '../../meta.ts';
import type { Obj } from '../../rest.ts';
import type { VersionConverter } from './converter.ts';

export interface ConvertingStoreConfig {
  /** The apiVersion objects are read and written at (`stable.example.com/v1beta1`). */
  servedAPIVersion: string;
  /** The apiVersion objects are stored at. */
  storageAPIVersion: string;
  converter: VersionConverter;
  /** MUTATES obj: the storage version's coercion of a converted object (pruning by its schema). */
  coerceForStorage(obj: Obj): void;
}

type RangeOptions = Parameters<Store['range']>[1];
type RangeResult = Awaited<ReturnType<Store['range']>>;
type WatchOptions = Parameters<Store['watch']>[1];
type WriteOptions = Parameters<Store['create']>[2];

/** The Store contract, plus the conversion a dry-run write makes. */
export interface ConvertingStore extends Store {
  /**
   * DryRunnableStorage.copyInto: `value` (at the served version) as a write would store it and a
   * read would return it — converted to the storage version, coerced by its schema, and back —
   * stored nowhere. Rejects as a write would when a conversion fails.
   */
  copyInto(value: string): Promise<string>;
}

/** The view of `inner` at one served version. */
export function convertingStore(inner: Store, cfg: ConvertingStoreConfig): ConvertingStore {
  return new ConvertingView(inner, cfg);
}

class ConvertingView implements ConvertingStore {
  constructor(
    private readonly inner: Store,
    private readonly cfg: ConvertingStoreConfig,
  ) {}

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  compactedRevision(): Promise<number> {
    return this.inner.compactedRevision();
  }

  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }

  /** The inner store is the server's: it is closed there. */
  async close(): Promise<void> {}

  async get(key: string, revision?: number): Promise<KeyValue | undefined> {
    const kv = await this.inner.get(key, revision);
    return kv === undefined ? undefined : (await this.toServed([kv], false))[0];
  }

  async range(prefix: string, opts?: RangeOptions): Promise<RangeResult> {
    const r = await this.inner.range(prefix, opts);
    if (r.items.length === 0) return r;
    return { ...r, items: await this.toServed(r.items, true) };
  }

  async create(key: string, value: string, opts?: WriteOptions): Promise<KeyValue> {
    const kv = await this.inner.create(key, await this.toStorage(value), opts);
    return { ...kv, value };
  }

  async update(key: string, value: string, expectedModRevision: number, opts?: WriteOptions): Promise<KeyValue> {
    const kv = await this.inner.update(key, await this.toStorage(value), expectedModRevision, opts);
    return { ...kv, value };
  }

  async delete(key: string, expectedModRevision: number): Promise<KeyValue> {
    const kv = await this.inner.delete(key, expectedModRevision);
    return (await this.toServed([kv], false))[0]!;
  }

  async copyInto(value: string): Promise<string> {
    const stored = await this.toStorage(value);
    const [kv] = await this.toServed([{ key: '', value: stored, createRevision: 0, modRevision: 0 }], false);
    return kv!.value;
  }

  watch(prefix: string, opts: WatchOptions): Watch {
    let queue: Array<{ ev?: WatchEvent; progress?: number; error?: Error }> = [];
    let running = false;
    let cancelled = false;
    const drain = async (): Promise<void> => {
      running = true;
      while (!cancelled && queue.length > 0) {
        const batch = queue;
        queue = [];
        const kvs: KeyValue[] = [];
        for (const item of batch) if (item.ev) kvs.push(item.ev.kv, ...(item.ev.prev ? [item.ev.prev] : []));
        let served: KeyValue[];
        try {
          served = kvs.length === 0 ? [] : await this.toServed(kvs, kvs.length > 1);
        } catch (e) {
          cancelled = true;
          inner.cancel();
          opts.onError?.(e instanceof Error ? e : new Error(String(e)));
          break;
        }
        let i = 0;
        for (const item of batch) {
          if (cancelled) break;
          if (item.ev) {
            const kv = served[i++]!;
            const prev = item.ev.prev ? served[i++] : undefined;
            opts.onEvent({ type: item.ev.type, kv, ...(prev ? { prev } : {}) });
          } else if (item.progress !== undefined) opts.onProgress?.(item.progress);
          else if (item.error) {
            cancelled = true;
            opts.onError?.(item.error);
          }
        }
      }
      running = false;
    };
    const push = (item: { ev?: WatchEvent; progress?: number; error?: Error }) => {
      if (cancelled) return;
      queue.push(item);
      if (!running) void drain();
    };
    const inner = this.inner.watch(prefix, {
      afterRevision: opts.afterRevision,
      onEvent: (ev) => push({ ev }),
      onError: (error) => push({ error }),
      onProgress: (progress) => push({ progress }),
    });
    return {
      cancel: () => {
        cancelled = true;
        queue = [];
        inner.cancel();
      },
    };
  }

  /** The values at the served version: those stored at another version converted together (as a list when `list`). */
  private async toServed(kvs: KeyValue[], list: boolean): Promise<KeyValue[]> {
    const want = this.cfg.servedAPIVersion;
    // Stored values are canonical JSON (keys sorted): one at the served version starts so.
    const atServed = `{"apiVersion":${JSON.stringify(want)},`;
    if (kvs.every((kv) => kv.value.startsWith(atServed))) return kvs;
    const objs = kvs.map((kv) => JSON.parse(kv.value) as Obj);
    if (objs.every((o) => o.apiVersion === want)) return kvs;
    const converted = await this.cfg.converter.convert(objs, want, list);
    // A single object's text is canonical, as the generic store's no-op check compares it with
    // the object it would write; a page's is only decoded, which any key order serves.
    const text = list ? JSON.stringify : canonicalJSON;
    return kvs.map((kv, i) => (converted[i] === objs[i] ? kv : { ...kv, value: text(converted[i]!) }));
  }

  /** A value to store: at the storage version, coerced by its schema. */
  private async toStorage(value: string): Promise<string> {
    const obj = JSON.parse(value) as Obj;
    if (obj.apiVersion === this.cfg.storageAPIVersion) return value;
    const [out] = await this.cfg.converter.convert([obj], this.cfg.storageAPIVersion, false);
    this.cfg.coerceForStorage(out!);
    return canonicalJSON(out!);
  }
}
