/**
 * RBAC's privilege-escalation checks (`pkg/registry/rbac/escalation_check.go`,
 * `pkg/registry/rbac/validation/rule.go` ConfirmNoEscalation): a user may write a role, or bind
 * one, only with rules it already holds, unless it is in `system:masters`, may `escalate` roles
 * (for role writes) or may `bind` the referenced role (for bindings). The registry's RBAC stores
 * call these through the `EscalationChecks` seam; they live here because they read the
 * authorizer and the rules bound to the user.
 */
import type { EscalationChecks, RoleReference, UserInfo } from '../../registry/index.ts';
import { systemPrivilegedGroup, type Authorizer } from '../authorizer.ts';
import { compactRules, compactString, covers, goQuoteList } from './covers.ts';
import { roleReferenceRules, visitRulesFor, type PolicyRule, type RuleSource } from './rules.ts';

/** utilerrors.NewAggregate(errs).Error(). */
function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

/** RulesFor: every rule bound to the user in the namespace, and the errors met (aggregated). */
export function rulesFor(src: RuleSource, user: UserInfo, namespace: string): { rules: PolicyRule[]; error?: string } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  visitRulesFor(src, user, namespace, (_source, rule, err) => {
    if (rule) rules.push(rule);
    if (err !== undefined) errors.push(err);
    return true;
  });
  return errors.length > 0 ? { rules, error: aggregate(errors) } : { rules };
}

/**
 * ConfirmNoEscalation: undefined when the rules the user holds in `namespace` cover `rules`, else
 * the message naming what it lacks, compacted and sorted, one rule a line (`user "jane"
 * (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently
 * held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`), with the errors met resolving
 * the user's own rules after it.
 */
export function confirmNoEscalation(src: RuleSource, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const owned = rulesFor(src, user, namespace);
  const { covered, missing } = covers(owned.rules, rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (owned.error !== undefined) msg += `; resolution errors: [${owned.error}]`;
  return msg;
}

/** The seam the registry's RBAC stores call, answered from the server's authorizer and RBAC's rules. */
export function rbacEscalationChecks(src: RuleSource, authz: Authorizer): EscalationChecks {
  const allowed = (user: UserInfo, verb: string, group: string, resource: string, namespace: string, name: string) =>
    authz.authorize({ user, verb, resourceRequest: true, apiGroup: group, apiVersion: '*', resource, subresource: '', namespace, name, path: '' }).decision === 'Allow';
  return {
    escalationAllowed: (user) => user.groups.includes(systemPrivilegedGroup),
    roleEscalationAuthorized: (user, r) => allowed(user, 'escalate', r.group, r.resource, r.namespace, r.name),
    bindingAuthorized(user, ref: RoleReference, namespace) {
      if (ref.kind !== 'ClusterRole' && ref.kind !== 'Role') return false;
      return allowed(user, 'bind', ref.apiGroup, ref.kind === 'ClusterRole' ? 'clusterroles' : 'roles', namespace, ref.name);
    },
    roleReferenceRules(ref, namespace) {
      const rules = roleReferenceRules(src, ref, namespace);
      return typeof rules === 'string' ? { error: rules } : { rules };
    },
    confirmNoEscalation: (user, namespace, rules) => confirmNoEscalation(src, user, namespace, rules),
  };
}
