/**
 * The service account controller (kube-controller-manager's serviceaccounts-controller): every
 * active namespace has a `default` ServiceAccount. It is created when a namespace appears and
 * again when it is deleted; a namespace that is not Active (terminating) gets none, and a create
 * refused because the namespace began terminating meanwhile is not a failure.
 */
import { isAlreadyExists, isNotFound, isStatusError } from '../../apimachinery/index.ts';
import type { NamespaceStore } from '../namespace/rest.ts';
import type { Obj, RESTStore } from '../rest.ts';
import { runController, type Controller } from './loop.ts';

/** The service accounts every namespace gets (the controller's serviceAccountsToEnsure). */
const ensured = ['default'];

export interface ServiceAccountControllerOptions {
  onError?: (err: unknown) => void;
}

/** True when the error carries the NamespaceTerminating cause (the namespace lifecycle's refusal). */
function namespaceTerminating(e: unknown): boolean {
  return isStatusError(e) && (e.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}

export function startServiceAccountController(namespaces: NamespaceStore, serviceAccounts: RESTStore, opts: ServiceAccountControllerOptions = {}): Controller {
  const syncNamespace = runController(
    namespaces,
    async (key) => {
      let ns: Obj;
      try {
        ns = await namespaces.get(undefined, key.name);
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      if (((ns.status ?? {}) as { phase?: unknown }).phase !== 'Active') return;
      const failures: unknown[] = [];
      for (const name of ensured) {
        try {
          await serviceAccounts.get(key.name, name);
          continue;
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
        try {
          await serviceAccounts.create(key.name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: key.name } }, {});
        } catch (e) {
          if (!isAlreadyExists(e) && !namespaceTerminating(e)) failures.push(e);
        }
      }
      if (failures.length > 0) throw failures[0];
    },
    { onError: (_k, e) => opts.onError?.(e) },
  );
  // A deleted service account brings its namespace back to the queue (serviceAccountDeleted); other
  // events of it cost one read.
  const watchAccounts = runController(serviceAccounts, async (key) => {
    if (key.namespace !== undefined && ensured.includes(key.name)) syncNamespace.enqueue({ name: key.namespace });
  });
  return {
    enqueue: (key) => syncNamespace.enqueue(key),
    idle: async () => {
      await watchAccounts.idle();
      await syncNamespace.idle();
    },
    stop() {
      watchAccounts.stop();
      syncNamespace.stop();
    },
  };
}
