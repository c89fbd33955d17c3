/**
 * The etcd backend's public face: open the Store contract on an etcd cluster; the compaction loop,
 * the lease manager and the error texts it reports with.
 */
export { openEtcdStore, EtcdStore, EtcdStoreClosedError, etcdClientOptions, type EtcdStoreOptions, type EtcdTLS } from './store.ts';
export { defaultEtcdPrefix, KeyMapper } from './keys.ts';
export { defaultCompactionIntervalMs, compactStep } from './compactor.ts';
export { StorageUnavailableError } from './errors.ts';
