/**
 * The Store contract on etcd v3 (`etcd3` client). The contract was modelled on etcd, so each call is
 * one etcd request: create is a transaction on `mod_revision == 0`, update and delete transactions
 * on the expected `mod_revision` (the losing side reads the current value in the same transaction,
 * for the ConflictError), reads are linearizable ranges at a revision, and watch is an etcd watch
 * from `afterRevision + 1` with previous values and progress notifications. A resourceVersion is the
 * etcd revision itself, so every server on the same etcd hands out the same ones.
 *
 * Compaction is etcd's; its revision is recorded in `compact_rev_key` as kube-apiserver's compactor
 * does (./compactor.ts), which is how compactedRevision() and CompactedError know it. Keys written
 * with a TTL are attached to leases from ./leases.ts. Every request carries a deadline: when etcd
 * cannot be reached the call fails with StorageUnavailableError instead of waiting for it.
 */

import { circuitBreaker, ConsecutiveBreaker, handleWhen } from 'cockatiel';
import { Etcd3, isRecoverableError, type KVClient, type IKeyValue, type IOptions, type IWatchResponse, type Watcher } from 'etcd3';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Store,
  type Watch,
  type WatchEvent,
  type WatchOptions,
  type WriteOptions,
} from '../store.ts';
import { prefixEnd } from '../prefix.ts';
import { compactRevKey, KeyMapper } from './keys.ts';
import { Compactor, defaultCompactionIntervalMs } from './compactor.ts';
import { LeaseManager } from './leases.ts';
import { isCompacted, isFutureRevision, isUnavailable, StorageUnavailableError } from './errors.ts';

export interface EtcdTLS {
  /** PEM of the CA that signed the etcd members' certificates (--etcd-cafile). */
  ca?: Buffer;
  /** PEM client certificate and key (--etcd-certfile, --etcd-keyfile). */
  cert?: Buffer;
  key?: Buffer;
}

export interface EtcdStoreOptions {
  /** Client URLs of the etcd members (`http://127.0.0.1:2379`, `https://...`). */
  endpoints: string[];
  /** Root of every key in etcd (--etcd-prefix, default `/registry`). */
  prefix?: string;
  tls?: EtcdTLS;
  /** --etcd-compaction-interval in milliseconds (default 5 minutes; 0 disables the loop). */
  compactionIntervalMs?: number;
  /** Deadline of each request to etcd (default 10 s). */
  requestTimeoutMs?: number;
  /** Reports background failures (the compaction loop). */
  onError?: (err: unknown) => void;
}

/** The gRPC options of one call (its deadline). */
type CallOptions = NonNullable<Parameters<KVClient['range']>[1]>;

/** How long one storage call may wait for etcd, all retries included. */
export const defaultRequestTimeoutMs = 10_000;

const CompareTarget = { Version: 0, Mod: 2 } as const;
const CompareResult = { Equal: 0, Greater: 1 } as const;

/** Error for calls on a closed store. */
export class EtcdStoreClosedError extends Error {
  constructor() {
    super('storage is closed');
    this.name = 'EtcdStoreClosedError';
  }
}

/** Connects to etcd (the first request proves the cluster answers) and starts the compactor. */
export async function openEtcdStore(opts: EtcdStoreOptions): Promise<EtcdStore> {
  const store = new EtcdStore(opts);
  try {
    await store.currentRevision();
  } catch (e) {
    await store.close();
    throw e;
  }
  return store;
}

/** The etcd client options for endpoints, TLS and per-request deadlines. */
export function etcdClientOptions(opts: Pick<EtcdStoreOptions, 'endpoints' | 'tls' | 'requestTimeoutMs'>): IOptions {
  const timeout = opts.requestTimeoutMs ?? defaultRequestTimeoutMs;
  const o: IOptions = {
    hosts: opts.endpoints,
    dialTimeout: Math.min(timeout, 5000),
    // Streams (watch, keepalive) live as long as they are wanted; unary calls get a deadline.
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + timeout }),
    // A member that failed three calls in a row is skipped, and tried again after a second (the
    // client's default is five): after a restart or a leader election the member that answers
    // again is used again at once, as Go's client, which has no breaker, would.
    faultHandling: {
      host: () => circuitBreaker(handleWhen(isRecoverableError), { halfOpenAfter: 1000, breaker: new ConsecutiveBreaker(3) }),
    },
  };
  if (opts.tls?.ca || opts.tls?.cert) {
    o.credentials = { rootCertificate: opts.tls.ca ?? Buffer.alloc(0), privateKey: opts.tls.key, certChain: opts.tls.cert };
  }
  return o;
}

