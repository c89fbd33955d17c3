/**
 * The Store contract on an embedded SQLite file: revision checks, group commit, watch fan-out and
 * periodic compaction around the SQL of ./driver.ts.
 *
 * Group commit: writes issued in the same turn of the event loop are queued and committed together
 * in one transaction, and a write whose precondition fails (or that hits the unique index) fails
 * alone: its precondition is checked before it writes, and its one INSERT, when refused, is undone
 * by SQLite's statement rollback (no savepoint needed: two statements fewer per write). A write's promise settles only after that transaction has
 * committed with synchronous=FULL, so an acknowledged write is durable; the batch pays for one WAL
 * sync instead of one per write. Revisions are assigned in queue order, and the batch's events are
 * published to watchers in that order right after the commit.
 */

import { Broadcaster } from '../broadcaster.ts';
import { prefixEnd } from '../prefix.ts';
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
} from '../store.ts';
import { Compactor, type CompactionPolicy } from './compactor.ts';
import { rowToKeyValue, SqliteDriver, translateError, type ConnectionOptions } from './driver.ts';

export interface SqliteStoreOptions extends ConnectionOptions, Partial<CompactionPolicy> {
  /** The database file; created if missing. */
  path: string;
  /** At most this many writes per transaction (default 1000); the rest go in the next one. */
  maxBatch?: number;
}

type WriteOp =
  | { op: 'create'; key: string; value: string }
  | { op: 'update'; key: string; value: string; expected: number }
  | { op: 'delete'; key: string; expected: number };

interface Pending {
  write: WriteOp;
  resolve: (kv: KeyValue) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; kv: KeyValue; event: WatchEvent } | { ok: false; err: unknown };

/** Error for calls on a closed store. */
export class StoreClosedError extends Error {
  constructor() {
    super('storage is closed');
    this.name = 'StoreClosedError';
  }
}

/**
 * Open the SQLite store at `opts.path` (WAL, synchronous=FULL, exclusive lock) and start its
 * compactor. See ./compactor.ts for the retention policy and its defaults.
 */
export async function openSqliteStore(opts: SqliteStoreOptions): Promise<Store> {
  return new SqliteStore(SqliteDriver.open(opts.path, opts), opts);
}

/** The SQLite implementation of Store. Construct through openSqliteStore. */
export class SqliteStore implements Store {
  private rev: number;
  private compacted: number;
  private queue: Pending[] = [];
  private scheduled = false;
  private closed = false;
  /** Set when close() starts: new writes are refused while the queue drains. */
  private closing = false;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => {};
  private readonly maxBatch: number;
  private readonly broadcaster: Broadcaster;
  private readonly compactor: Compactor;
  private compacting: Promise<void> = Promise.resolve();

  constructor(
    private readonly driver: SqliteDriver,
    opts: Omit<SqliteStoreOptions, 'path'> = {},
  ) {
    this.rev = driver.currentRevision();
    this.compacted = driver.compactedRevision();
    this.maxBatch = Math.max(1, opts.maxBatch ?? 1000);
    this.broadcaster = new Broadcaster({
      currentRevision: () => this.rev,
      compactedRevision: () => this.compacted,
      history: (prefix, after) => this.driver.history(prefix, prefixEnd(prefix), after),
    });
    this.compactor = new Compactor(this, opts);
  }

  async currentRevision(): Promise<number> {
    this.checkOpen();
    return this.rev;
  }

  async compactedRevision(): Promise<number> {
    this.checkOpen();
    return this.compacted;
  }

  async get(key: string, revision?: number): Promise<KeyValue | undefined> {
    this.checkOpen();
    const rev = this.readRevision(revision);
    const row = this.driver.latest(key, rev);
    return row && !row.deleted ? rowToKeyValue(row) : undefined;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    this.checkOpen();
    const revision = this.readRevision(opts.revision);
    const start = opts.startKey !== undefined && opts.startKey > prefix ? opts.startKey : prefix;
    const end = prefixEnd(prefix);
    if (end !== undefined && start >= end) return { items: [], revision, more: false, count: 0 };
    if (opts.countOnly) return { items: [], revision, more: false, count: this.driver.count(start, end, revision) };
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    // One row past the limit tells whether more follow without counting.
    const rows = this.driver.list(start, end, revision, limit > 0 ? limit + 1 : -1);
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    const count = more ? this.driver.count(start, end, revision) : rows.length;
    return { items: rows.map(rowToKeyValue), revision, more, count };
  }

  create(key: string, value: string): Promise<KeyValue> {
    return this.enqueue({ op: 'create', key, value });
  }

  update(key: string, value: string, expectedModRevision: number): Promise<KeyValue> {
    return this.enqueue({ op: 'update', key, value, expected: expectedModRevision });
  }

  delete(key: string, expectedModRevision: number): Promise<KeyValue> {
    return this.enqueue({ op: 'delete', key, expected: expectedModRevision });
  }

  watch(prefix: string, opts: WatchOptions): Watch {
    this.checkOpen();
    return this.broadcaster.watch(prefix, opts);
  }

