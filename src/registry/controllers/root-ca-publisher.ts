/**
 * The root CA publisher (kube-controller-manager's root-ca-cert-publisher): every namespace has
 * a `kube-root-ca.crt` ConfigMap whose `ca.crt` is the CA bundle clients in pods verify the API
 * server with (the projected `kube-api-access-*` volume mounts it). It is created when a
 * namespace appears, put back when deleted, and its data and description restored when changed.
 */
import { isConflict, isNotFound, isStatusError, newNotFound } from '../../apimachinery/index.ts';
import type { Obj, RESTStore } from '../rest.ts';
import { runController, type Controller } from './loop.ts';

export const rootCACertConfigMapName = 'kube-root-ca.crt';
const descriptionAnnotation = 'kubernetes.io/description';
const description =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCAPublisherOptions {
  onError?: (err: unknown) => void;
}

const rec = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function namespaceGone(e: unknown): boolean {
  return isNotFound(e) || (isStatusError(e) && (e.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating'));
}

/** Publishes `rootCA` (PEM) into every namespace through the `configMaps` store. */
export function startRootCAPublisher(namespaces: RESTStore, configMaps: RESTStore, rootCA: string, opts: RootCAPublisherOptions = {}): Controller {
  const data = { 'ca.crt': rootCA };
  const sync = async (ns: string): Promise<void> => {
    // Terminating and deleted namespaces get nothing (the namespace controller is emptying them).
    try {
      if (rec((await namespaces.get(undefined, ns)).status).phase !== 'Active') return;
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    let cm: Obj;
    try {
      cm = await configMaps.get(ns, rootCACertConfigMapName);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      try {
        await configMaps.create(
          ns,
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: rootCACertConfigMapName, namespace: ns, annotations: { [descriptionAnnotation]: description } }, data },
          {},
        );
      } catch (err) {
        // No retry when the namespace is gone or going.
        if (!namespaceGone(err)) throw err;
      }
      return;
    }
    const annotations = rec(rec(cm.metadata).annotations);
    const current = rec(cm.data);
    const same = Object.keys(current).length === 1 && current['ca.crt'] === rootCA;
    if (same && typeof annotations[descriptionAnnotation] === 'string' && annotations[descriptionAnnotation] !== '') return;
    try {
      await configMaps.update(
        ns,
        rootCACertConfigMapName,
        (live) => {
          if (!live) throw newNotFound({ group: '', resource: 'configmaps' }, rootCACertConfigMapName);
          return { ...live, metadata: { ...rec(live.metadata), annotations: { ...rec(rec(live.metadata).annotations), [descriptionAnnotation]: description } }, data };
        },
        {},
      );
    } catch (e) {
      // Changed or deleted meanwhile: its event brings the namespace back.
      if (!isConflict(e) && !isNotFound(e)) throw e;
    }
  };
  const byNamespace = runController(namespaces, async (key) => sync(key.name), { onError: (_k, e) => opts.onError?.(e) });
  const byConfigMap = runController(configMaps, async (key) => {
    if (key.namespace !== undefined && key.name === rootCACertConfigMapName) byNamespace.enqueue({ name: key.namespace });
  });
  return {
    enqueue: (key) => byNamespace.enqueue(key),
    idle: async () => {
      await byConfigMap.idle();
      await byNamespace.idle();
    },
    stop() {
      byConfigMap.stop();
      byNamespace.stop();
    },
  };
}
