/**
 * The Namespace REST store (pkg/registry/core/namespace/storage): the generic store with
 * Namespace's delete. The first delete only marks the namespace — deletionTimestamp set, phase
 * Terminating — and the namespace stays until its spec.finalizers (the namespace controller's
 * `kubernetes`) and metadata.finalizers are gone; a delete of a namespace that is already
 * terminating removes it only once spec.finalizers is empty. Preconditions use upstream's
 * namespace wording.
 */
import { newConflict, newForbidden } from '../../apimachinery/status.ts';
import { immortalNamespaces } from './lifecycle.ts';
import { formatRFC3339 } from '../../apimachinery/time.ts';
import type { Store } from '../../storage/store.ts';
import { GenericStore } from '../generic-store.ts';
import { getResourceVersion, getUID, hasDeletionTimestamp, metaOf } from '../meta.ts';
import type { DeleteOptions, DeleteResult } from '../rest.ts';
import { namespaceInfo, namespaceStrategy, specFinalizers } from './strategy.ts';

export interface NamespaceStoreOptions {
  freshnessTimeoutMs?: number;
  bookmarkIntervalMs?: number;
  now?: () => Date;
  /** Namespaces that may not be deleted (NamespaceLifecycle; default: default, kube-system, kube-public). */
  immortal?: readonly string[];
}

export class NamespaceStore extends GenericStore {
  private readonly immortal: ReadonlySet<string>;

  constructor(store: Store, opts: NamespaceStoreOptions = {}) {
    super({ ...opts, store, info: namespaceInfo, strategy: namespaceStrategy });
    this.immortal = new Set(opts.immortal ?? immortalNamespaces);
  }

  override async delete(_ns: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    if (this.immortal.has(name)) {
      throw newForbidden({ group: '', resource: 'namespaces' }, name, 'this namespace may not be deleted');
    }
    const ns = await this.get(undefined, name);
    const gr = { group: '', resource: 'namespaces' };
    const uid = getUID(ns);
    const pre = opts.preconditions ?? {};
    if (pre.uid !== undefined && pre.uid !== uid) {
      throw newConflict(gr, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`);
    }
    if (pre.resourceVersion !== undefined && pre.resourceVersion !== getResourceVersion(ns)) {
      throw newConflict(
        gr,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${getResourceVersion(ns)}`,
      );
    }
    const preconditions = { uid, ...(pre.resourceVersion !== undefined ? { resourceVersion: pre.resourceVersion } : {}) };
    if (!hasDeletionTimestamp(ns)) {
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
