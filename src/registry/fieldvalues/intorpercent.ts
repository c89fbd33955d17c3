/**
 * IntOrString fields that hold a count or a percentage (pkg/apis/apps/validation
 * ValidatePositiveIntOrPercent and IsNotMoreThan100Percent), as PodDisruptionBudget's
 * minAvailable and maxUnavailable use them. The bad value prints as the IntOrString marshals:
 * a number or a quoted string.
 */
import { type FieldError, invalid, IsNegativeErrorMsg, type Path, regexError } from '../../apimachinery/index.ts';

const percentFmt = '[0-9]+%';
const percentRegexp = new RegExp(`^${percentFmt}$`);

/** IsValidPercent */
export function isValidPercent(percent: string): string[] {
  return percentRegexp.test(percent) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", percentFmt, '1%', '93%')];
}

/** ValidatePositiveIntOrPercent */
export function validatePositiveIntOrPercent(v: unknown, fldPath: Path): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((msg) => invalid(fldPath, v, msg));
  if (typeof v === 'number') return v < 0 ? [invalid(fldPath, v, IsNegativeErrorMsg)] : [];
  return [invalid(fldPath, v, "must be an integer or percentage (e.g '5%')")];
}

/** IsNotMoreThan100Percent */
export function isNotMoreThan100Percent(v: unknown, fldPath: Path): FieldError[] {
  if (typeof v !== 'string' || isValidPercent(v).length > 0) return [];
  return Number.parseInt(v.slice(0, -1), 10) <= 100 ? [] : [invalid(fldPath, v, 'must not be greater than 100%')];
}