export class EtcdStore implements Store {
  readonly client: Etcd3;
  readonly keys: KeyMapper;
  private readonly leases: LeaseManager;
  private readonly compactor: Compactor;
  private readonly watches = new Set<EtcdWatch>();
  private closed = false;
  private readonly timeoutMs: number;

  constructor(opts: EtcdStoreOptions) {
    this.timeoutMs = opts.requestTimeoutMs ?? defaultRequestTimeoutMs;
    this.keys = new KeyMapper(opts.prefix);
    this.client = new Etcd3(etcdClientOptions(opts));
    this.leases = new LeaseManager(async (ttl) => (await this.call((o) => this.client.leaseClient.leaseGrant({ TTL: ttl }, o))).ID);
    this.compactor = new Compactor(this.client.kv, opts.compactionIntervalMs ?? defaultCompactionIntervalMs, opts.onError);
  }

  async currentRevision(): Promise<number> {
    const r = await this.call((o) => this.client.kv.range({ key: Buffer.from(compactRevKey), count_only: true }, o));
    return Number(r.header.revision);
  }

  async compactedRevision(): Promise<number> {
    const r = await this.call((o) => this.client.kv.range({ key: Buffer.from(compactRevKey) }, o));
    const kv = r.kvs[0];
    return kv ? Number(kv.value.toString()) : 0;
  }

  async get(key: string, revision?: number): Promise<KeyValue | undefined> {
    const r = await this.read(revision, (o) => this.client.kv.range({ key: this.etcdKey(key), revision: revision || 0 }, o));
    const kv = r.kvs[0];
    return kv ? this.toKeyValue(kv) : undefined;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const startKey = opts.startKey !== undefined && opts.startKey > prefix ? opts.startKey : prefix;
    const end = prefixEnd(prefix);
    const revision = opts.revision || 0;
    if (end !== undefined && startKey >= end) {
      return { items: [], revision: revision || (await this.currentRevision()), more: false, count: 0 };
    }
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const r = await this.read(revision, (o) =>
      this.client.kv.range({
        key: this.etcdKey(startKey),
        // No end: every key from startKey (the empty prefix); etcd's "\0" means "to the end".
        range_end: end === undefined ? Buffer.from([0]) : this.etcdKey(end),
        revision,
        limit,
        count_only: opts.countOnly ?? false,
      }, o),
    );
    const items = opts.countOnly ? [] : r.kvs.map((kv) => this.toKeyValue(kv));
    return { items, revision: revision || Number(r.header.revision), more: !opts.countOnly && r.more, count: Number(r.count) };
  }

  async create(key: string, value: string, opts?: WriteOptions): Promise<KeyValue> {
    const k = this.etcdKey(key);
    const lease = await this.leaseFor(opts);
    const r = await this.call((o) =>
      this.client.kv.txn({
        compare: [{ key: k, target: CompareTarget.Mod, result: CompareResult.Equal, mod_revision: 0 }],
        success: [{ request_put: { key: k, value: Buffer.from(value), lease } }],
        failure: [{ request_range: { key: k } }],
      }, o),
    );
    if (!r.succeeded) {
      const cur = r.responses[0]?.response_range?.kvs?.[0];
      throw new ConflictError(key, 'exists', cur ? this.toKeyValue(cur) : undefined);
    }
    const rev = Number(r.header.revision);
    return { key, value, createRevision: rev, modRevision: rev };
  }

  async update(key: string, value: string, expectedModRevision: number, opts?: WriteOptions): Promise<KeyValue> {
    const k = this.etcdKey(key);
    const lease = await this.leaseFor(opts);
    const r = await this.call((o) =>
      this.client.kv.txn({
        compare: this.expect(k, expectedModRevision),
        success: [{ request_put: { key: k, value: Buffer.from(value), lease, prev_kv: true } }],
        failure: [{ request_range: { key: k } }],
      }, o),
    );
    if (!r.succeeded) throw this.conflict(key, r.responses[0]?.response_range?.kvs?.[0]);
    const prev = r.responses[0]?.response_put?.prev_kv;
    const rev = Number(r.header.revision);
    return { key, value, createRevision: prev ? Number(prev.create_revision) : rev, modRevision: rev };
  }

