/**
 * etcd's answers turned into the contract's errors. etcd reports compaction and future revisions as
 * gRPC OutOfRange with fixed texts (mvcc.ErrCompacted, mvcc.ErrFutureRev); every failure to reach
 * the cluster (refused connection, no leader, deadline passed, open circuit) becomes a
 * StorageUnavailableError, whose text is what Go's etcd client reports when a request's context
 * runs out: kube-apiserver answers such a request with a 500 carrying that text, as the server's
 * generic error mapping does for any non-Status error.
 */

export const compactedText = 'required revision has been compacted';
export const futureText = 'required revision is a future revision';

/** The cluster could not be reached (or did not answer) within the request deadline. */
export class StorageUnavailableError extends Error {
  constructor(override readonly cause?: unknown) {
    super('context deadline exceeded');
    this.name = 'StorageUnavailableError';
  }
}

/** Whether an error from the etcd client says the revision was compacted. */
export function isCompacted(err: unknown): boolean {
  return err instanceof Error && err.message.includes(compactedText);
}

/** Whether an error from the etcd client says the revision is in the future. */
export function isFutureRevision(err: unknown): boolean {
  return err instanceof Error && err.message.includes(futureText);
}

/**
 * Whether the error means etcd was not reached or did not answer in time (as opposed to an answer
 * etcd gave): gRPC Unavailable / DeadlineExceeded / Cancelled, a broken circuit, a lost leader.
 */
export function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const name = err.constructor?.name ?? '';
  if (/Unavailable|DeadlineExceeded|Cancelled|BrokenCircuit|IsolatedCircuit/.test(name)) return true;
  return /no leader|leader changed|request timed out|No connection established|Deadline exceeded|UNAVAILABLE|ECONNREFUSED|Failed to connect/i.test(err.message);
}
