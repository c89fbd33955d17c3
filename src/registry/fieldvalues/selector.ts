/**
 * Label selectors inside built-in objects: metav1 validation of one with the options a strategy
 * picks, and whether a stored one already breaks the label-value rule (upstream then lets its
 * updates through rather than strand the object: hasInvalidLabelValueInLabelSelector).
 */
import { isValidLabelValue, type LabelSelector, type LabelSelectorValidationOptions, validateLabelSelector } from '../../apimachinery/index.ts';
import type { FieldError, Path } from '../../apimachinery/index.ts';
import { list, ptr, rec, str } from './fields.ts';

/** A selector field as a LabelSelector, or undefined when Go's pointer would be nil. */
export function selectorOf(v: unknown): LabelSelector | undefined {
  const s = ptr(v);
  if (s === undefined) return undefined;
  return {
    matchLabels: rec(s.matchLabels) as Record<string, string>,
    matchExpressions: list(s.matchExpressions).map((e) => {
      const r = rec(e);
      return { key: str(r.key), operator: str(r.operator), values: Array.isArray(r.values) ? r.values.map(str) : undefined };
    }),
  };
}

/** Whether any matchExpressions value of the selector is not a valid label value. */
export function hasInvalidLabelValue(v: unknown): boolean {
  const s = selectorOf(v);
  return (s?.matchExpressions ?? []).some((e) => (e.values ?? []).some((x) => isValidLabelValue(x).length > 0));
}

/** ValidateLabelSelector of a selector field. */
export function validateSelectorField(v: unknown, opts: LabelSelectorValidationOptions, fldPath: Path): FieldError[] {
  return validateLabelSelector(selectorOf(v), opts, fldPath);
}
