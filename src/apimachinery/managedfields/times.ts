/**
 * managedFieldsUpdater: an update is first recorded under a placeholder, then folded into the
 * manager's existing entry; a manager whose operation changed the object gets the current time.
 * A no-op apply returns the live object without managedFields (the outer layer puts them back).
 */
import { versionedSet } from '../smd/fieldpath/managers.ts';
import type { Managed } from './entries.ts';
import { deepCopy, setManagedFields, type Manager, type Obj } from './manager.ts';

export class ManagedFieldsUpdater implements Manager {
  constructor(
    readonly next: Manager,
    readonly now: () => string,
  ) {}

  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string) {
    const self = 'current-operation';
    const r = this.next.update(liveObj, newObj, managed, self);
    const fields = r.managed.fields;
    const vs = fields.get(self);
    if (vs !== undefined) {
      fields.delete(self);
      const previous = fields.get(manager);
      fields.set(manager, previous !== undefined ? versionedSet(vs.set.union(previous.set), vs.apiVersion, vs.applied) : vs);
      r.managed.times.set(manager, this.now());
    }
    return r;
  }

  apply(liveObj: Obj, appliedObj: Obj, managed: Managed, manager: string, force: boolean) {
    const r = this.next.apply(liveObj, appliedObj, managed, manager, force);
    if (r.object !== undefined) {
      r.managed.times.set(manager, this.now());
      return r;
    }
    const object = deepCopy(liveObj);
    setManagedFields(object, undefined);
    return { object, managed: r.managed };
  }
}
