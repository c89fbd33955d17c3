/**
 * RBAC's rule matching and rule resolution (`plugin/pkg/auth/authorizer/rbac/rbac.go` RuleAllows,
 * `pkg/apis/rbac/v1/evaluation_helpers.go`, `pkg/registry/rbac/validation/rule.go`
 * DefaultRuleResolver): which bindings apply to a user, the rules of the roles they name, and
 * whether one rule allows a request — with the describers that name the binding in a reason.
 */
import type { UserInfo } from '../../registry/index.ts';
import type { AuthorizationAttributes } from '../authorizer.ts';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface Binding {
  name: string;
  /** '' for ClusterRoleBindings. */
  namespace: string;
  subjects: Subject[];
  roleRef: RoleRef;
}

const has = (xs: readonly string[] | undefined, x: string) => (xs ?? []).includes(x);

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

/** A rule's resource `*`, the exact `resource[/subresource]`, or `*\/subresource`. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    if (subresource === '') continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** `*`, the exact path, or a prefix ending in `*`. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** RuleAllows. */
export function ruleAllows(a: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (!a.resourceRequest) return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return verbMatches(rule, a.verb) && apiGroupMatches(rule, a.apiGroup) && resourceMatches(rule, combined, a.subresource) && resourceNameMatches(rule, a.name);
}

/** serviceaccount.MatchesUsername. */
function matchesServiceAccount(namespace: string, name: string, username: string): boolean {
  return username === `system:serviceaccount:${namespace}:${name}`;
}

/** appliesToUser: a binding's subject names the user, one of its groups, or its service account. */
export function appliesToUser(user: UserInfo, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.username === s.name;
    case 'Group':
      return has(user.groups, s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || namespace;
      return ns !== '' && matchesServiceAccount(ns, s.name, user.username);
    }
    default:
      return false;
  }
}

/** describeSubject: `User "jane"`, `ServiceAccount "sa/ns"`. */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

/** The clusterRoleBindingDescriber / roleBindingDescriber texts. */
export function describeBinding(b: Binding, s: Subject): string {
  if (b.namespace === '') return `ClusterRoleBinding ${JSON.stringify(b.name)} of ${b.roleRef.kind} ${JSON.stringify(b.roleRef.name)} to ${describeSubject(s, '')}`;
  return `RoleBinding ${JSON.stringify(`${b.name}/${b.namespace}`)} of ${b.roleRef.kind} ${JSON.stringify(b.roleRef.name)} to ${describeSubject(s, b.namespace)}`;
}

/** What the resolver reads: the bindings and roles, as the informers' listers hold them. */
export interface RuleSource {
  clusterRoleBindings(): Iterable<Binding>;
  roleBindings(namespace: string): Iterable<Binding>;
  /** The rules of a role, or undefined when it does not exist. */
  clusterRoleRules(name: string): PolicyRule[] | undefined;
  roleRules(namespace: string, name: string): PolicyRule[] | undefined;
}

/** GetRoleReferenceRules: the rules, or the lister's error text. */
export function roleReferenceRules(src: RuleSource, ref: RoleRef, namespace: string): PolicyRule[] | string {
  if (ref.kind === 'Role') return src.roleRules(namespace, ref.name) ?? `role.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found`;
  if (ref.kind === 'ClusterRole') return src.clusterRoleRules(ref.name) ?? `clusterrole.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found`;
  return `unsupported role reference kind: ${JSON.stringify(ref.kind)}`;
}

/**
 * VisitRulesFor: every rule that applies to `user` in `namespace` (cluster role bindings first,
 * then the namespace's role bindings), with the binding that grants it; errors (a binding naming a
 * missing role) are visited as text. The visitor returns false to stop.
 */
export function visitRulesFor(
  src: RuleSource,
  user: UserInfo,
  namespace: string,
  visit: (source: string | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean,
): void {
  const walk = (bindings: Iterable<Binding>, ns: string): boolean => {
    for (const b of bindings) {
      const s = b.subjects.find((x) => appliesToUser(user, x, ns));
      if (!s) continue;
      const rules = roleReferenceRules(src, b.roleRef, ns);
      if (typeof rules === 'string') {
        if (!visit(undefined, undefined, rules)) return false;
        continue;
      }
      const source = describeBinding(b, s);
      for (const r of rules) if (!visit(source, r, undefined)) return false;
    }
    return true;
  };
  if (!walk(src.clusterRoleBindings(), '')) return;
  if (namespace !== '') walk(src.roleBindings(namespace), namespace);
}
