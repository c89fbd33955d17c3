/**
 * The SQLite driver: the schema, every SQL statement, and the translation of SQLite errors. It keeps
 * the data as kine does, in one append-only log table whose row id is the revision:
 *
 *   kine(id INTEGER PRIMARY KEY AUTOINCREMENT, name, created, deleted, create_revision,
 *        prev_revision, value)
 *
 * A create appends a row with created=1 (its create revision is its own id); an update appends a
 * row with prev_revision = the row it replaces; a delete appends a row with deleted=1 carrying the
 * value it removed. The state at revision R is, for each name, the latest row with id <= R unless
 * that row is a deletion. A UNIQUE index on (name, prev_revision) makes two writes that both
 * replace the same row impossible, so a lost race surfaces as a conflict rather than a fork.
 * AUTOINCREMENT keeps ids from being reused after compaction deletes the newest rows, so the
 * current revision is sqlite_sequence's value, never MAX(id).
 *
 * All calls are synchronous (better-sqlite3); the store above owns batching and ordering.
 */

import Database from 'better-sqlite3';
import { ConflictError, type KeyValue, type WatchEvent } from '../store.ts';

/** One log row as stored. */
export interface LogRow {
  id: number;
  name: string;
  created: number;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: string;
}

/** A log row joined with the row it replaced (prefixed `p_`), for watch replay. */
interface HistoryRow extends LogRow {
  p_id: number | null;
  p_created: number | null;
  p_deleted: number | null;
  p_create_revision: number | null;
  p_value: string | null;
}

const TABLE = 'kine';
const META = 'kine_meta';
const COMPACT_KEY = 'compact_revision';
/** Up to this many revisions, watch replay reads the log by revision rather than by name. */
const HISTORY_SCAN_BY_REVISION = 50_000;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS ${TABLE} (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     name TEXT NOT NULL,
     created INTEGER NOT NULL,
     deleted INTEGER NOT NULL,
     create_revision INTEGER NOT NULL,
     prev_revision INTEGER NOT NULL,
     value TEXT NOT NULL
   )`,
  // Range and get: latest row per name at a revision, names in order.
  `CREATE INDEX IF NOT EXISTS ${TABLE}_name_id_index ON ${TABLE} (name, id)`,
  // Compaction finds superseded rows through the rows that replaced them.
  `CREATE INDEX IF NOT EXISTS ${TABLE}_prev_revision_index ON ${TABLE} (prev_revision)`,
  `CREATE UNIQUE INDEX IF NOT EXISTS ${TABLE}_name_prev_revision_uindex ON ${TABLE} (name, prev_revision)`,
  `CREATE TABLE IF NOT EXISTS ${META} (key TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
];

/** Connection settings the store runs with. */
export interface ConnectionOptions {
  /**
   * 'FULL' (the default) syncs the WAL on every commit, so an acknowledged write survives a crash
   * or power loss. 'NORMAL' survives a process crash but not power loss.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /**
   * Hold the file lock for the life of the connection (default true). The store keeps the current
   * revision and the watchers in memory, so a second writer on the same file would break them;
   * the exclusive lock makes a second opener fail instead.
   */
  exclusive?: boolean;
  /** How long to wait for a lock held by another connection (default 5000 ms). */
  busyTimeoutMs?: number;
}

/**
 * Apply the store's pragmas to a connection: WAL journal, the given synchronous level, a busy
 * timeout, and (by default) exclusive locking. Exported so that benchmarks can give a raw
 * better-sqlite3 baseline exactly the same settings.
 */
export function configureConnection(db: Database.Database, opts: ConnectionOptions = {}): void {
  if (opts.exclusive ?? true) db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
}

/**
 * Translate an error raised while applying a write to `key`. A unique-index violation means
 * another write replaced the same row first: a conflict ('exists' for a create, 'modified'
 * otherwise). Anything else is passed through.
 */
export function translateError(err: unknown, key: string, op: 'create' | 'update' | 'delete'): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new ConflictError(key, op === 'create' ? 'exists' : 'modified');
  }
  return err;
}

/** A row as the KeyValue it stores (for a deletion row: the value it removed). */
export function rowToKeyValue(row: LogRow): KeyValue {
  return {
    key: row.name,
    value: row.value,
    createRevision: row.created ? row.id : row.create_revision,
    modRevision: row.id,
  };
}

/** Prepared statements over one open database file. */
export class SqliteDriver {
  private readonly stmts;
  private readonly listStmts = new Map<string, Database.Statement>();

