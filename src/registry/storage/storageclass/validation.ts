/**
 * StorageClass's native rules (pkg/apis/storage/validation ValidateStorageClass[Update]): a
 * provisioner that is a qualified name, parameters within their count and size, known reclaim
 * policy and binding mode; provisioner, parameters, reclaimPolicy and volumeBindingMode fixed
 * once created. Absent reclaimPolicy and volumeBindingMode stand for their defaults (Delete,
 * Immediate): upstream's defaulting sets them before validation ever sees them.
 */
import { type FieldError, forbidden, invalid, jsonEqual, notSupported, Path, required, tooLong } from '../../../apimachinery/index.ts';
import { isQualifiedName } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { immutableField, rec, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

const maxProvisionerParameterSize = 256 * (1 << 10);
const maxProvisionerParameterLen = 512;
const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];

/** validateProvisioner: required, and a qualified name once lower-cased. */
export function validateProvisioner(provisioner: string, fldPath: Path): FieldError[] {
  if (provisioner === '') return [required(fldPath, '')];
  const lower = provisioner.toLowerCase();
  return isQualifiedName(lower).map((msg) => invalid(fldPath, lower, msg));
}

/** validateParameters (StorageClass allows none at all). */
export function validateParameters(params: Record<string, unknown>, allowEmpty: boolean, fldPath: Path): FieldError[] {
  const entries = Object.entries(params);
  if (entries.length > maxProvisionerParameterLen) return [tooLong(fldPath, 'Provisioner Parameters exceeded max allowed', maxProvisionerParameterLen)];
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(invalid(fldPath, k, 'field can not be empty.'));
    total += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(str(v), 'utf8');
  }
  if (total > maxProvisionerParameterSize) errs.push(tooLong(fldPath, '', maxProvisionerParameterSize));
  if (!allowEmpty && entries.length === 0) errs.push(required(fldPath, 'must contain at least one key/value pair'));
  return errs;
}

const reclaimPolicyOf = (obj: Obj) => (typeof obj.reclaimPolicy === 'string' ? obj.reclaimPolicy : 'Delete');
const bindingModeOf = (obj: Obj) => (typeof obj.volumeBindingMode === 'string' ? obj.volumeBindingMode : 'Immediate');

export function validateStorageClass(obj: Obj): FieldError[] {
  const errs = validateProvisioner(str(obj.provisioner), Path.of('provisioner'));
  errs.push(...validateParameters(rec(obj.parameters), true, Path.of('parameters')));
  const reclaim = reclaimPolicyOf(obj);
  if (reclaim !== '' && !reclaimPolicies.includes(reclaim)) errs.push(notSupported(Path.of('reclaimPolicy'), reclaim, reclaimPolicies));
  const mode = bindingModeOf(obj);
  if (!bindingModes.includes(mode)) errs.push(notSupported(Path.of('volumeBindingMode'), mode, bindingModes));
  return errs;
}

/** ValidateStorageClassUpdate: only the update rules (the strategy then runs the create rules too). */
export function validateStorageClassUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  // reflect.DeepEqual: an absent map is not an empty one.
  if (!jsonEqual(obj.parameters ?? null, old.parameters ?? null)) errs.push(forbidden(Path.of('parameters'), 'updates to parameters are forbidden.'));
  if (str(obj.provisioner) !== str(old.provisioner)) errs.push(forbidden(Path.of('provisioner'), 'updates to provisioner are forbidden.'));
  if (reclaimPolicyOf(obj) !== reclaimPolicyOf(old)) errs.push(forbidden(Path.of('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  errs.push(...immutableField(bindingModeOf(obj), bindingModeOf(old), Path.of('volumeBindingMode')));
  return errs;
}

export const storageClassRules: NativeRules = {
  validate: (_ctx, obj) => validateStorageClass(obj),
  validateUpdate: (_ctx, obj, old) => [...validateStorageClass(obj), ...validateStorageClassUpdate(obj, old)],
};
