/**
 * A webhook's matchConditions (k8s.io/apiserver pkg/admission/plugin/webhook/matchconditions
 * matcher.go): CEL expressions over `object`, `oldObject`, `request` and `authorizer` in the
 * admission environment, compiled once. The webhook is skipped as soon as one is false; errors
 * with none false refuse the request under failurePolicy Fail and skip the webhook under Ignore,
 * all within the match conditions' cost budget.
 */
import { BoolType } from '../../cel/index.ts';
import { AdmissionActivation, AdmissionCompiler, evaluateAdmissionExpression, type AdmissionInput, type CompiledExpression } from '../../schema/index.ts';
import type { Obj } from '../../registry/index.ts';

/** celconfig.RuntimeCELCostBudgetMatchConditions. */
const COST_BUDGET = 2_500_000;

export type MatchConditionResult = { matches: true } | { matches: false; error?: string };

export class MatchConditions {
  private readonly compiler = new AdmissionCompiler();
  private readonly conditions: CompiledExpression[];

  constructor(
    conditions: readonly Obj[],
    private readonly failurePolicy: 'Fail' | 'Ignore',
  ) {
    this.conditions = conditions.map((c) => this.compiler.compile(String(c.expression ?? ''), [BoolType], { hasParams: false, hasAuthorizer: true }));
  }

  get empty(): boolean {
    return this.conditions.length === 0;
  }

  /** Match: whether the webhook is called for `input` (evaluated without a namespace object). */
  match(input: AdmissionInput): MatchConditionResult {
    if (this.conditions.length === 0) return { matches: true };
    const act = new AdmissionActivation({ ...input, namespace: null }, this.compiler.variables);
    let remaining = COST_BUDGET;
    const errors: string[] = [];
    for (const c of this.conditions) {
      const r = evaluateAdmissionExpression(c, act, remaining);
      if (r.outOfBudget !== undefined) return this.failurePolicy === 'Fail' ? { matches: false, error: r.outOfBudget } : { matches: false };
      remaining = r.remaining;
      if (r.error !== undefined) errors.push(r.error);
      else if (r.value === false) return { matches: false };
    }
    if (errors.length === 0) return { matches: true };
    if (this.failurePolicy === 'Ignore') return { matches: false };
    return { matches: false, error: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` };
  }
}
