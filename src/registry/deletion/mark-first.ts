/**
 * The delete of kinds whose objects go in two steps (Namespace, CustomResourceDefinition): the
 * first delete admits the request and only marks the object — deletionTimestamp set, plus what
 * the kind adds (a phase, a finalizer, a condition) — so that a controller can empty it; a later
 * delete of the marked object goes through the generic store. Both writes carry the object's uid
 * as a precondition (with the request's resourceVersion, if any), as upstream's Delete of both
 * kinds does.
 */
import { formatRFC3339 } from '../../apimachinery/index.ts';
import { GenericStore, type GenericStoreConfig } from '../generic-store.ts';
import { getUID, hasDeletionTimestamp, metaOf } from '../meta.ts';
import type { DeleteOptions, DeleteResult, Obj } from '../rest.ts';

/** What such a kind's store takes besides its storage. */
export type MarkFirstStoreOptions = Pick<GenericStoreConfig, 'freshnessTimeoutMs' | 'bookmarkIntervalMs' | 'now' | 'admission' | 'fieldManagers'>;

export abstract class MarkFirstDeleteStore extends GenericStore {
  /** The kind's marks besides deletionTimestamp (MUTATES the object being marked). */
  protected abstract markDeleting(obj: Obj): void;

  /** A delete of an already marked object that must wait (it stays, as it is), else undefined. */
  protected keepMarked(_obj: Obj): DeleteResult | undefined {
    return undefined;
  }

  override async delete(_ns: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const existing = await this.get(undefined, name);
    this.checkStoragePreconditions(existing, name, opts.preconditions);
    const pre = opts.preconditions ?? {};
    const preconditions = { uid: getUID(existing), ...(pre.resourceVersion !== undefined ? { resourceVersion: pre.resourceVersion } : {}) };
    if (!hasDeletionTimestamp(existing)) {
      await this.admitDelete(undefined, existing, opts);
      const out = await this.guaranteedUpdate(
        undefined,
        name,
        (cur) => {
          const m = metaOf(cur);
          if (!m.deletionTimestamp) m.deletionTimestamp = formatRFC3339(new Date());
          this.markDeleting(cur);
          return cur;
        },
        { dryRun: opts.dryRun, preconditions },
      );
      return { object: out, deleted: false, response: out };
    }
    return this.keepMarked(existing) ?? super.delete(undefined, name, { ...opts, preconditions });
  }
}
