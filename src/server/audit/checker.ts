/**
 * Which audit level a request gets (k8s.io/apiserver `pkg/audit/policy/checker.go`): the first
 * policy rule matching the request's user, groups, verb, resource (group, `resource/subresource`,
 * `*`, `*\/subresource`, `resource/*`, names), namespace or non-resource path decides the level, its
 * omitted stages (the rule's and the policy's) and whether managedFields are left out; a request
 * no rule matches is not audited.
 */
import type { Level, Policy, PolicyRule, Stage } from './policy.ts';

/** What a rule is matched against (authorizer.Attributes). */
export interface AuditAttributes {
  user?: { username: string; groups: string[] };
  verb: string;
  resourceRequest: boolean;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  path: string;
}

/** auditinternal.RequestAuditConfig. */
export interface RequestAuditConfig {
  level: Level;
  omitStages: Stage[];
  omitManagedFields: boolean;
}

/** unionStages: each stage once. */
export function unionStages(...lists: Array<readonly Stage[] | undefined>): Stage[] {
  return [...new Set(lists.flatMap((l) => l ?? []))];
}

const has = (xs: readonly string[] | undefined, x: string) => (xs ?? []).includes(x);

/** pathMatches: `*`, the path, or a prefix ending in `*`. */
function pathMatches(path: string, spec: string): boolean {
  return spec === '*' || spec === path || (spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, '')));
}

function matchesResource(r: PolicyRule, a: AuditAttributes): boolean {
  if (!a.resourceRequest) return false;
  if ((r.namespaces ?? []).length > 0 && !has(r.namespaces, a.namespace ?? '')) return false;
  if ((r.resources ?? []).length === 0) return true;
  const resource = a.resource ?? '';
  const sub = a.subresource ?? '';
  const combined = sub !== '' ? `${resource}/${sub}` : resource;
  const name = a.name ?? '';
  for (const gr of r.resources ?? []) {
    if ((gr.group ?? '') !== (a.apiGroup ?? '')) continue;
    if ((gr.resources ?? []).length === 0) return true;
    for (const res of gr.resources ?? []) {
      if ((gr.resourceNames ?? []).length > 0 && !has(gr.resourceNames, name)) continue;
      if (res === combined || res === '*') return true;
      // strings.TrimLeft(res, "*/") trims every leading `*` and `/`, as upstream does.
      if (sub !== '' && res.startsWith('*/') && sub === res.replace(/^[*/]+/, '')) return true;
      if (res.endsWith('/*') && resource === res.replace(/[/*]+$/, '')) return true;
    }
  }
  return false;
}

/** ruleMatches. */
export function ruleMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if ((r.users ?? []).length > 0 && (a.user === undefined || !has(r.users, a.user.username))) return false;
  if ((r.userGroups ?? []).length > 0 && (a.user === undefined || !a.user.groups.some((g) => has(r.userGroups, g)))) return false;
  if ((r.verbs ?? []).length > 0 && !has(r.verbs, a.verb)) return false;
  if ((r.namespaces ?? []).length > 0 || (r.resources ?? []).length > 0) return matchesResource(r, a);
  if ((r.nonResourceURLs ?? []).length > 0) return !a.resourceRequest && (r.nonResourceURLs ?? []).some((s) => pathMatches(a.path, s));
  return true;
}

/** NewPolicyRuleEvaluator(policy).EvaluatePolicyRule: the config of the first matching rule, else level None. */
export function policyRuleEvaluator(policy: Policy): (a: AuditAttributes) => RequestAuditConfig {
  const rules = policy.rules.map((r) => ({ rule: r, omitStages: unionStages(policy.omitStages, r.omitStages) }));
  const omitManagedFields = policy.omitManagedFields === true;
  return (a) => {
    for (const { rule, omitStages } of rules) {
      if (ruleMatches(rule, a)) return { level: rule.level, omitStages, omitManagedFields: rule.omitManagedFields ?? omitManagedFields };
    }
    return { level: 'None', omitStages: unionStages(policy.omitStages), omitManagedFields };
  };
}

const order: Record<Level, number> = { None: 0, Metadata: 1, Request: 2, RequestResponse: 3 };

/** Level.Less / GreaterOrEqual. */
export function levelAtLeast(l: Level, min: Level): boolean {
  return order[l] >= order[min];
}