  private constructor(readonly db: Database.Database) {
    const cols = 'id, name, created, deleted, create_revision, prev_revision, value';
    this.stmts = {
      sequence: db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = '${TABLE}'`).pluck(),
      seedSequence: db.prepare(`INSERT INTO sqlite_sequence (name, seq) VALUES ('${TABLE}', 1)`),
      compactRev: db.prepare(`SELECT value FROM ${META} WHERE key = '${COMPACT_KEY}'`).pluck(),
      setCompactRev: db.prepare(
        `INSERT INTO ${META} (key, value) VALUES ('${COMPACT_KEY}', ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      latest: db.prepare(`SELECT ${cols} FROM ${TABLE} WHERE name = ? ORDER BY id DESC LIMIT 1`),
      latestAt: db.prepare(`SELECT ${cols} FROM ${TABLE} WHERE name = ? AND id <= ? ORDER BY id DESC LIMIT 1`),
      insert: db.prepare(
        `INSERT INTO ${TABLE} (name, created, deleted, create_revision, prev_revision, value)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      // Rows superseded by a row in (from, to], and deletion rows in (from, to]. Rows superseded at
      // or before `from` and deletions at or before it went in earlier compactions.
      compact: db.prepare(
        `DELETE FROM ${TABLE} WHERE id IN (
           SELECT prev_revision FROM ${TABLE} WHERE id > :from AND id <= :to AND prev_revision != 0
           UNION
           SELECT id FROM ${TABLE} WHERE id > :from AND id <= :to AND deleted != 0
         )`,
      ),
    };
  }

  /** Open (creating if needed) the database file at `path` and bring its schema up to date. */
  static open(path: string, opts: ConnectionOptions = {}): SqliteDriver {
    // The constructor's timeout governs the first lock taken (by the pragmas), before busy_timeout.
    const db = new Database(path, { timeout: Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000)) });
    try {
      configureConnection(db, opts);
      db.transaction(() => {
        for (const stmt of SCHEMA) db.exec(stmt);
      }).immediate();
      const driver = new SqliteDriver(db);
      // An empty store is at revision 1, as an empty etcd is; the first write is revision 2.
      db.transaction(() => {
        if (driver.stmts.sequence.get() === undefined) driver.stmts.seedSequence.run();
      }).immediate();
      return driver;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** The last revision written (the sequence behind the row ids). */
  currentRevision(): number {
    return Number(this.stmts.sequence.get() ?? 1);
  }

  /** The revision recorded by the last compaction (0 if none). */
  compactedRevision(): number {
    return Number(this.stmts.compactRev.get() ?? 0);
  }

  /** The newest row of `name` (possibly a deletion), at `revision` when given. */
  latest(name: string, revision?: number): LogRow | undefined {
    return (revision === undefined ? this.stmts.latest.get(name) : this.stmts.latestAt.get(name, revision)) as
      | LogRow
      | undefined;
  }

  /** Append a row; returns its id (the new revision). */
  insert(row: Omit<LogRow, 'id'>): number {
    const res = this.stmts.insert.run(row.name, row.created, row.deleted, row.create_revision, row.prev_revision, row.value);
    return Number(res.lastInsertRowid);
  }

  begin(): void {
    this.stmts.begin.run();
  }
  commit(): void {
    this.stmts.commit.run();
  }
  rollback(): void {
    if (this.db.inTransaction) this.stmts.rollback.run();
  }
  /** Whether a transaction is open (SQLite rolls one back by itself after some errors). */
  inTransaction(): boolean {
    return this.db.inTransaction;
  }

  /**
   * The live rows in [start, end) at `revision`, in name order, at most `limit` (negative: all).
   * The outer scan walks the (name, id) index in order and stops at the limit; each candidate is
   * checked against its name's latest row at the revision through the same index.
   */
  list(start: string, end: string | undefined, revision: number, limit: number): LogRow[] {
    return this.listStatement('list', end !== undefined).all(this.listParams(start, end, revision, limit)) as LogRow[];
  }

  /** The number of live keys in [start, end) at `revision`. */
  count(start: string, end: string | undefined, revision: number): number {
    return Number(this.listStatement('count', end !== undefined).pluck().get(this.listParams(start, end, revision, -1)));
  }

  private listParams(start: string, end: string | undefined, revision: number, limit: number) {
    return end === undefined ? { start, revision, limit } : { start, end, revision, limit };
  }

  private listStatement(kind: 'list' | 'count', bounded: boolean): Database.Statement {
    const id = `${kind}:${bounded}`;
    let stmt = this.listStmts.get(id);
    if (!stmt) {
      const select =
        kind === 'list' ? 'SELECT k.id, k.name, k.created, k.deleted, k.create_revision, k.prev_revision, k.value' : 'SELECT COUNT(*)';
      stmt = this.db.prepare(
        `${select} FROM ${TABLE} AS k
         WHERE k.name >= :start ${bounded ? 'AND k.name < :end' : ''} AND k.id <= :revision AND k.deleted = 0
           AND k.id = (SELECT MAX(m.id) FROM ${TABLE} AS m WHERE m.name = k.name AND m.id <= :revision)
         ${kind === 'list' ? 'ORDER BY k.name LIMIT :limit' : ''}`,
      );
      this.listStmts.set(id, stmt);
    }
    return stmt;
  }

  /**
   * Every change in [start, end) after `afterRevision`, in revision order, as watch events.
   * A watch usually starts from a recent revision (the one its list returned), so the log is read
   * by revision through the primary key; only when the span of revisions to read is large is it
   * cheaper to read the prefix's rows through the name index and sort them.
   */
  history(start: string, end: string | undefined, afterRevision: number): WatchEvent[] {
    const byRevision = this.currentRevision() - afterRevision <= HISTORY_SCAN_BY_REVISION;
    const id = `history:${end !== undefined}:${byRevision}`;
    let stmt = this.listStmts.get(id);
    if (!stmt) {
      // The unary + keeps the planner off the name index when reading by revision.
      const name = byRevision ? '+k.name' : 'k.name';
      stmt = this.db.prepare(
        `SELECT k.id, k.name, k.created, k.deleted, k.create_revision, k.prev_revision, k.value,
                p.id AS p_id, p.created AS p_created, p.deleted AS p_deleted,
                p.create_revision AS p_create_revision, p.value AS p_value
         FROM ${TABLE} AS k LEFT JOIN ${TABLE} AS p ON p.id = k.prev_revision
         WHERE k.id > :after AND ${name} >= :start ${end !== undefined ? `AND ${name} < :end` : ''}
         ORDER BY k.id`,
      );
      this.listStmts.set(id, stmt);
    }
    const rows = stmt.all(end === undefined ? { after: afterRevision, start } : { after: afterRevision, start, end }) as HistoryRow[];
    return rows.map((r) => {
      const ev: WatchEvent = { type: r.deleted ? 'DELETE' : 'PUT', kv: rowToKeyValue(r) };
      // A create after a delete replaces the deletion row: it has no previous value.
      if (r.p_id !== null && !r.p_deleted) {
        ev.prev = rowToKeyValue({
          id: r.p_id,
          name: r.name,
          created: r.p_created!,
          deleted: 0,
          create_revision: r.p_create_revision!,
          prev_revision: 0,
          value: r.p_value!,
        });
      }
      return ev;
    });
  }

  /**
   * The revision before the newest events in [start, end) after `afterRevision` that fit in
   * `maxBytes` (see Store.historyStart): reads the log newest first, the lengths only (SQLite
   * counts them without handing the values over), and stops at the first event past the bound.
   */
  historyStart(start: string, end: string | undefined, afterRevision: number, maxBytes: number, perEvent: number): number {
    const id = `historyStart:${end !== undefined}`;
    let stmt = this.listStmts.get(id);
    if (!stmt) {
      stmt = this.db.prepare(
        `SELECT k.id AS id, length(k.name) + length(k.value)
                  + CASE WHEN p.id IS NOT NULL AND p.deleted = 0 THEN length(p.value) ELSE 0 END AS bytes
         FROM ${TABLE} AS k LEFT JOIN ${TABLE} AS p ON p.id = k.prev_revision
         WHERE k.id > :after AND +k.name >= :start ${end !== undefined ? 'AND +k.name < :end' : ''}
         ORDER BY k.id DESC`,
      );
      this.listStmts.set(id, stmt);
    }
    let total = 0;
    let first = true;
    for (const row of stmt.iterate(end === undefined ? { after: afterRevision, start } : { after: afterRevision, start, end }) as IterableIterator<{ id: number; bytes: number }>) {
      total += row.bytes + perEvent;
      if (total > maxBytes && !first) return row.id;
      first = false;
    }
    return afterRevision;
  }

  /**
   * Compact the history in (from, to]: delete rows superseded by a row at or before `to` and
   * deletion rows at or before it, then record `to` as the compacted revision; one transaction.
   * The state at `to` and everything after it stay readable. Returns the number of rows deleted.
   */
  compact(from: number, to: number): number {
    return this.db
      .transaction(() => {
        const { changes } = this.stmts.compact.run({ from, to });
        this.stmts.setCompactRev.run(to);
        return changes;
      })
      .immediate();
  }

  /** EXPLAIN QUERY PLAN of the range query, for tests that pin index use. */
  explainList(bounded: boolean): string[] {
    const stmt = this.listStatement('list', bounded);
    return this.explain(stmt.source, bounded ? { start: '', end: '', revision: 0, limit: 1 } : { start: '', revision: 0, limit: 1 });
  }

  /** EXPLAIN QUERY PLAN of the watch-replay query from `afterRevision` (prepares it first). */
  explainHistory(afterRevision: number): string[] {
    this.history('a', 'b', afterRevision);
    const byRevision = this.currentRevision() - afterRevision <= HISTORY_SCAN_BY_REVISION;
    const stmt = this.listStmts.get(`history:true:${byRevision}`)!;
    return this.explain(stmt.source, { after: afterRevision, start: 'a', end: 'b' });
  }

  private explain(sql: string, params: Record<string, unknown>): string[] {
    const rows = this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[];
    return rows.map((r) => r.detail);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