  async historyStart(prefix: string, afterRevision: number, maxBytes: number, perEvent: number): Promise<number> {
    this.checkOpen();
    return this.driver.historyStart(prefix, prefixEnd(prefix), afterRevision, maxBytes, perEvent);
  }

  /**
   * Compact history before `revision` (etcd's semantics: the state at `revision` stays readable,
   * reads and watches before it fail with CompactedError). CompactedError if `revision` is not newer
   * than the compacted revision, FutureRevisionError if it is newer than the current one. Large
   * spans are deleted in steps of a few thousand revisions, yielding between steps.
   */
  compact(revision: number): Promise<void> {
    const run = this.compacting.then(() => this.compactNow(revision));
    this.compacting = run.catch(() => {});
    return run;
  }

  private async compactNow(revision: number): Promise<void> {
    this.checkOpen();
    if (revision > this.rev) throw new FutureRevisionError(revision, this.rev);
    if (revision <= this.compacted) throw new CompactedError(revision, this.compacted);
    const step = 5000;
    while (this.compacted < revision) {
      const to = Math.min(revision, this.compacted + step);
      this.driver.compact(this.compacted, to);
      this.compacted = to;
      if (to < revision) {
        await new Promise<void>((r) => setImmediate(r));
        this.checkOpen();
      }
    }
  }

  /** Flush queued writes, stop the compactor, fail live watches, close the file. Idempotent. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.compactor.stop();
    await this.drained();
    await this.compacting;
    this.closed = true;
    this.broadcaster.close();
    this.driver.close();
  }

  /** Resolves once every queued write has been committed or failed. */
  private async drained(): Promise<void> {
    while (this.queue.length > 0 || this.scheduled) await this.idle;
  }

  private checkOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }

  /** The revision a read is served at: current for 0/absent; compacted and future ones fail. */
  private readRevision(revision: number | undefined): number {
    if (!revision) return this.rev;
    if (revision > this.rev) throw new FutureRevisionError(revision, this.rev);
    if (revision < this.compacted) throw new CompactedError(revision, this.compacted);
    return revision;
  }

  private enqueue(write: WriteOp): Promise<KeyValue> {
    if (this.closing) return Promise.reject(new StoreClosedError());
    return new Promise<KeyValue>((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        this.idle = new Promise<void>((r) => (this.markIdle = r));
        // setImmediate, not a microtask: writes issued by every callback of this event-loop turn
        // join the same transaction.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batch = this.queue.splice(0, this.maxBatch);
    const outcomes: Outcome[] = [];
    const d = this.driver;
    try {
      d.begin();
      for (const p of batch) {
        try {
          outcomes.push({ ok: true, ...this.apply(p.write) });
        } catch (err) {
          // SQLite ends the transaction itself on some errors (disk full, I/O): the batch failed.
          if (!d.inTransaction()) throw err;
          outcomes.push({ ok: false, err: translateError(err, p.write.key, p.write.op) });
        }
      }
      d.commit();
    } catch (err) {
      // The transaction as a whole failed (I/O error, disk full): nothing of it is durable.
      d.rollback();
      this.rev = d.currentRevision();
      for (const p of batch) p.reject(err);
      this.afterFlush();
      return;
    }
    const events: WatchEvent[] = [];
    for (const o of outcomes) if (o.ok) events.push(o.event);
    if (events.length > 0) this.rev = events[events.length - 1]!.kv.modRevision;
    this.broadcaster.publish(events);
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if (o.ok) p.resolve(o.kv);
      else p.reject(o.err);
    });
    this.afterFlush();
  }

  private afterFlush(): void {
    if (this.queue.length > 0) {
      setImmediate(() => this.flush());
    } else {
      this.scheduled = false;
      this.markIdle();
    }
  }

  /** Check one write's precondition against the latest row and append its row. Throws ConflictError. */
  private apply(w: WriteOp): { kv: KeyValue; event: WatchEvent } {
    const d = this.driver;
    const cur = d.latest(w.key);
    const live = cur && !cur.deleted ? rowToKeyValue(cur) : undefined;
    if (w.op === 'create') {
      if (live) throw new ConflictError(w.key, 'exists', live);
      const id = d.insert({ name: w.key, created: 1, deleted: 0, create_revision: 0, prev_revision: cur?.id ?? 0, value: w.value });
      const kv = { key: w.key, value: w.value, createRevision: id, modRevision: id };
      return { kv, event: { type: 'PUT', kv } };
    }
    if (!live) throw new ConflictError(w.key, 'not-found');
    if (live.modRevision !== w.expected) throw new ConflictError(w.key, 'modified', live);
    if (w.op === 'update') {
      const id = d.insert({
        name: w.key,
        created: 0,
        deleted: 0,
        create_revision: live.createRevision,
        prev_revision: live.modRevision,
        value: w.value,
      });
      const kv = { key: w.key, value: w.value, createRevision: live.createRevision, modRevision: id };
      return { kv, event: { type: 'PUT', kv, prev: live } };
    }
    const id = d.insert({
      name: w.key,
      created: 0,
      deleted: 1,
      create_revision: live.createRevision,
      prev_revision: live.modRevision,
      value: live.value,
    });
    const kv = { ...live, modRevision: id };
    return { kv, event: { type: 'DELETE', kv, prev: live } };
  }
}
