/**
 * metav1 Conditions' rules (k8s.io/apimachinery/pkg/apis/meta/v1/validation ValidateConditions and
 * ValidateCondition), which status rules of many kinds apply to `status.conditions`: types unique
 * and label names, a known status, a non-negative observed generation, a transition time, a reason
 * of upstream's form and length, a message within its length.
 */
import { duplicate, invalid, notSupported, required, tooLong, type FieldError } from '../field/errors.ts';
import type { Path } from '../field/path.ts';
import { isQualifiedName, regexError } from './names.ts';

const conditionStatuses = ['False', 'True', 'Unknown'];
const reasonFmt = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const reasonRegexp = new RegExp(`^${reasonFmt}$`);
const reasonErrMsg =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";
const maxReasonLength = 1024;
const maxMessageLength = 32 * 1024;

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** ValidateCondition */
export function validateCondition(condition: unknown, fldPath: Path): FieldError[] {
  const c = rec(condition);
  const errs: FieldError[] = [];
  const type = str(c.type);
  errs.push(...isQualifiedName(type).map((m) => invalid(fldPath.child('type'), type, m)));
  const status = str(c.status);
  if (!conditionStatuses.includes(status)) errs.push(notSupported(fldPath.child('status'), status, conditionStatuses));
  if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0) {
    errs.push(invalid(fldPath.child('observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
  }
  if (str(c.lastTransitionTime) === '') errs.push(required(fldPath.child('lastTransitionTime'), 'must be set'));
  const reason = str(c.reason);
  if (reason === '') errs.push(required(fldPath.child('reason'), 'must be set'));
  else {
    if (!reasonRegexp.test(reason)) {
      errs.push(invalid(fldPath.child('reason'), reason, regexError(reasonErrMsg, reasonFmt, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB')));
    }
    if (reason.length > maxReasonLength) errs.push(tooLong(fldPath.child('reason'), reason, maxReasonLength));
  }
  if (str(c.message).length > maxMessageLength) errs.push(tooLong(fldPath.child('message'), str(c.message), maxMessageLength));
  return errs;
}

/** ValidateConditions: each condition's rules; a type seen before is a Duplicate. */
export function validateConditions(conditions: unknown, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(conditions) ? conditions : []).forEach((c, i) => {
    const type = str(rec(c).type);
    if (seen.has(type)) errs.push(duplicate(fldPath.index(i).child('type'), type));
    else seen.add(type);
    errs.push(...validateCondition(c, fldPath.index(i)));
  });
  return errs;
}
