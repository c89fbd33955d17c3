/**
 * PersistentVolumeClaim's status rules (ValidatePersistentVolumeClaimStatusUpdate, with
 * RecoverVolumeExpansionFailure on as in 1.35): a resourceVersion, access modes still set,
 * capacities not negative, allocated resources and their resize statuses keyed by `storage` or a
 * non-native qualified name, each status a known one, each allocation a non-negative quantity.
 */
import { Path, invalid, isQualifiedName, notSupported, required, type FieldError } from '../../../apimachinery/index.ts';
import { parseQuantity, Quantity } from '../../../cel/index.ts';
import type { EndpointRules } from '../../builtin/native.ts';
import { rec, str, strings } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

const resizeStatuses = ['ControllerResizeInProgress', 'ControllerResizeInfeasible', 'NodeResizeInProgress', 'NodeResizeInfeasible', 'NodeResizePending'];

function quantity(v: unknown): Quantity {
  const q = typeof v === 'string' || typeof v === 'number' ? parseQuantity(String(v)) : undefined;
  return q instanceof Quantity ? q : (parseQuantity('0') as Quantity);
}

/** validateBasicResource: Quantity.Value() (rounded up) not negative. */
function validateBasicResource(q: Quantity, fldPath: Path): FieldError[] {
  const value = Math.ceil(q.asApproximateFloat64());
  return value < 0 ? [invalid(fldPath, value, 'must be a valid resource quantity')] : [];
}

/** validatePersistentVolumeClaimResourceKey: a qualified name; of the native names only `storage`. */
function validateResourceKey(key: string, fldPath: Path): FieldError[] {
  const errs = isQualifiedName(key).map((m) => invalid(fldPath, key, m));
  if (errs.length > 0) return errs;
  const native = !key.includes('/') || key.includes('kubernetes.io/');
  return native && key !== 'storage' ? [notSupported(fldPath, key, ['storage'])] : [];
}

/** Go ranges over maps in no order; sorted here so that the list is stable. */
const sortedEntries = (v: unknown) => Object.entries(rec(v)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** ValidatePersistentVolumeClaimStatusUpdate's part after ObjectMeta (the common strategy's). */
export function validatePersistentVolumeClaimStatusUpdate(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (str(rec(obj.metadata).resourceVersion) === '') errs.push(required(Path.of('resourceVersion'), ''));
  // Upstream's path, capitalised.
  if (strings(rec(obj.spec).accessModes).length === 0) errs.push(required(Path.of('Spec', 'accessModes'), ''));
  const status = rec(obj.status);
  const capPath = Path.of('status', 'capacity');
  for (const [r, q] of sortedEntries(status.capacity)) errs.push(...validateBasicResource(quantity(q), capPath.key(r)));
  const resizePath = Path.of('status', 'allocatedResourceStatus');
  for (const [k, v] of sortedEntries(status.allocatedResourceStatuses)) {
    errs.push(...validateResourceKey(k, resizePath));
    // The bad value is the key, as upstream reports it.
    if (!resizeStatuses.includes(str(v))) errs.push(notSupported(resizePath, k, resizeStatuses));
  }
  const allocPath = Path.of('status', 'allocatedResources');
  for (const [r, v] of sortedEntries(status.allocatedResources)) {
    const keyErrs = validateResourceKey(r, allocPath);
    if (keyErrs.length > 0) {
      errs.push(...keyErrs);
      continue;
    }
    const q = quantity(v);
    const basic = validateBasicResource(q, allocPath.key(r));
    if (basic.length > 0) errs.push(...basic);
    else if (q.sign() < 0) errs.push(invalid(allocPath.key(r), q.toString(), 'must be greater than or equal to 0'));
  }
  return errs;
}

export const persistentVolumeClaimStatusRules: EndpointRules = {
  validateUpdate: (_ctx, obj) => validatePersistentVolumeClaimStatusUpdate(obj),
};
