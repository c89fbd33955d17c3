/**
 * What the served binary runs on: one SQLite file under the data directory, or an etcd cluster
 * when `--etcd-servers` names one (several servers can then share it), and the admission
 * chain every write passes (NamespaceLifecycle first, then ServiceAccount, MutatingAdmissionPolicy, mutating
 * webhooks, ValidatingAdmissionPolicy, and validating webhooks last). Also makes sure the namespaces
 * kube-apiserver creates at start (`default`, `kube-system`, `kube-public`, `kube-node-lease`)
 * exist. Unless turned off, the watch cache stands in front of the store. The server builds the
 * registry's kinds over these.
 */
import { join } from 'node:path';
import { openCacher, openSqliteStore } from '../storage/index.ts';
import { openEtcdStore, type EtcdStoreOptions } from '../storage/index.ts';
import type { Store } from '../storage/index.ts';
import { NamespaceStore } from '../registry/index.ts';
import { isAlreadyExists } from '../apimachinery/index.ts';
import { admissionChain, cachedNamespaceLifecycle, cachedServiceAccountAdmission, mutatingAdmissionPolicy, mutatingWebhooks, validatingAdmissionPolicy, validatingWebhooks, WebhookClients, type ServiceResolver } from '../admission/index.ts';
import type { ApiServerDeps } from './server.ts';
import type { Authorizer } from '../auth/index.ts';
import type { Authorizer as PolicyAuthorizer } from '../cel/index.ts';

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
  /**
   * Serve lists and watches from the watch cache in front of the store (kube-apiserver's
   * `--watch-cache`, default true); false reads every list and watch from the store.
   */
  watchCache?: boolean;
}

/** How the admission chain reaches what lives outside the store. */
export interface AdmissionChoice {
  /** Where `clientConfig.service` webhooks listen (`--webhook-service-address`). */
  webhookServices?: ServiceResolver;
}

const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** Opens (or creates) the SQLite database in `dataDir`, or connects to etcd; the admission chain over it; the system namespaces. */
export async function openBackend(dataDir: string, storage: StorageChoice = {}, admission: AdmissionChoice = {}): Promise<Backend> {
  const etcd = storage.etcd ? await openEtcdStore(storage.etcd) : undefined;
  const raw = etcd ?? (await openSqliteStore({ path: join(dataDir, 'crd-apiserver.sqlite') }));
  // SQLite hands its events to watchers in this process as it commits, so its current revision
  // tells the cache when it has caught up; on etcd the cache waits for the revision to arrive.
  const store = storage.watchCache === false ? raw : await openCacher(raw, etcd ? {} : { progress: () => raw.currentRevision() });
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
  // The policies' `authorizer` is the server's (system:masters, then RBAC), once the server is built.
  let serverAuthorizer: Authorizer | undefined;
  const authorizer: PolicyAuthorizer = {
    authorize: (a) =>
      serverAuthorizer
        ? serverAuthorizer.authorize({
            user: { username: a.user.name, groups: a.user.groups ?? [], ...(a.user.uid ? { uid: a.user.uid } : {}), ...(a.user.extra ? { extra: a.user.extra } : {}) },
            verb: a.verb,
            resourceRequest: a.resourceRequest,
            apiGroup: a.apiGroup ?? '',
            apiVersion: a.apiVersion ?? '',
            resource: a.resource ?? '',
            subresource: a.subresource ?? '',
            namespace: a.namespace ?? '',
            name: a.name ?? '',
            path: a.path ?? '',
          })
        : { decision: 'NoOpinion', reason: '' },
  };
  // ServiceAccount: pods' ServiceAccount and token volume, after NamespaceLifecycle as upstream orders it.
  const serviceAccounts = cachedServiceAccountAdmission(store);
  // ValidatingAdmissionPolicy: policies, bindings and params read from watch-fed caches.
  const policies = validatingAdmissionPolicy(store, { authorizer });
  // MutatingAdmissionPolicy: mutating plugins run before validating ones, as upstream orders them.
  const mutations = mutatingAdmissionPolicy(store, { authorizer });
  // Webhooks after the policies of their kind, as upstream's plugin order has them; their
  // configurations read from watch-fed caches too.
  const webhookOptions = { serviceResolver: admission.webhookServices };
  const mutatingHooks = mutatingWebhooks(store, webhookOptions);
  const validatingHooks = validatingWebhooks(store, webhookOptions);
  // CRDs' conversion webhooks go through the same client (services resolved the same way).
  const conversionWebhooks = new WebhookClients(admission.webhookServices);
  return {
    deps: {
      store,
      admission: admissionChain([lifecycle, serviceAccounts, mutations, mutatingHooks, policies, validatingHooks]),
      conversionWebhooks,
      useAuthorizer: (a) => {
        serverAuthorizer = a;
      },
      ...(etcd ? { checkStorage: () => etcd.checkHealth(), leaderElection: true } : {}),
    },
    store,
    checkStorage: etcd ? () => etcd.checkHealth() : async () => {},
    close: () => {
      lifecycle.stop();
      serviceAccounts.stop();
      policies.stop();
      mutations.stop();
      mutatingHooks.stop();
      validatingHooks.stop();
      conversionWebhooks.close();
      return store.close();
    },
  };
}
