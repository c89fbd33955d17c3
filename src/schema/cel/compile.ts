/**
 * Compiling the x-kubernetes-validations rules of one schema node (apiextensions-apiserver
 * pkg/apiserver/schema/cel/compilation.go): each rule and messageExpression is parsed, type-checked
 * against `self`/`oldSelf` of the node's CEL type, cost-estimated and planned once. The results carry
 * upstream's error details (`compilation failed: ERROR: <input>:1:...`, `cel expression must
 * evaluate to a bool`, ...), whether the rule uses oldSelf, its estimated max cost and the node's
 * worst-case cardinality.
 */
import type { Program } from '../../cel/index.ts';
import { validFieldPath } from '../fieldpath.ts';
import type { Structural } from '../structural.ts';
import type { ValidationRule } from '../types.ts';
import { PER_CALL_LIMIT, RuleEnv, type UnboundedSize } from './env.ts';
import { cachedRules, ruleCacheKey } from './rule-cache.ts';
import { maxCardinality, type DeclType } from './types.ts';

/** apiservercel.Error: a compile problem and how CRD validation reports it. */
export interface RuleError {
  type: 'Invalid' | 'Required' | 'Internal';
  detail: string;
}

/** CompilationResult: one rule, compiled. */
export interface CompiledRule {
  rule: ValidationRule;
  /** Absent when the rule is empty or failed to compile. */
  program?: Program;
  error?: RuleError;
  /** The rule refers to oldSelf (a transition rule). */
  usesOldSelf: boolean;
  /** Estimated worst-case cost of one evaluation. */
  maxCost: bigint;
  /** How many times a value of the node's type could occur in one request (upper bound). */
  maxCardinality: bigint;
  messageExpression?: Program;
  messageExpressionError?: RuleError;
  messageExpressionMaxCost: bigint;
  /** The rule's fieldPath as a field path string (`spec.foo`), '' when unset or invalid. */
  normalizedRuleFieldPath: string;
  /** Sizes the rule's cost estimate assumed unbounded (no maxItems/maxProperties/maxLength). */
  unboundedSizes: UnboundedSize[];
}

export interface CompileRulesOptions {
  /** The per-call runtime cost limit (tests only; Kubernetes always uses 1,000,000). */
  perCallLimit?: number;
  /**
   * The CEL compatibility version ("1.30"); default the current one. Only what rules can name
   * depends on it here: reserved words as field names from 1.31.
   */
  compatibilityVersion?: string;
}

/**
 * Compile: compiles the rules of s (not of its children) against declType. Returns [] when s has
 * no rules; throws when declType is undefined (`failed to convert to declType for CEL validation
 * rules`), which callers report as an error of the node. Equal rules on equal types are compiled
 * once (rule-cache.ts): the CRD write check and serving share the result, which callers must not
 * mutate.
 */
export function compileRules(s: Structural, declType: DeclType | undefined, opts: CompileRulesOptions = {}): CompiledRule[] {
  const rules = s.xValidations ?? [];
  if (rules.length === 0) return [];
  if (declType === undefined) throw new Error('failed to convert to declType for CEL validation rules');
  const perCallLimit = opts.perCallLimit ?? PER_CALL_LIMIT;
  const key = ruleCacheKey(s, rules, declType, [perCallLimit, opts.compatibilityVersion ?? '']);
  return cachedRules(key, () => compileAll(s, rules, declType, perCallLimit, opts.compatibilityVersion));
}

function compileAll(s: Structural, rules: ValidationRule[], declType: DeclType, perCallLimit: number, compatibilityVersion: string | undefined): CompiledRule[] {
  let plain: RuleEnv | undefined;
  let optional: RuleEnv | undefined;
  const card = maxCardinality(declType.minSerializedSize);
  return rules.map((rule) => {
    const env = rule.optionalOldSelf === true ? (optional ??= new RuleEnv(declType, true, perCallLimit, compatibilityVersion)) : (plain ??= new RuleEnv(declType, false, perCallLimit, compatibilityVersion));
    return compileRule(s, rule, env, card);
  });
}

function compileRule(s: Structural, rule: ValidationRule, env: RuleEnv, card: bigint): CompiledRule {
  const r: CompiledRule = { rule, usesOldSelf: false, maxCost: 0n, maxCardinality: 0n, messageExpressionMaxCost: 0n, normalizedRuleFieldPath: '', unboundedSizes: [] };
  const source = rule.rule ?? '';
  if (source.trim().length === 0) return r;
  const c = env.compile(source);
  if (c.issues !== undefined) {
    r.error = { type: 'Invalid', detail: 'compilation failed: ' + c.issues };
    return r;
  }
  const out = c.checked.typeMap.get(c.checked.expr.id);
  if (out?.kind !== 'bool') {
    r.error = { type: 'Invalid', detail: 'cel expression must evaluate to a bool' };
    return r;
  }
  if (c.instantiationError !== undefined) {
    r.error = { type: 'Invalid', detail: 'program instantiation failed: ' + c.instantiationError };
    return r;
  }
  for (const ref of c.checked.referenceMap.values()) {
    if (ref.name === 'oldSelf') {
      r.usesOldSelf = true;
      break;
    }
  }
  r.maxCost = c.cost.max;
  r.unboundedSizes = c.unbounded;
  r.maxCardinality = card;
  r.program = c.program;
  if (rule.messageExpression !== undefined && rule.messageExpression !== '') {
    const m = env.compile(rule.messageExpression);
    if (m.issues !== undefined) {
      r.messageExpressionError = { type: 'Invalid', detail: 'messageExpression compilation failed: ' + m.issues };
      return r;
    }
    const mt = m.checked.typeMap.get(m.checked.expr.id);
    if (m.instantiationError !== undefined) {
      r.messageExpressionError = { type: 'Invalid', detail: 'messageExpression instantiation failed: ' + m.instantiationError };
      return r;
    }
    if (mt?.kind !== 'string') {
      r.messageExpressionError = { type: 'Invalid', detail: 'messageExpression must evaluate to a string' };
      return r;
    }
    r.messageExpression = m.program!;
    r.messageExpressionMaxCost = m.cost!.max;
  }
  if (rule.fieldPath !== undefined && rule.fieldPath !== '') {
    const fp = validFieldPath(rule.fieldPath, s);
    if (fp.error === undefined) r.normalizedRuleFieldPath = fp.path?.toString() ?? '';
  }
  return r;
}
