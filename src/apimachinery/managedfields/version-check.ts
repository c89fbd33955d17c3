/** versionCheckManager: an apply's object must be of the endpoint's group, version and kind. */
import { newBadRequest } from '../status.ts';
import type { Managed } from './entries.ts';
import { gvkString, type Manager, type Obj } from './manager.ts';

export class VersionCheckManager implements Manager {
  constructor(
    readonly next: Manager,
    readonly apiVersion: string,
    readonly kind: string,
  ) {}

  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string) {
    return this.next.update(liveObj, newObj, managed, manager);
  }

  apply(liveObj: Obj, appliedObj: Obj, managed: Managed, manager: string, force: boolean) {
    if (appliedObj.apiVersion !== this.apiVersion || appliedObj.kind !== this.kind) {
      throw newBadRequest(`invalid object type: ${gvkString(appliedObj)}`);
    }
    return this.next.apply(liveObj, appliedObj, managed, manager, force);
  }
}
