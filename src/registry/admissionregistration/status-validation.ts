/**
 * The status rules of ValidatingAdmissionPolicy: the type checker's warnings name a field by a
 * JSONPath (validateFieldRef) and the conditions follow metav1's rules
 * (metav1validation.ValidateConditions / ValidateCondition).
 */
import { duplicate, invalid, notSupported, required, tooLongMaxLength as tooLong, type FieldError, type Path } from '../../apimachinery/index.ts';
import { parseJSONPath } from '../table/jsonpath.ts';
import { validateQualifiedName } from './rules.ts';
import { objectAt, stringAt } from './values.ts';

/** validateFieldRef: a JSONPath that client-go's parser accepts (no further checks, for easier upgrades). */
export function validateFieldRef(fieldRef: string, path: Path): FieldError[] {
  const ref = fieldRef.trim();
  if (ref === '') return [required(path, '')];
  try {
    parseJSONPath(`{${ref}}`);
  } catch (e) {
    return [invalid(path, ref, `invalid JSONPath: ${(e as Error).message}`)];
  }
  return [];
}

const conditionStatuses = ['False', 'True', 'Unknown'];
const reasonFmt = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const reasonRegexp = new RegExp(`^${reasonFmt}$`);
const maxReasonLength = 1024;
const maxMessageLength = 32 * 1024;

/** ValidateConditions: each condition's rules, types unique. */
export function validateStatusConditions(conditions: unknown[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  conditions.forEach((c, i) => {
    const cond = objectAt(c) ?? {};
    const p = path.index(i);
    const type = stringAt(cond.type);
    const status = stringAt(cond.status);
    const reason = stringAt(cond.reason);
    const message = stringAt(cond.message);
    if (type !== '') {
      if (types.has(type)) errs.push(duplicate(p.child('type'), type));
      types.add(type);
    }
    errs.push(...validateQualifiedName(type, p.child('type')));
    if (!conditionStatuses.includes(status)) errs.push(notSupported(p.child('status'), status, conditionStatuses));
    if (typeof cond.observedGeneration === 'number' && cond.observedGeneration < 0) errs.push(invalid(p.child('observedGeneration'), cond.observedGeneration, 'must be greater than or equal to zero'));
    if (stringAt(cond.lastTransitionTime) === '') errs.push(required(p.child('lastTransitionTime'), 'must be set'));
    if (reason === '') errs.push(required(p.child('reason'), 'must be set'));
    else {
      if (!reasonRegexp.test(reason)) {
        errs.push(invalid(p.child('reason'), reason, `a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (regex used for validation is '${reasonFmt}')`));
      }
      if (reason.length > maxReasonLength) errs.push(tooLong(p.child('reason'), reason, maxReasonLength));
    }
    if (message.length > maxMessageLength) errs.push(tooLong(p.child('message'), message, maxMessageLength));
  });
  return errs;
}
