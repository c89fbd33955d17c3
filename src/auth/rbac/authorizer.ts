/**
 * The RBAC authorizer (`plugin/pkg/auth/authorizer/rbac/rbac.go`): allowed when a rule of a role
 * bound to the user allows the request, with the binding named in the reason (`RBAC: allowed by
 * ClusterRoleBinding "x" of ClusterRole "y" to User "jane"`); otherwise no opinion, with the
 * errors met on the way (`RBAC: clusterrole.rbac.authorization.k8s.io "y" not found`). RBAC never
 * denies: what no rule allows is refused by the chain's end.
 */
import type { ReviewRules, UserInfo } from '../../registry/index.ts';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../authorizer.ts';
import { ruleAllows, visitRulesFor, type RuleSource } from './rules.ts';

/** utilerrors.NewAggregate(errs).Error(). */
function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

export function rbacAuthorizer(src: RuleSource): Authorizer {
  return {
    authorize(a: AuthorizationAttributes): AuthorizationResult {
      let allowedBy: string | undefined;
      const errors: string[] = [];
      visitRulesFor(src, a.user, a.namespace, (source, rule, err) => {
        if (rule && ruleAllows(a, rule)) {
          allowedBy = source;
          return false;
        }
        if (err !== undefined) errors.push(err);
        return true;
      });
      if (allowedBy !== undefined) return { decision: 'Allow', reason: `RBAC: allowed by ${allowedBy}` };
      return { decision: 'NoOpinion', reason: errors.length > 0 ? `RBAC: ${aggregate(errors)}` : '' };
    },
  };
}

/**
 * RulesFor, as SelfSubjectRulesReview lists them: every rule bound to the user in the namespace,
 * resource rules and non-resource rules apart, and the errors met (never incomplete: RBAC knows
 * all its rules).
 */
export function rbacRulesFor(src: RuleSource, user: UserInfo, namespace: string): ReviewRules {
  const resourceRules: ReviewRules['resourceRules'] = [];
  const nonResourceRules: ReviewRules['nonResourceRules'] = [];
  const errors: string[] = [];
  visitRulesFor(src, user, namespace, (_source, rule, err) => {
    if (rule) {
      if ((rule.resources ?? []).length > 0) {
        resourceRules.push({ verbs: rule.verbs, ...(rule.apiGroups ? { apiGroups: rule.apiGroups } : {}), resources: rule.resources!, ...(rule.resourceNames ? { resourceNames: rule.resourceNames } : {}) });
      }
      if ((rule.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs! });
    }
    if (err !== undefined) errors.push(err);
    return true;
  });
  return { resourceRules, nonResourceRules, incomplete: false, ...(errors.length > 0 ? { evaluationError: aggregate(errors) } : {}) };
}
