/**
 * skipNonAppliedManager: an object created without server-side apply is tracked from its create
 * on; one that existed before managed fields (a uid but no entries) is not, until its first
 * apply, which first records everything already there as owned by `before-first-apply`, so that
 * the apply conflicts with (or, forced, takes over) fields it did not set.
 */
import type { Managed } from './entries.ts';
import { apiVersionOf, metadataOf, type Manager, type Obj } from './manager.ts';

export const beforeFirstApplyManager = 'before-first-apply';

export class SkipNonAppliedManager implements Manager {
  constructor(
    readonly next: Manager,
    /** The chance that a create is tracked (kube-apiserver: 1, always). */
    readonly probability = 1,
    readonly random: () => number = Math.random,
  ) {}

  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string) {
    if (managed.fields.size === 0) {
      const uid = metadataOf(liveObj)?.uid;
      if (typeof uid === 'string' && uid.length > 0) return { object: newObj, managed };
      if (this.probability <= this.random()) return { object: newObj, managed };
    }
    return this.next.update(liveObj, newObj, managed, manager);
  }

  apply(liveObj: Obj, appliedObj: Obj, managed: Managed, manager: string, force: boolean) {
    if (managed.fields.size === 0) {
      const emptyObj: Obj = { apiVersion: apiVersionOf(appliedObj), kind: appliedObj.kind };
      let r;
      try {
        r = this.next.update(emptyObj, liveObj, managed, beforeFirstApplyManager);
      } catch (e) {
        throw new Error(`failed to create manager for existing fields: ${(e as Error).message}`);
      }
      liveObj = r.object;
      managed = r.managed;
    }
    return this.next.apply(liveObj, appliedObj, managed, manager, force);
  }
}
