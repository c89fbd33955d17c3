/**
 * ClusterRole's native rules (pkg/apis/rbac/validation ValidateClusterRole and the clusterrole
 * strategy): policy rules that may name non-resource URLs, and an aggregationRule with at least
 * one valid selector; an update may keep label values its stored selectors already had wrong.
 */
import { type FieldError, invalid, labelSelectorAsSelector, Path, required } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { list, ptr } from '../../fieldvalues/fields.ts';
import { hasInvalidLabelValue, selectorOf, validateSelectorField } from '../../fieldvalues/selector.ts';
import type { Obj } from '../../rest.ts';
import { validateRules } from '../policyrule/validation.ts';

const selectorsPath = Path.of('aggregationRule', 'clusterRoleSelectors');

export function validateClusterRole(obj: Obj, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  const errs = validateRules(obj, false);
  const rule = ptr(obj.aggregationRule);
  if (rule !== undefined) {
    const selectors = list(rule.clusterRoleSelectors);
    if (selectors.length === 0) errs.push(required(selectorsPath, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((s, i) => {
      const p = selectorsPath.index(i);
      errs.push(...validateSelectorField(s, { allowInvalidLabelValueInSelector }, p));
      try {
        labelSelectorAsSelector(selectorOf(s));
      } catch {
        // Upstream prints the converted selector, which is nil when the conversion failed.
        errs.push(invalid(p, null, 'invalid label selector.'));
      }
    });
  }
  return errs;
}

/** Whether any of a stored aggregation rule's selectors has a label value that no longer passes. */
function storedInvalidLabelValue(old: Obj): boolean {
  return list(ptr(old.aggregationRule)?.clusterRoleSelectors).some(hasInvalidLabelValue);
}

export const clusterRoleRules: NativeRules = {
  validate: (_ctx, obj) => validateClusterRole(obj, false),
  validateUpdate: (_ctx, obj, old) => validateClusterRole(obj, storedInvalidLabelValue(old)),
};
