/**
 * The storage layer's public face: the MVCC Store contract, its SQLite backend, watch fan-out,
 * and the contract suite every backend runs.
 */
export {
  defaultCompactionIntervalMs,
  defaultEtcdPrefix,
  type EtcdStoreOptions,
  openEtcdStore,
} from './etcd/index.ts';
export { type LeaderElector, runLeaderElection } from './leader.ts';
export { openSqliteStore } from './sqlite/index.ts';
export {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  type KeyValue,
  type Store,
  type Watch,
  type WatchEvent,
} from './store.ts';
