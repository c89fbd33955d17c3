/**
 * The storage layer's public face: the MVCC Store contract, its SQLite backend, watch fan-out,
 * and the contract suite every backend runs.
 */
import type { EtcdStore, EtcdStoreOptions } from './etcd/store.ts';

export { defaultCompactionIntervalMs } from './etcd/compactor.ts';
export { defaultEtcdPrefix } from './etcd/keys.ts';
export type { EtcdStore, EtcdStoreOptions } from './etcd/store.ts';
export { Cacher, openCacher, WatcherEvictedError, type CacherOptions } from './cacher/index.ts';
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

/**
 * Connects to etcd. The etcd client (etcd3 and its gRPC stack, about 100-170 ms to load) is
 * imported only here, so a server on the SQLite default never loads it.
 */
export async function openEtcdStore(opts: EtcdStoreOptions): Promise<EtcdStore> {
  const etcd = await import('./etcd/store.ts');
  return etcd.openEtcdStore(opts);
}
