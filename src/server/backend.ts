/**
 * What the served binary runs on: one SQLite file under the data directory, and the admission
 * chain every write passes (NamespaceLifecycle first). Also makes sure the namespaces
 * kube-apiserver creates at start (`default`, `kube-system`, `kube-public`, `kube-node-lease`)
 * exist. The server builds the registry's kinds over these.
 */
import { join } from 'node:path';
import { openSqliteStore } from '../storage/sqlite/index.ts';
import type { Store } from '../storage/store.ts';
import { NamespaceStore } from '../registry/index.ts';
import { isAlreadyExists } from '../apimachinery/status.ts';
import { admissionChain, cachedNamespaceLifecycle } from '../admission/index.ts';
import type { ApiServerDeps } from './server.ts';

export interface Backend {
  deps: ApiServerDeps;
  /** The MVCC store everything is kept in. */
  store: Store;
  close(): Promise<void>;
}

const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Opens (or creates) the SQLite database in `dataDir`, the admission chain over it, and the system namespaces. */
export async function openBackend(dataDir: string): Promise<Backend> {
  const store = await openSqliteStore({ path: join(dataDir, 'crd-apiserver.sqlite') });
  const namespaces = new NamespaceStore(store);
  for (const name of systemNamespaces) {
    try {
      await namespaces.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, {});
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }
  // NamespaceLifecycle: no writes into missing namespaces, no creates in terminating ones, the
  // system namespaces kept; read from a watch-fed cache of namespaces (as upstream's informer),
  // live when the cache lacks one.
  const lifecycle = cachedNamespaceLifecycle(store, (name) => namespaces.get(undefined, name));
  return {
    deps: { store, admission: admissionChain([lifecycle]) },
    store,
    close: () => {
      lifecycle.stop();
      return store.close();
    },
  };
}