  async delete(key: string, expectedModRevision: number): Promise<KeyValue> {
    const k = this.etcdKey(key);
    const r = await this.call((o) =>
      this.client.kv.txn({
        compare: this.expect(k, expectedModRevision),
        success: [{ request_delete_range: { key: k, prev_kv: true } }],
        failure: [{ request_range: { key: k } }],
      }, o),
    );
    if (!r.succeeded) throw this.conflict(key, r.responses[0]?.response_range?.kvs?.[0]);
    const prev = r.responses[0]?.response_delete_range?.prev_kvs?.[0];
    if (!prev) throw new ConflictError(key, 'not-found');
    return { ...this.toKeyValue(prev), modRevision: Number(r.header.revision) };
  }

  watch(prefix: string, opts: WatchOptions): Watch {
    if (this.closed) throw new EtcdStoreClosedError();
    const w = new EtcdWatch(this, prefix, opts, () => this.watches.delete(w));
    this.watches.add(w);
    return w;
  }

  /**
   * Compact etcd at `revision` (the state at it stays readable). FutureRevisionError past the
   * current revision, CompactedError at or before the compacted one. Recorded in compact_rev_key
   * first, as upstream's compactor does, so that every server learns the compacted revision.
   */
  async compact(revision: number): Promise<void> {
    const key = Buffer.from(compactRevKey);
    const cur = await this.call((o) => this.client.kv.range({ key }, o));
    const current = Number(cur.header.revision);
    if (revision > current) throw new FutureRevisionError(revision, current);
    const recorded = cur.kvs[0];
    const compacted = recorded ? Number(recorded.value.toString()) : 0;
    if (revision <= compacted) throw new CompactedError(revision, compacted);
    const version = recorded ? Number(recorded.version) : 0;
    await this.call((o) =>
      this.client.kv.txn({
        compare: [{ key, target: CompareTarget.Version, result: CompareResult.Equal, version }],
        success: [{ request_put: { key, value: Buffer.from(String(revision)) } }],
        failure: [],
      }, o),
    );
    try {
      await this.call((o) => this.client.kv.compact({ revision }, o));
    } catch (e) {
      if (isCompacted(e)) throw new CompactedError(revision, await this.compactedRevision());
      throw e;
    }
  }

  /** Readiness as kube-apiserver's etcd check asks it: a read of `<prefix>/health` answers in time. */
  async checkHealth(): Promise<void> {
    await this.call((o) => this.client.kv.range({ key: Buffer.from(`${this.keys.prefix}/health`), count_only: true }, o));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.compactor.stop();
    for (const w of [...this.watches]) w.fail(new EtcdStoreClosedError());
    this.client.close();
  }

  /** @internal The etcd client's watch builder (for EtcdWatch). */
  watchBuilder() {
    return this.client.watch();
  }

  /** @internal */
  etcdKey(key: string): Buffer {
    return Buffer.from(this.keys.toEtcd(key));
  }

  /** @internal */
  toKeyValue(kv: IKeyValue): KeyValue {
    return {
      key: this.keys.fromEtcd(kv.key.toString()),
      value: kv.value.toString(),
      createRevision: Number(kv.create_revision),
      modRevision: Number(kv.mod_revision),
    };
  }

  /**
   * Run one etcd request under one deadline for all of the client's attempts (it retries on
   * another member when one fails); unreachable-cluster failures become StorageUnavailableError.
   */
  async call<T>(fn: (o: CallOptions) => Promise<T>): Promise<T> {
    if (this.closed) throw new EtcdStoreClosedError();
    try {
      return await fn({ deadline: Date.now() + this.timeoutMs });
    } catch (e) {
      if (isUnavailable(e)) throw new StorageUnavailableError(e);
      throw e;
    }
  }

  /** A read at `revision`, with etcd's compacted/future answers turned into the contract's errors. */
  private async read<T>(revision: number | undefined, fn: (o: CallOptions) => Promise<T>): Promise<T> {
    try {
      return await this.call(fn);
    } catch (e) {
      if (isCompacted(e)) throw new CompactedError(revision ?? 0, await this.compactedRevision());
      if (isFutureRevision(e)) throw new FutureRevisionError(revision ?? 0, await this.currentRevision());
      throw e;
    }
  }

