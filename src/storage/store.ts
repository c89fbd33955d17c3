/**
 * The storage contract: an MVCC key-value store modelled on etcd v3, so that the SQLite backend
 * and the etcd backend are interchangeable and the layers above cannot tell them apart.
 *
 * - One global revision that every write increases by one; each key has createRevision and
 *   modRevision. A resourceVersion is the modRevision as a decimal string.
 * - create fails if the key exists; update and delete carry the expected modRevision and fail
 *   with a Conflict when it does not match.
 * - range reads at a given revision see the state as of that revision (consistent snapshots for
 *   limit/continue).
 * - watch from a revision delivers every change after it, in revision order; a revision older
 *   than the compacted one fails with a Compacted error.
 * - compaction drops history older than a retention window.
 *
 * Values are opaque bytes to the store (the registry stores JSON text).
 */

/** One key at one revision. */
export interface KeyValue {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
}

export type EventType = 'PUT' | 'DELETE';

/** One change, as watch delivers it. For DELETE, `kv.value` is the value before deletion and
 * `kv.modRevision` is the revision of the delete. `prev` is the value before this change. */
export interface WatchEvent {
  type: EventType;
  kv: KeyValue;
  prev?: KeyValue;
}

export interface RangeOptions {
  /** Read the state as of this revision (0 or absent: the current revision). */
  revision?: number;
  /** Return keys >= startKey (within the prefix); used by continue tokens. */
  startKey?: string;
  /** At most this many items (0 or absent: all). */
  limit?: number;
  /** Only count; items empty. */
  countOnly?: boolean;
  /**
   * The resource prefix the range falls in (`/registry/<group>/<resource>/`): lets a watch cache
   * in front of the store serve it. Backends ignore it.
   */
  resourcePrefix?: string;
}

export interface RangeResult {
  items: KeyValue[];
  /** The revision the read was served at. */
  revision: number;
  /** True when more keys match after the last returned one. */
  more: boolean;
  /** Number of matching keys in the whole range (from startKey), as etcd's count. */
  count: number;
}

export interface WatchOptions {
  /** Deliver changes with modRevision > afterRevision. */
  afterRevision: number;
  /** Called for each change, in revision order. */
  onEvent: (ev: WatchEvent) => void;
  /** Called once if the watch cannot continue (e.g. Compacted); no further events follow. */
  onError?: (err: Error) => void;
  /** Called when the backend reports that every change up to `revision` has been delivered (etcd's
   * progress notifications); backends that deliver synchronously after commit may never call it. */
  onProgress?: (revision: number) => void;
  /** The resource prefix the watch falls in, as for RangeOptions; backends ignore it. */
  resourcePrefix?: string;
}

/** How a write is kept. */
export interface WriteOptions {
  /** Let the key expire this many seconds after the write (objects upstream stores with a TTL,
   * such as Events). Backends without expiry keep the key until it is deleted. */
  ttlSeconds?: number;
}

export interface Watch {
  /** Stop delivering events; idempotent. */
  cancel(): void;
  /**
   * Resolves once the backend has registered the watch (etcd's created response), so that a
   * compaction after it cannot cancel a watch still being set up. Absent where registration is
   * synchronous.
   */
  readonly created?: Promise<void>;
}

/** Thrown when a write's precondition fails (key exists on create; revision mismatch or
 * missing key on update/delete). */
export class ConflictError extends Error {
  constructor(
    readonly key: string,
    readonly reason: 'exists' | 'modified' | 'not-found',
    readonly current?: KeyValue,
  ) {
    super(`storage conflict on ${key}: ${reason}`);
    this.name = 'ConflictError';
  }
}

/** Thrown when a read or watch asks for a revision older than the compacted revision. */
export class CompactedError extends Error {
  constructor(
    readonly requested: number,
    readonly compacted: number,
  ) {
    super(`required revision ${requested} has been compacted (compacted revision ${compacted})`);
    this.name = 'CompactedError';
  }
}

/** Thrown when a read asks for a revision newer than the store has. */
export class FutureRevisionError extends Error {
  constructor(
    readonly requested: number,
    readonly current: number,
  ) {
    super(`required revision ${requested} is a future revision (current ${current})`);
    this.name = 'FutureRevisionError';
  }
}

export interface Store {
  /** The current (latest) revision. */
  currentRevision(): Promise<number>;
  /** The oldest revision still readable (history before it was compacted). */
  compactedRevision(): Promise<number>;
  get(key: string, revision?: number): Promise<KeyValue | undefined>;
  /** Keys with the given prefix, in key order. */
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult>;
  /** Create a key; ConflictError('exists') if it is present. Resolves after the write is durable. */
  create(key: string, value: string, opts?: WriteOptions): Promise<KeyValue>;
  /** Replace a key's value if its modRevision equals expectedModRevision, else ConflictError. */
  update(key: string, value: string, expectedModRevision: number, opts?: WriteOptions): Promise<KeyValue>;
  /** Delete a key if its modRevision equals expectedModRevision, else ConflictError.
   * Resolves to the deleted KeyValue with modRevision set to the delete's revision. */
  delete(key: string, expectedModRevision: number): Promise<KeyValue>;
  /** Watch keys under a prefix. CompactedError via onError (or thrown) if afterRevision < compacted. */
  watch(prefix: string, opts: WatchOptions): Watch;
  /**
   * Optional, for a watch cache starting with a byte-bounded backlog: the oldest revision R >=
   * afterRevision such that the events under `prefix` after R (each counted as its key, value and
   * previous value's lengths plus `perEvent`) come to at most `maxBytes`, the newest always
   * counted in; afterRevision when all of them do. Counts characters, so it never answers a later
   * revision than the caller's own count of UTF-16 units would.
   */
  historyStart?(prefix: string, afterRevision: number, maxBytes: number, perEvent: number): Promise<number>;
  /** Drop history older than `revision` (keeping the latest version of live keys). */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
}
