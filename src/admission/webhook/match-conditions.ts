/**
 * A webhook's matchConditions: CEL expressions over `object`, `oldObject`, `request` and
 * `authorizer` in the admission environment, compiled once, matched as policies match theirs
 * (`../match-conditions.ts`).
 */
import { BoolType } from '../../cel/index.ts';
import { AdmissionCompiler, type AdmissionInput, type CompiledExpression } from '../../schema/index.ts';
import { matchConditions, type MatchConditionResult } from '../match-conditions.ts';
import type { Obj } from '../../registry/index.ts';

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
    return matchConditions(this.conditions, input, this.compiler.variables, this.failurePolicy);
  }
}
