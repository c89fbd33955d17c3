/**
 * matchConditions (k8s.io/apiserver pkg/admission/plugin/webhook/matchconditions matcher.go), as
 * policies and webhooks share them: the conditions are evaluated in order against one activation
 * (built without the namespace object) within RuntimeCELCostBudgetMatchConditions; the first false
 * one skips the policy or webhook; errors, with none false, refuse the request under failurePolicy
 * Fail and skip it under Ignore.
 */
import { AdmissionActivation, evaluateAdmissionExpression, type AdmissionInput, type CompiledExpression, type CompiledVariable } from '../schema/index.ts';

/** celconfig.RuntimeCELCostBudgetMatchConditions. */
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;

export type MatchConditionResult = { matches: true; error?: undefined } | { matches: false; error?: string };

/** Matcher.Match of `conditions` for `input`; `variables` are the compiler's declared ones. */
export function matchConditions(
  conditions: readonly CompiledExpression[],
  input: AdmissionInput,
  variables: readonly CompiledVariable[],
  failurePolicy: 'Fail' | 'Ignore',
): MatchConditionResult {
  if (conditions.length === 0) return { matches: true };
  const act = new AdmissionActivation({ ...input, namespace: null }, variables);
  let remaining = RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS;
  const errors: string[] = [];
  for (const c of conditions) {
    const r = evaluateAdmissionExpression(c, act, remaining);
    if (r.outOfBudget !== undefined) return failurePolicy === 'Fail' ? { matches: false, error: r.outOfBudget } : { matches: false };
    remaining = r.remaining;
    if (r.error !== undefined) errors.push(r.error);
    else if (r.value === false) return { matches: false };
  }
  if (errors.length === 0) return { matches: true };
  if (failurePolicy === 'Ignore') return { matches: false };
  return { matches: false, error: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` };
}
