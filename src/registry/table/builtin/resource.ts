/**
 * Printers of resource.k8s.io/v1: DeviceClasses and ResourceClaimTemplates (Name, Age),
 * ResourceClaims (STATE: deleted, pending, allocated, reserved) and ResourceSlices (NODE,
 * DRIVER, POOL).
 */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, isSet, meta, nameOf, obj, objs, spec, status, str, type Obj } from './cells.ts';

export const nameAgePrinter = printer([nameColumn, ageColumn], (o, now) => [nameOf(o), age(o, now)]);

/** resourceClaimState. */
function claimState(o: Obj): string {
  const states: string[] = [];
  const deleting = isSet(meta(o).deletionTimestamp);
  if (deleting) states.push('deleted');
  if (!isSet(status(o).allocation)) {
    if (!deleting) states.push('pending');
  } else {
    states.push('allocated');
    if (objs(status(o).reservedFor).length > 0) states.push('reserved');
  }
  return states.join(',');
}

export const resourceClaimPrinter = printer(
  [nameColumn, col('State', 'string', 'A summary of the current state (allocated, pending, reserved, etc.).'), ageColumn],
  (o, now) => [nameOf(o), claimState(o), age(o, now)],
);

export const resourceSlicePrinter = printer(
  [
    nameColumn,
    col('Node', 'string', 'resourcev1beta1.ResourceSliceSpec.nodeName'),
    col('Driver', 'string', 'resourcev1beta1.ResourceSliceSpec.driver'),
    col('Pool', 'string', 'resourcev1beta1.ResourcePool.name'),
    ageColumn,
  ],
  (o, now) => {
    const s = spec(o);
    return [nameOf(o), str(s.nodeName), str(s.driver), str(obj(s.pool).name), age(o, now)];
  },
);
