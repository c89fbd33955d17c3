/**
 * The policy kinds' write-time expression check over the admission CEL environment
 * (`schema/admission-cel`): each expression compiled as kube-apiserver's policy validation
 * compiles it — the policy's variables first, in order, then the expression with the result type
 * its field requires (bool for validations and matchConditions, string for messageExpressions,
 * string or null for auditAnnotations, anything for variables, `Object` for applyConfiguration
 * mutations and a list of `JSONPatch` for JSONPatch ones, which see the mutation types) — its
 * error reported as upstream's `compilation failed: ...` or `must evaluate to ...`. No estimated
 * cost is checked: kube-apiserver compiles policy expressions without a static cost limit (only
 * the per-call limit and the per-evaluation budgets apply, when they run).
 */
import { BoolType, NullType, StringType, listOf } from '../../cel/index.ts';
import { AdmissionCompiler, JSON_PATCH_TYPE, OBJECT_TYPE, patchTypeNamesIn, type ReturnTypes } from '../../schema/index.ts';
import type { PolicyExpressionChecker, PolicyExpressionKind } from './expression-checker.ts';

function returnTypes(kind: PolicyExpressionKind): ReturnTypes | undefined {
  switch (kind) {
    case 'validation':
    case 'matchCondition':
      return [BoolType];
    case 'messageExpression':
      return [StringType];
    case 'auditAnnotation':
      return [StringType, NullType];
    case 'variable':
      return 'any';
    case 'applyConfiguration':
      return [OBJECT_TYPE];
    case 'jsonPatch':
      return [listOf(JSON_PATCH_TYPE)];
    default:
      return undefined;
  }
}

export const celPolicyExpressionChecker: PolicyExpressionChecker = {
  compile(expression, o) {
    const rt = returnTypes(o.kind);
    if (rt === undefined || expression.trim() === '') return [];
    const c = new AdmissionCompiler();
    const decls = { hasParams: o.hasParams, hasAuthorizer: o.hasAuthorizer };
    for (const v of o.variables) c.compileVariable(v.name, v.expression, decls);
    const r = c.compile(expression, rt, o.hasPatchTypes ? { ...decls, patchTypeNames: patchTypeNamesIn(expression) } : decls);
    return r.error === undefined ? [] : [{ type: 'Invalid', detail: r.error }];
  },
};
