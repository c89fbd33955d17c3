/**
 * One ValidatingAdmissionPolicy compiled and evaluated (k8s.io/apiserver pkg/admission/plugin/
 * policy/validating plugin.go's compilePolicy and validator.go's Validate, with matchconditions'
 * Matcher): variables, matchConditions, validations with their messageExpressions, and
 * auditAnnotations, compiled once per policy generation; `validate` turns one evaluation (one
 * param) into decisions — admit, deny with the message upstream picks (messageExpression, then
 * message, then `failed expression: ...`), or an error under the failure policy — and audit
 * annotations to publish.
 */
import { BoolType, NullType, StringType } from '../../cel/index.ts';
import {
  AdmissionActivation,
  AdmissionCompiler,
  evaluateAdmissionExpression,
  type AdmissionInput,
  type CompiledExpression,
} from '../../schema/index.ts';
import type { Obj } from '../../registry/index.ts';
import { matchConditions, type MatchConditionResult } from '../match-conditions.ts';

/** celconfig.RuntimeCELCostBudget. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;

export type FailurePolicy = 'Fail' | 'Ignore';

interface CompiledValidation {
  expression: CompiledExpression;
  message: string;
  messageExpression?: CompiledExpression;
  reason?: string;
}

/** PolicyDecision: what one validation decided. */
export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  reason?: string;
}

/** PolicyAuditAnnotation. */
export interface AuditAnnotationResult {
  key: string;
  action: 'publish' | 'exclude' | 'error';
  value?: string;
  error?: string;
}

