/**
 * The policy kinds' write-time expression check over the admission CEL environment
 * (`schema/admission-cel`): each expression compiled as kube-apiserver's policy validation
 * compiles it — the policy's variables first, in order, then the expression with the result type
 * its field requires (bool for validations and matchConditions, string for messageExpressions,
 * string or null for auditAnnotations, anything for variables) — its error reported as upstream's
 * `compilation failed: ...` or `must evaluate to ...`. Mutations (applyConfiguration, JSONPatch)
 * need the mutation types, which that environment does not declare yet: they are not compiled.
 */
import { BoolType, NullType, StringType } from '../../cel/index.ts';
import { AdmissionCompiler, type ReturnTypes } from '../../schema/index.ts';
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
    const r = c.compile(expression, rt, decls);
    return r.error === undefined ? [] : [{ type: 'Invalid', detail: r.error }];
  },
};
