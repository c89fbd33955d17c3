/**
 * Label selectors inside pod specs and workloads, checked strictly (invalid label values
 * refused, as spec.selector has always been checked) with metav1 validation's messages.
 */
import { Path, validateLabelSelector, type FieldError, type LabelSelector } from '../../../apimachinery/index.ts';
import type { Rec } from './values.ts';

/** ValidateLabelSelector with AllowInvalidLabelValueInSelector false. */
export function validateMetaLabelSelector(sel: Rec | undefined, fldPath: Path): FieldError[] {
  return validateLabelSelector(sel as LabelSelector | undefined, {}, fldPath);
}
