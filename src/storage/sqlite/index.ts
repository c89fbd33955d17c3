/**
 * The SQLite backend's public face: open a store on a file. The driver's configureConnection is
 * exported for benchmarks that compare against raw better-sqlite3 with the same pragmas.
 */
export { openSqliteStore, StoreClosedError, type SqliteStoreOptions } from './store.ts';
export { configureConnection, type ConnectionOptions } from './driver.ts';
export { defaultCompactionPolicy, type CompactionPolicy } from './compactor.ts';
