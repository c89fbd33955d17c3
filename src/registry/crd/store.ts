/**
 * The CustomResourceDefinition REST store (apiextensions' customresourcedefinition/etcd.go): the
 * generic store, except that the first delete only marks the CRD — deletionTimestamp, the
 * `customresourcecleanup.apiextensions.k8s.io` finalizer and a Terminating condition — so the
 * finalizer controller can delete every instance before the CRD goes.
 */
import type { Store } from '../../storage/index.ts';
import { MarkFirstDeleteStore, type MarkFirstStoreOptions } from '../deletion/mark-first.ts';
import { getFinalizers, metaOf } from '../meta.ts';
import type { Obj } from '../rest.ts';
import { setCondition } from './conditions.ts';
import { crdCodec, crdInfo, crdStrategy } from './strategy.ts';

/** apiextensions.CustomResourceCleanupFinalizer */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

export class CRDStore extends MarkFirstDeleteStore {
  constructor(store: Store, opts: MarkFirstStoreOptions = {}) {
    super({ ...opts, store, info: crdInfo, strategy: crdStrategy, codec: crdCodec });
  }

  protected override markDeleting(crd: Obj): void {
    const fins = getFinalizers(crd);
    if (!fins.includes(customResourceCleanupFinalizer)) metaOf(crd).finalizers = [...fins, customResourceCleanupFinalizer];
    setCondition(crd, {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
  }
}
