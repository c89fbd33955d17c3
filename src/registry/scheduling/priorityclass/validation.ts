/**
 * PriorityClass's native rules (pkg/apis/scheduling/validation): names with the `system-` prefix
 * are the two system classes with their exact value and globalDefault, user classes stay at or
 * under one billion, and value and preemptionPolicy never change.
 */
import { forbidden, notSupported, Path, required, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { immutableField, num, rec, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

/** scheduling.HighestUserDefinablePriority */
export const HighestUserDefinablePriority = 1000000000;
const systemPrefix = 'system-';

/** The predefined system classes (scheduling.SystemPriorityClasses()). */
const systemClasses = [
  { name: 'system-node-critical', value: 2000001000, globalDefault: false },
  { name: 'system-cluster-critical', value: 2000000000, globalDefault: false },
];

/** IsKnownSystemPriorityClass: undefined when it is one, else the error's text. */
function knownSystemClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const spc = systemClasses.find((c) => c.name === name);
  if (spc === undefined) return `${name} is not a known system priority class`;
  if (spc.value !== value) return `value of ${spc.name} PriorityClass must be ${spc.value}`;
  if (spc.globalDefault !== globalDefault) return `globalDefault of ${spc.name} PriorityClass must be ${spc.globalDefault}`;
  return undefined;
}

/** ValidatePreemptionPolicy */
export function validatePreemptionPolicy(policy: string, fldPath: Path): FieldError[] {
  switch (policy) {
    case 'PreemptLowerPriority':
    case 'Never':
      return [];
    case '':
      return [required(fldPath, '')];
    default:
      return [notSupported(fldPath, policy, ['PreemptLowerPriority', 'Never'])];
  }
}

export function validatePriorityClass(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(rec(obj.metadata).name);
  const value = num(obj.value) ?? 0;
  if (name.startsWith(systemPrefix)) {
    const err = knownSystemClassError(name, value, obj.globalDefault === true);
    if (err !== undefined) {
      errs.push(forbidden(Path.of('metadata', 'name'), `priority class names with '${systemPrefix}' prefix are reserved for system use only. error: ${err}`));
    }
  } else if (value > HighestUserDefinablePriority) {
    errs.push(forbidden(Path.of('value'), `maximum allowed value of a user defined priority is ${HighestUserDefinablePriority}`));
  }
  if (typeof obj.preemptionPolicy === 'string') errs.push(...validatePreemptionPolicy(obj.preemptionPolicy, Path.of('preemptionPolicy')));
  return errs;
}

/** ValidatePriorityClassUpdate: only the update rules (upstream's strategy does not re-run the create rules). */
export function validatePriorityClassUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if ((num(obj.value) ?? 0) !== (num(old.value) ?? 0)) errs.push(forbidden(Path.of('value'), 'may not be changed in an update.'));
  const policy = typeof obj.preemptionPolicy === 'string' ? obj.preemptionPolicy : null;
  errs.push(...immutableField(obj.preemptionPolicy, old.preemptionPolicy, Path.of('preemptionPolicy'), policy));
  return errs;
}

export const priorityClassRules: NativeRules = {
  validate: (_ctx, obj) => validatePriorityClass(obj),
  validateUpdate: (_ctx, obj, old) => validatePriorityClassUpdate(obj, old),
};
