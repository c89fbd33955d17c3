/**
 * The namespace controller (kube-controller-manager's namespace deleter, reduced to what this
 * server serves): a terminating namespace whose spec.finalizers holds `kubernetes` has its
 * content deleted through every namespaced REST store (their finalizers are honoured: the
 * controller looks again until nothing is left), then `kubernetes` is removed through the
 * `finalize` subresource, which removes the namespace once no finalizer is left.
 */
import { isConflict, isNotFound } from '../../apimachinery/status.ts';
import { hasDeletionTimestamp } from '../meta.ts';
import { finalizerKubernetes, specFinalizers } from '../namespace/strategy.ts';
import type { NamespaceStore } from '../namespace/rest.ts';
import type { Obj, RESTStore } from '../rest.ts';
import { runController, type Controller } from './loop.ts';

export interface NamespaceControllerOptions {
  /** The namespaced stores whose content a namespace holds (asked afresh each time: CRDs come and go). */
  contentStores: () => RESTStore[];
  /** How long to wait before looking again while content remains (default 1000 ms). */
  recheckMs?: number;
  onError?: (err: unknown) => void;
}

export function startNamespaceController(namespaces: NamespaceStore, opts: NamespaceControllerOptions): Controller {
  const recheck = opts.recheckMs ?? 1000;
  return runController(
    namespaces,
    async (key) => {
      let ns: Obj;
      try {
        ns = await namespaces.get(undefined, key.name);
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      if (!hasDeletionTimestamp(ns) || !specFinalizers(ns).includes(finalizerKubernetes)) return;
      let remaining = 0;
      for (const store of opts.contentStores()) {
        if (!store.info.namespaced) continue;
        const deleted = await store.deleteCollection(key.name, {}, {});
        if (deleted.items.length === 0) continue;
        remaining += (await store.list(key.name, { limit: 1 })).items.length;
      }
      if (remaining > 0) return { requeueAfterMs: recheck };
      try {
        await namespaces.update(
          undefined,
          key.name,
          (cur) => ({ ...cur!, spec: { ...((cur!.spec as object) ?? {}), finalizers: specFinalizers(cur!).filter((f) => f !== finalizerKubernetes) } }),
          { subresource: 'finalize' },
        );
      } catch (e) {
        if (isNotFound(e)) return;
        if (isConflict(e)) return { requeueAfterMs: 0 };
        throw e;
      }
    },
    { onError: (_k, e) => opts.onError?.(e) },
  );
}
