/**
 * The Namespace REST store (pkg/registry/core/namespace/storage): the generic store with
 * Namespace's delete. The first delete only marks the namespace — deletionTimestamp set, phase
 * Terminating — and the namespace stays until its spec.finalizers (the namespace controller's
 * `kubernetes`) and metadata.finalizers are gone; a delete of a namespace that is already
 * terminating removes it only once spec.finalizers is empty. Preconditions use upstream's
 * namespace wording.
 */
import { formatRFC3339 } from '../../apimachinery/index.ts';
import type { Store } from '../../storage/index.ts';
import { GenericStore } from '../generic-store.ts';
import { getUID, hasDeletionTimestamp, metaOf } from '../meta.ts';
import type { Admission, DeleteOptions, DeleteResult } from '../rest.ts';
import type { FieldManagers } from '../field-managers.ts';
import { namespaceCodec, namespaceInfo, namespaceStrategy, specFinalizers } from './strategy.ts';

export interface NamespaceStoreOptions {
  freshnessTimeoutMs?: number;
  bookmarkIntervalMs?: number;
  now?: () => Date;
  admission?: Admission;
  fieldManagers?: FieldManagers;
}

export class NamespaceStore extends GenericStore {
  constructor(store: Store, opts: NamespaceStoreOptions = {}) {
    super({ ...opts, store, info: namespaceInfo, strategy: namespaceStrategy, codec: namespaceCodec });
  }

  override async delete(_ns: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const ns = await this.get(undefined, name);
    const uid = getUID(ns);
    this.checkStoragePreconditions(ns, name, opts.preconditions);
    const pre = opts.preconditions ?? {};
    const preconditions = { uid, ...(pre.resourceVersion !== undefined ? { resourceVersion: pre.resourceVersion } : {}) };
    if (!hasDeletionTimestamp(ns)) {
      await this.admitDelete(undefined, ns, opts);
      // Upon the first delete the namespace starts terminating; the controller empties it.
      const out = await this.guaranteedUpdate(
        undefined,
        name,
        (cur) => {
          const m = metaOf(cur);
          if (!m.deletionTimestamp) m.deletionTimestamp = formatRFC3339(new Date());
          const status = (cur.status ?? {}) as Record<string, unknown>;
          status.phase = 'Terminating';
          cur.status = status;
          return cur;
        },
        { dryRun: opts.dryRun, preconditions },
      );
      return { object: out, deleted: false, response: out };
    }
    if (specFinalizers(ns).length > 0) return { object: ns, deleted: false, response: ns };
    return super.delete(undefined, name, { ...opts, preconditions });
  }
}
