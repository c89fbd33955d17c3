/**
 * The CRD finalizer controller (apiextensions `pkg/controller/finalizer`): a CRD marked for
 * deletion keeps its `customresourcecleanup.apiextensions.k8s.io` finalizer until every instance
 * is gone — deleted through the instances' own REST store, so their finalizers are honoured — then
 * the finalizer is removed and the CRD goes. The Terminating condition tells where it stands
 * (InstanceDeletionInProgress, InstanceDeletionCheck, InstanceDeletionFailed,
 * InstanceDeletionCompleted, NeverEstablished).
 */
import { isConflict, isNotFound } from '../../apimachinery/index.ts';
import type { Store } from '../../storage/index.ts';
import { isConditionTrue, setCondition } from '../crd/conditions.ts';
import { isObject, type CRDNames } from '../crd/internal.ts';
import { storageVersion } from '../crd/strategy.ts';
import { customResourceCleanupFinalizer, type CRDStore } from '../crd/store.ts';
import { CustomResourceStrategy } from '../customresource/strategy.ts';
import { GenericStore } from '../generic-store.ts';
import { deepCopy, getFinalizers, getNamespace, hasDeletionTimestamp, metaOf } from '../meta.ts';
import type { Obj, RESTStore } from '../rest.ts';
import { runController, type Controller } from './loop.ts';

/** A store for a CRD's instances with no schema work: enough to list and delete them. */
export function bareInstanceStore(store: Store, crd: Obj): RESTStore | undefined {
  const spec = isObject(crd.spec) ? crd.spec : {};
  const names = (isObject(spec.names) ? spec.names : {}) as CRDNames;
  const version = storageVersion(crd);
  if (!version || !names.plural || !names.kind || typeof spec.group !== 'string') return undefined;
  const namespaced = spec.scope === 'Namespaced';
  return new GenericStore({
    store,
    info: {
      group: spec.group,
      version,
      resource: names.plural,
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      namespaced,
    },
    strategy: new CustomResourceStrategy({ group: spec.group, version, kind: names.kind, namespaced }),
  });
}

export interface CRDFinalizerOptions {
  /** The instances' REST store for a CRD (the server's, so that admission applies); default: bareInstanceStore. */
  instanceStore?: (crd: Obj) => RESTStore | undefined;
  /** How long to wait before looking again while instances remain (default 1000 ms). */
  recheckMs?: number;
  onError?: (err: unknown) => void;
}

export function startCRDFinalizer(crds: CRDStore, opts: CRDFinalizerOptions = {}): Controller {
  const instanceStore = opts.instanceStore ?? ((crd: Obj) => bareInstanceStore(crds.store, crd));
  const recheck = opts.recheckMs ?? 1000;

  const writeStatus = async (name: string, crd: Obj): Promise<boolean> => {
    try {
      await crds.update(undefined, name, () => crd, { subresource: 'status' });
      return true;
    } catch (e) {
      if (isConflict(e) || isNotFound(e)) return false;
      throw e;
    }
  };

  return runController(
    crds,
    async (key) => {
      let crd: Obj;
      try {
        crd = await crds.get(undefined, key.name);
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      if (!hasDeletionTimestamp(crd) || !getFinalizers(crd).includes(customResourceCleanupFinalizer)) return;
      const next = deepCopy(crd);
      if (isConditionTrue(crd, 'Established')) {
        const instances = instanceStore(crd);
        if (instances) {
          setCondition(next, {
            type: 'Terminating',
            status: 'True',
            reason: 'InstanceDeletionInProgress',
            message: 'CustomResource deletion is in progress',
          });
          let remaining: number;
          try {
            const list = await instances.list(undefined, {});
            const namespaces = new Set(list.items.map((o) => getNamespace(o)));
            for (const ns of namespaces) await instances.deleteCollection(ns === '' ? undefined : ns, {}, {});
            remaining = (await instances.list(undefined, {})).items.length;
          } catch (e) {
            setCondition(next, {
              type: 'Terminating',
              status: 'True',
              reason: 'InstanceDeletionFailed',
              message: `could not issue all deletes: ${(e as Error).message}`,
            });
            await writeStatus(key.name, next);
            throw e;
          }
          if (remaining > 0) {
            setCondition(next, {
              type: 'Terminating',
              status: 'True',
              reason: 'InstanceDeletionCheck',
              message: `could not confirm zero CustomResources remaining: timed out waiting for the condition`,
            });
            await writeStatus(key.name, next);
            return { requeueAfterMs: recheck };
          }
          setCondition(next, { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' });
        }
      } else {
        setCondition(next, { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' });
      }
      metaOf(next).finalizers = getFinalizers(next).filter((f) => f !== customResourceCleanupFinalizer);
      if (!(await writeStatus(key.name, next))) return { requeueAfterMs: 0 };
    },
    { onError: (_k, e) => opts.onError?.(e) },
  );
}
