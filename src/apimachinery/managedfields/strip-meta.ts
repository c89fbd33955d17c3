/**
 * stripMetaManager: nobody owns apiVersion, kind, or the metadata the server sets (name,
 * namespace, uid, resourceVersion, generation, creationTimestamp, selfLink, managedFields).
 */
import { fieldElement } from '../smd/fieldpath/element.ts';
import { FieldSet } from '../smd/fieldpath/set.ts';
import { versionedSet, type ManagedFields } from '../smd/fieldpath/managers.ts';
import type { Managed } from './entries.ts';
import type { Manager, Obj } from './manager.ts';

const f = fieldElement;
const stripSet = FieldSet.of(
  [f('apiVersion')],
  [f('kind')],
  [f('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((n) => [f('metadata'), f(n)]),
);

function strip(managed: ManagedFields, manager: string): void {
  const vs = managed.get(manager);
  if (vs === undefined) return;
  const s = vs.set.difference(stripSet);
  if (s.empty()) managed.delete(manager);
  else managed.set(manager, versionedSet(s, vs.apiVersion, vs.applied));
}

export class StripMetaManager implements Manager {
  constructor(readonly next: Manager) {}

  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string) {
    const r = this.next.update(liveObj, newObj, managed, manager);
    strip(r.managed.fields, manager);
    return r;
  }

  apply(liveObj: Obj, appliedObj: Obj, managed: Managed, manager: string, force: boolean) {
    const r = this.next.apply(liveObj, appliedObj, managed, manager, force);
    strip(r.managed.fields, manager);
    return r;
  }
}