  /** The key exists (version > 0) at the expected modRevision. */
  private expect(k: Buffer, expectedModRevision: number) {
    return [
      { key: k, target: CompareTarget.Version, result: CompareResult.Greater, version: 0 },
      { key: k, target: CompareTarget.Mod, result: CompareResult.Equal, mod_revision: expectedModRevision },
    ];
  }

  private conflict(key: string, cur: IKeyValue | undefined): ConflictError {
    return cur ? new ConflictError(key, 'modified', this.toKeyValue(cur)) : new ConflictError(key, 'not-found');
  }

  private async leaseFor(opts: WriteOptions | undefined): Promise<string | undefined> {
    const ttl = opts?.ttlSeconds;
    if (ttl === undefined || !(ttl > 0)) return undefined;
    return this.leases.getLease(Math.ceil(ttl));
  }
}

/**
 * One contract watch over an etcd watcher: events after `afterRevision` under the prefix, mapped
 * to the contract's shape (a DELETE carries the deleted value), deduplicated by revision across the
 * client's reconnects, and a cancelled-for-compaction watch reported as CompactedError.
 */
class EtcdWatch implements Watch {
  private done = false;
  private last: number;
  private watcher: Watcher | undefined;

  constructor(
    private readonly store: EtcdStore,
    private readonly prefix: string,
    private readonly opts: WatchOptions,
    private readonly detach: () => void,
  ) {
    this.last = opts.afterRevision;
    const end = prefixEnd(prefix);
    const builder = store.watchBuilder().withPreviousKV().startRevision(String(opts.afterRevision + 1));
    const start = store.etcdKey(prefix);
    const w = (this.watcher = builder.inRange({ start, end: end === undefined ? Buffer.from([0]) : store.etcdKey(end) }).watcher());
    w.on('data', (res: IWatchResponse) => this.onData(res));
    w.on('error', (err: Error) => void this.onWatchError(err));
    this.created = new Promise<void>((resolve) => {
      w.once('connected', () => resolve());
      w.once('error', () => resolve());
    });
  }

  readonly created: Promise<void>;

  private onData(res: IWatchResponse): void {
    if (this.done) return;
    if (res.events.length === 0) {
      if (!res.created && !res.canceled) this.opts.onProgress?.(Number(res.header.revision));
      return;
    }
    for (const ev of res.events) {
      const kv = this.store.toKeyValue(ev.kv);
      if (kv.modRevision <= this.last) continue;
      this.last = kv.modRevision;
      const prev = ev.prev_kv ? this.store.toKeyValue(ev.prev_kv) : undefined;
      let out: WatchEvent;
      if (ev.type === 'Delete') {
        out = prev ? { type: 'DELETE', kv: { ...prev, modRevision: kv.modRevision }, prev } : { type: 'DELETE', kv };
      } else {
        out = prev ? { type: 'PUT', kv, prev } : { type: 'PUT', kv };
      }
      try {
        this.opts.onEvent(out);
      } catch (err) {
        this.fail(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      if (this.done) return;
    }
  }

  private async onWatchError(err: Error): Promise<void> {
    // The client emits 'error' only for a watch etcd cancelled (compaction among the reasons),
    // having dropped the watcher already: cancelling it again would send etcd a cancel request
    // for an id the client no longer knows, and the client throws on etcd's answer (an uncaught
    // exception that ends the process).
    this.watcher = undefined;
    if (this.done) return;
    let compacted = 0;
    try {
      compacted = await this.store.compactedRevision();
    } catch {
      // etcd unreachable: report the watch's own error.
    }
    if (isCompacted(err) || compacted > this.last) {
      this.fail(new CompactedError(this.last, Math.max(compacted, this.last + 1)));
    } else {
      this.fail(err);
    }
  }

  /** Stop with an error: onError once, then nothing more. */
  fail(err: Error): void {
    if (this.done) return;
    this.cancel();
    const onError = this.opts.onError;
    if (onError) queueMicrotask(() => onError(err));
  }

  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.detach();
    this.watcher?.cancel().catch(() => {});
    this.watcher = undefined;
  }
}
