/** core/v1 Node's defaulting: SetDefaults_NodeStatus gives a status with capacity and no allocatable the capacity as allocatable. */
import type { Obj } from '../../rest.ts';
import { asObject, child } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export function defaultNode(obj: Obj): void {
  const status = child(obj, 'status');
  if (!status) return;
  const capacity = asObject(status.capacity);
  if (capacity !== undefined && (status.allocatable === undefined || status.allocatable === null)) status.allocatable = { ...capacity };
}

export const nodeDefaulters = { '/v1/nodes': defaultNode };
