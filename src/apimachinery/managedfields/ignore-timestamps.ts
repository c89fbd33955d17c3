/**
 * IgnoreManagedFieldsTimestampsTransformer (apiserver's fieldmanager/equality.go), which the
 * update and patch handlers run once the field manager and admission are done: when a write
 * changes nothing but the times of managedFields entries, the old times are put back, so that the
 * write is a no-op (no new resourceVersion). The field manager cannot see this itself: a field it
 * thinks changed may come back to the stored value through defaulting or normalization (an atomic
 * map applied without a defaulted field, say).
 */
import { jsonEqual } from '../json/equal.ts';
import type { ManagedFieldsEntry } from './entries.ts';
import { getManagedFields, metadataOf, type Obj } from './manager.ts';

/**
 * newObj, or (when it equals oldObj in everything but managedFields times) newObj with oldObj's
 * managedFields. Mutates newObj. Entries added, removed, reordered or changed in anything but
 * their time keep newObj as it is: a manager that wrote a field must stay recorded as its owner.
 */
export function ignoreManagedFieldsTimestamps(newObj: Obj, oldObj: Obj): Obj {
  const oldEntries = getManagedFields(oldObj) ?? [];
  const newEntries = getManagedFields(newObj) ?? [];
  if (oldEntries.length !== newEntries.length || newEntries.length === 0) return newObj;
  let timesChanged = false;
  for (let i = 0; i < newEntries.length; i++) {
    const o = oldEntries[i]!;
    const n = newEntries[i]!;
    if (!sameButTime(o, n)) return newObj;
    if ((o.time ?? null) !== (n.time ?? null)) timesChanged = true;
  }
  if (!timesChanged) return newObj;
  const meta = metadataOf(newObj)!;
  meta.managedFields = oldEntries;
  if (!jsonEqual(newObj, oldObj)) meta.managedFields = newEntries;
  return newObj;
}

function sameButTime(a: ManagedFieldsEntry, b: ManagedFieldsEntry): boolean {
  return (
    a.manager === b.manager &&
    a.operation === b.operation &&
    a.apiVersion === b.apiVersion &&
    a.fieldsType === b.fieldsType &&
    (a.subresource ?? '') === (b.subresource ?? '') &&
    jsonEqual(a.fieldsV1 ?? null, b.fieldsV1 ?? null)
  );
}
