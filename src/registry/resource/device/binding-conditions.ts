/**
 * Binding conditions of a slice's device or an allocation result (validateDeviceBindingParameters):
 * at most 4 of each kind, each a label name, none twice, no failure condition also a condition,
 * and neither kind without the other.
 */
import { duplicate, invalid, tooMany, validateLabelName, type FieldError, type Path } from '../../../apimachinery/index.ts';
import { list, str } from '../../fieldvalues/fields.ts';

const maxConditions = 4;

function labelNames(v: unknown, p: Path): FieldError[] {
  const names = list(v);
  if (names.length > maxConditions) return [tooMany(p, names.length, maxConditions)];
  return names.flatMap((n, i) => validateLabelName(str(n), p.index(i)));
}

/** The []string as a field error prints it: nil as `null`. */
const shown = (v: unknown) => (v === undefined || v === null ? null : v);

/** validateDeviceBindingParameters; `p` is the device's or result's path. */
export function validateBindingConditions(bindingConditions: unknown, bindingFailureConditions: unknown, p: Path): FieldError[] {
  const bp = p.child('bindingConditions');
  const fp = p.child('bindingFailureConditions');
  const conditions = list(bindingConditions).map(str);
  const failures = list(bindingFailureConditions).map(str);
  const errs = [...labelNames(bindingConditions, bp), ...labelNames(bindingFailureConditions, fp)];
  const seen = new Set<string>();
  conditions.forEach((c, i) => (seen.has(c) ? errs.push(duplicate(bp.index(i), c)) : seen.add(c)));
  const seenFailures = new Set<string>();
  failures.forEach((c, i) => {
    if (seenFailures.has(c)) errs.push(duplicate(fp.index(i), c));
    else seenFailures.add(c);
    if (seen.has(c)) errs.push(invalid(fp.index(i), c, 'bindingFailureConditions must not overlap with bindingConditions'));
  });
  if (conditions.length === 0 && failures.length > 0) errs.push(invalid(bp, shown(bindingConditions), 'bindingConditions are required to use bindingFailureConditions'));
  if (failures.length === 0 && conditions.length > 0) errs.push(invalid(fp, shown(bindingFailureConditions), 'bindingFailureConditions are required to use bindingConditions'));
  return errs;
}
