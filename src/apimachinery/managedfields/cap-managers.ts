/**
 * capManagersManager: at most maxUpdateManagers update entries are kept; the oldest beyond that
 * are merged, per API version, into an `ancient-changes` entry.
 */
import { versionedSet } from '../smd/fieldpath/managers.ts';
import { buildManagerIdentifier, type Managed } from './entries.ts';
import type { Manager, Obj } from './manager.ts';

export const defaultMaxUpdateManagers = 10;

function seconds(t: string | undefined): number {
  return t ? Math.floor(Date.parse(t) / 1000) : 0;
}

export function capUpdateManagers(managed: Managed, max: number): Managed {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([m]) => m);
  if (updaters.length <= max) return managed;
  updaters.sort((a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0));
  const versionToFirstManager = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const manager = updaters[i]!;
    const vs = managed.fields.get(manager)!;
    const time = managed.times.get(manager);
    const version = vs.apiVersion;
    const bucket = buildManagerIdentifier({ manager: 'ancient-changes', operation: 'Update', apiVersion: version });
    const first = versionToFirstManager.get(version);
    if (first !== undefined) {
      if (!managed.fields.has(bucket)) {
        const s = managed.fields.get(first)!;
        managed.fields.delete(first);
        managed.fields.set(bucket, s);
      }
      managed.fields.set(bucket, versionedSet(vs.set.union(managed.fields.get(bucket)!.set), vs.apiVersion, vs.applied));
      managed.fields.delete(manager);
      length--;
      managed.times.set(bucket, time);
    } else versionToFirstManager.set(version, manager);
  }
  return managed;
}

export class CapManagersManager implements Manager {
  constructor(
    readonly next: Manager,
    readonly maxUpdateManagers = defaultMaxUpdateManagers,
  ) {}

  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string) {
    const r = this.next.update(liveObj, newObj, managed, manager);
    return { object: r.object, managed: capUpdateManagers(r.managed, this.maxUpdateManagers) };
  }

  apply(liveObj: Obj, appliedObj: Obj, managed: Managed, manager: string, force: boolean) {
    return this.next.apply(liveObj, appliedObj, managed, manager, force);
  }
}