export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: AuditAnnotationResult[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** A compiled policy's evaluator (validator). */
export class PolicyValidator {
  readonly failurePolicy: FailurePolicy;
  private readonly compiler = new AdmissionCompiler();
  private readonly validations: CompiledValidation[];
  private readonly auditAnnotations: { key: string; valueExpression: CompiledExpression }[];
  private readonly matchConditionExpressions: CompiledExpression[];

  /** compilePolicy over `spec`, a ValidatingAdmissionPolicySpec. */
  constructor(spec: Obj) {
    this.failurePolicy = spec.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail';
    const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
    const withAuthz = { hasParams, hasAuthorizer: true };
    const noAuthz = { hasParams, hasAuthorizer: false };
    for (const v of arr(spec.variables)) this.compiler.compileVariable(str(v.name), str(v.expression), withAuthz);
    this.matchConditionExpressions = arr(spec.matchConditions).map((m) => this.compiler.compile(str(m.expression), [BoolType], withAuthz));
    this.validations = arr(spec.validations).map((v) => ({
      expression: this.compiler.compile(str(v.expression), [BoolType], withAuthz),
      message: str(v.message),
      ...(typeof v.messageExpression === 'string' && v.messageExpression !== ''
        ? { messageExpression: this.compiler.compile(v.messageExpression, [StringType], noAuthz) }
        : {}),
      ...(typeof v.reason === 'string' && v.reason !== '' ? { reason: v.reason } : {}),
    }));
    this.auditAnnotations = arr(spec.auditAnnotations).map((a) => ({
      key: str(a.key),
      valueExpression: this.compiler.compile(str(a.valueExpression), [StringType, NullType], withAuthz),
    }));
  }

  private activation(input: AdmissionInput): AdmissionActivation {
    return new AdmissionActivation(input, this.compiler.variables);
  }

  /** matchconditions.Matcher.Match (evaluated without the namespace). */
  private matchConditionsResult(input: AdmissionInput): MatchConditionResult {
    return matchConditions(this.matchConditionExpressions, input, this.compiler.variables, this.failurePolicy);
  }

  private errorDecision(message: string): PolicyDecision {
    return { action: this.failurePolicy === 'Ignore' ? 'admit' : 'deny', evaluation: 'error', message };
  }

  /**
   * Validate: the decisions and audit annotations of one evaluation (one param, or none), within
   * `budget` (RuntimeCELCostBudget; smaller in tests).
   */
  validate(input: AdmissionInput, budget = RUNTIME_CEL_COST_BUDGET): ValidateResult {
    const mc = this.matchConditionsResult(input);
    if (mc.error !== undefined) return { decisions: [this.errorDecision(mc.error)], auditAnnotations: [] };
    if (!mc.matches) return { decisions: [], auditAnnotations: [] };

    // Validations, then every messageExpression (each phase with its own activation and budget).
    const act = this.activation(input);
    let remaining = budget;
    const results: ReturnType<typeof evaluateAdmissionExpression>[] = [];
    for (const v of this.validations) {
      const r = evaluateAdmissionExpression(v.expression, act, remaining);
      if (r.outOfBudget !== undefined) return { decisions: [this.errorDecision(r.outOfBudget)], auditAnnotations: [] };
      remaining = r.remaining;
      results.push(r);
    }
    const msgInput: AdmissionInput = { ...input, authorizer: undefined };
    const msgAct = this.activation(msgInput);
    let msgRemaining = remaining;
    let msgBudgetError: string | undefined;
    const messages: (ReturnType<typeof evaluateAdmissionExpression> | undefined)[] = [];
    for (const v of this.validations) {
      if (v.messageExpression === undefined || msgBudgetError !== undefined) {
        messages.push(undefined);
        continue;
      }
      const r = evaluateAdmissionExpression(v.messageExpression, msgAct, msgRemaining);
      if (r.outOfBudget !== undefined) {
        msgBudgetError = r.outOfBudget;
        messages.length = 0;
        break;
      }
      msgRemaining = r.remaining;
      messages.push(r);
    }

    const decisions: PolicyDecision[] = this.validations.map((v, i) => {
      const r = results[i]!;
      if (r.error !== undefined) return this.errorDecision(r.error);
      if (msgBudgetError !== undefined) return this.errorDecision(`failed messageExpression: ${msgBudgetError}`);
      if (r.value === true) return { action: 'admit', evaluation: 'admit', message: '' };
      let message = '';
      const m = messages[i];
      if (m !== undefined && m.error === undefined && typeof m.value === 'string') {
        message = m.value.trim();
        if (Buffer.byteLength(message, 'utf8') > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES || message.includes('\n')) message = '';
      }
      if (message === '' && v.message !== '') message = v.message.trim();
      if (message === '') message = `failed expression: ${v.expression.expression.trim()}`;
      return { action: 'deny', evaluation: 'deny', message, reason: v.reason ?? 'Invalid' };
    });

    const auditAnnotations: AuditAnnotationResult[] = [];
    if (this.auditAnnotations.length > 0) {
      const auditAct = this.activation(input);
      let auditRemaining = budget;
      for (const a of this.auditAnnotations) {
        const r = evaluateAdmissionExpression(a.valueExpression, auditAct, auditRemaining);
        if (r.outOfBudget !== undefined) return { decisions: [this.errorDecision(r.outOfBudget)], auditAnnotations: [] };
        auditRemaining = r.remaining;
        if (r.error !== undefined) {
          auditAnnotations.push({ key: a.key, action: this.failurePolicy === 'Ignore' ? 'exclude' : 'error', error: r.error });
        } else if (typeof r.value === 'string') {
          const value = r.value.trim();
          auditAnnotations.push(value === '' ? { key: a.key, action: 'exclude' } : { key: a.key, action: 'publish', value });
        } else if (r.value === null) {
          auditAnnotations.push({ key: a.key, action: 'exclude' });
        } else {
          auditAnnotations.push({
            key: a.key,
            action: 'error',
            error: `valueExpression '${a.valueExpression.expression}' resulted in unsupported return type: ${typeof r.value}. Return type must be either string or null.`,
          });
        }
      }
    }
    return { decisions, auditAnnotations };
  }
}
