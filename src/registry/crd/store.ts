/**
 * The CustomResourceDefinition REST store (apiextensions' customresourcedefinition/etcd.go): the
 * generic store, except that the first delete only marks the CRD — deletionTimestamp, the
 * `customresourcecleanup.apiextensions.k8s.io` finalizer and a Terminating condition — so the
 * finalizer controller can delete every instance before the CRD goes.
 */
import { formatRFC3339 } from '../../apimachinery/index.ts';
import type { Store } from '../../storage/index.ts';
import { GenericStore } from '../generic-store.ts';
import { getFinalizers, getUID, hasDeletionTimestamp, metaOf } from '../meta.ts';
import type { Admission, DeleteOptions, DeleteResult } from '../rest.ts';
import { setCondition } from './conditions.ts';
import type { FieldManagers } from '../field-managers.ts';
import { crdCodec, crdInfo, crdStrategy } from './strategy.ts';

/** apiextensions.CustomResourceCleanupFinalizer */
export const customResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

export class CRDStore extends GenericStore {
  constructor(
    store: Store,
    opts: { freshnessTimeoutMs?: number; bookmarkIntervalMs?: number; now?: () => Date; admission?: Admission; fieldManagers?: FieldManagers } = {},
  ) {
    super({ ...opts, store, info: crdInfo, strategy: crdStrategy, codec: crdCodec });
  }

  override async delete(_ns: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const crd = await this.get(undefined, name);
    const uid = getUID(crd);
    this.checkStoragePreconditions(crd, name, opts.preconditions);
    const pre = opts.preconditions ?? {};
    const preconditions = { uid, ...(pre.resourceVersion !== undefined ? { resourceVersion: pre.resourceVersion } : {}) };
    if (!hasDeletionTimestamp(crd)) {
      await this.admitDelete(undefined, crd, opts);
      const out = await this.guaranteedUpdate(
        undefined,
        name,
        (cur) => {
          const m = metaOf(cur);
          if (!m.deletionTimestamp) m.deletionTimestamp = formatRFC3339(new Date());
          const fins = getFinalizers(cur);
          if (!fins.includes(customResourceCleanupFinalizer)) m.finalizers = [...fins, customResourceCleanupFinalizer];
          setCondition(cur, {
            type: 'Terminating',
            status: 'True',
            reason: 'InstanceDeletionPending',
            message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
          });
          return cur;
        },
        { dryRun: opts.dryRun, preconditions },
      );
      return { object: out, deleted: false, response: out };
    }
    return super.delete(undefined, name, { ...opts, preconditions });
  }
}
