/**
 * The stores the served binary runs on: one SQLite file under the data directory, or an etcd
 * cluster when `--etcd-servers` names one (several servers can then share it), GenericStores
 * for Namespaces and CRDs (the registry's NamespaceStore and CRDStore), and a GenericStore per served CRD version with the strategy the
 * registry compiles for it (schema pruning, defaulting and validation). Also makes sure the namespaces kube-apiserver creates at start
 * (`default`, `kube-system`, `kube-public`, `kube-node-lease`) exist.
 */
import { join } from 'node:path';
import { openSqliteStore } from '../storage/sqlite/index.ts';
import { openEtcdStore, type EtcdStoreOptions } from '../storage/etcd/index.ts';
import type { Store } from '../storage/store.ts';
import { GenericStore } from '../registry/generic-store.ts';
import { NamespaceStore } from '../registry/namespace/rest.ts';
import { CRDStore } from '../registry/crd/store.ts';
import { cachedNamespaceLifecycle } from '../registry/namespace/lifecycle.ts';
import { servedVersions, type ServedVersion } from '../registry/crd/serving.ts';
import type { Obj, ResourceInfo } from '../registry/rest.ts';
import { isAlreadyExists } from '../apimachinery/status.ts';
import type { ApiServerDeps } from './server.ts';

export interface Backend {
  deps: ApiServerDeps;
  /** The MVCC store everything is kept in. */
  store: Store;
  /** Readiness of the storage (kube-apiserver's `etcd` readyz check); throws when it does not answer. */
  checkStorage(): Promise<void>;
  close(): Promise<void>;
}

/** Where the objects are kept: the SQLite file under the data directory unless etcd is named. */
export interface StorageChoice {
  etcd?: EtcdStoreOptions;
}

const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Opens (or creates) the SQLite database in `dataDir`, or connects to etcd, and the stores over it. */
export async function openBackend(dataDir: string, storage: StorageChoice = {}): Promise<Backend> {
  const etcd = storage.etcd ? await openEtcdStore(storage.etcd) : undefined;
  const store = etcd ?? (await openSqliteStore({ path: join(dataDir, 'crd-apiserver.sqlite') }));
  const namespaces = new NamespaceStore(store);
  const crds = new CRDStore(store);
  for (const name of systemNamespaces) {
    try {
      await namespaces.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, {});
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }
  // NamespaceLifecycle: no writes into missing namespaces, no creates in terminating ones; read
  // from a watch-fed cache of namespaces (as upstream's informer), live when the cache lacks one.
  const namespaceGate = cachedNamespaceLifecycle(store, (name) => namespaces.get(undefined, name));
  // servedVersions compiles every version of a CRD at once; the server asks per version.
  const compiled = new WeakMap<Obj, ServedVersion[]>();
  const customResourceStore = (crd: Obj, version: string, info: ResourceInfo) => {
    let versions = compiled.get(crd);
    if (!versions) compiled.set(crd, (versions = servedVersions(crd)));
    const v = versions.find((x) => x.name === version);
    if (!v) throw new Error(`CRD ${String((crd.metadata as Obj | undefined)?.name)} has no version ${version}`);
    // Objects are stored in the CRD's storage version whichever version wrote them (conversion None).
    const storageVersion = versions.find((x) => x.storage)?.name ?? version;
    return new GenericStore({ store, info, strategy: v.strategy, namespaceGate, storageVersion });
  };
  return {
    deps: { namespaces, crds, customResourceStore },
    store,
    checkStorage: etcd ? () => etcd.checkHealth() : async () => {},
    close: () => {
      namespaceGate.stop();
      return store.close();
    },
  };
}
