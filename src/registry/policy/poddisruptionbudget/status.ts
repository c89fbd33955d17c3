/**
 * PodDisruptionBudget's status rules (ValidatePodDisruptionBudgetStatusUpdate for policy/v1, after
 * the common ObjectMeta checks): metav1 conditions, and the four counts not negative.
 */
import { IsNegativeErrorMsg, Path, invalid, validateConditions, type FieldError } from '../../../apimachinery/index.ts';
import type { EndpointRules } from '../../builtin/native.ts';
import { num, rec } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

const statusPath = Path.of('status');

export function validatePodDisruptionBudgetStatusUpdate(obj: Obj): FieldError[] {
  const status = rec(obj.status);
  const errs = validateConditions(status.conditions, statusPath.child('conditions'));
  for (const k of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) {
    const v = num(status[k]) ?? 0;
    if (v < 0) errs.push(invalid(statusPath.child(k), v, IsNegativeErrorMsg));
  }
  return errs;
}

export const podDisruptionBudgetStatusRules: EndpointRules = {
  validateUpdate: (_ctx, obj) => validatePodDisruptionBudgetStatusUpdate(obj),
};
