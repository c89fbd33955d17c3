/**
 * buildManagerInfoManager: the request's field manager name becomes a manager identifier with
 * the operation, the request's group/version and subresource (`unknown` when the client gave no
 * name).
 */
import { buildManagerIdentifier, type Managed } from './entries.ts';
import type { Manager, Obj } from './manager.ts';

export class BuildManagerInfoManager implements Manager {
  constructor(
    readonly next: Manager,
    readonly groupVersion: string,
    readonly subresource: string,
  ) {}

  private id(manager: string, operation: 'Apply' | 'Update'): string {
    return buildManagerIdentifier({ manager: manager === '' ? 'unknown' : manager, operation, apiVersion: this.groupVersion, subresource: this.subresource });
  }

  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string) {
    return this.next.update(liveObj, newObj, managed, this.id(manager, 'Update'));
  }

  apply(liveObj: Obj, appliedObj: Obj, managed: Managed, manager: string, force: boolean) {
    return this.next.apply(liveObj, appliedObj, managed, this.id(manager, 'Apply'), force);
  }
}
