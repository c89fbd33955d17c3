/**
 * Rule coverage and compaction run against upstream's tables (testdata/k8s-rbac), and the
 * escalation message as ConfirmNoEscalation words it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compactRules, compactString, covers, nonResourceURLCovers, simpleResourceKey } from './covers.ts';
import { confirmNoEscalation, rbacEscalationChecks } from './escalation.ts';
import { privilegedGroups, unionAuthorizer } from '../authorizer.ts';
import { rbacAuthorizer } from './authorizer.ts';
import type { Binding, PolicyRule, RuleSource } from './rules.ts';

const load = (f: string) => JSON.parse(readFileSync(new URL(`../../../testdata/k8s-rbac/${f}`, import.meta.url), 'utf8'));
const comparator = load('policy_comparator.json') as {
  covers: Array<{ name: string; owner: PolicyRule[]; servant: PolicyRule[]; covered: boolean; uncovered: PolicyRule[] }>;
  nonResourceURLCovers: Array<{ owner: string; requested: string; want: boolean }>;
};
const compact = load('policy_compact.json') as {
  compact: Array<{ name: string; rules: PolicyRule[]; expected: PolicyRule[] }>;
  isSimple: Array<{ name: string; rule: PolicyRule; simple: boolean }>;
};

/** rulesMatch: the same rules in any order. */
const sorted = (rs: PolicyRule[]) => rs.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();

test('Covers: policy_comparator_test.go', () => {
  assert.ok(comparator.covers.length >= 23);
  for (const c of comparator.covers) {
    const got = covers(c.owner, c.servant);
    assert.equal(got.covered, c.covered, c.name);
    assert.deepEqual(sorted(got.missing), sorted(c.uncovered), c.name);
  }
});

test('nonResourceURLCovers: TestNonResourceURLCovers', () => {
  assert.ok(comparator.nonResourceURLCovers.length >= 14);
  for (const c of comparator.nonResourceURLCovers) assert.equal(nonResourceURLCovers(c.owner, c.requested), c.want, `${c.owner} ${c.requested}`);
});

test('CompactRules: policy_compact_test.go (compacted rules cover and are covered by the input)', () => {
  assert.ok(compact.compact.length >= 6);
  for (const c of compact.compact) {
    const before = JSON.stringify(c.rules);
    const got = compactRules(c.rules);
    assert.equal(JSON.stringify(c.rules), before, `${c.name}: input unchanged`);
    assert.ok(covers(got, c.rules).covered, c.name);
    assert.ok(covers(c.rules, got).covered, c.name);
    assert.deepEqual(sorted(got), sorted(c.expected), c.name);
  }
  assert.ok(compact.isSimple.length >= 12);
  for (const c of compact.isSimple) assert.equal(simpleResourceKey(c.rule) !== undefined, c.simple, c.name);
});

test('CompactString prints only the fields a rule has, Go-quoted', () => {
  assert.equal(compactString({ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }), '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}');
  assert.equal(compactString({ nonResourceURLs: ['/healthz'], verbs: ['get'] }), '{NonResourceURLs:["/healthz"], Verbs:["get"]}');
  assert.equal(compactString({ apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['a\tb'], verbs: ['*'] }), '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["a\\tb"], Verbs:["*"]}');
});

function source(opts: { clusterRoles?: Record<string, PolicyRule[]>; roles?: Record<string, PolicyRule[]>; bindings?: Binding[] }): RuleSource {
  const bindings = opts.bindings ?? [];
  return {
    clusterRoleBindings: () => bindings.filter((b) => b.namespace === ''),
    roleBindings: (ns) => bindings.filter((b) => b.namespace === ns),
    clusterRoleRules: (n) => opts.clusterRoles?.[n],
    roleRules: (ns, n) => opts.roles?.[`${ns}/${n}`],
  };
}

const jane = { username: 'jane', groups: ['system:authenticated'] };
const bind = (name: string, namespace: string, kind: string, role: string): Binding => ({
  name,
  namespace,
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: role },
});

test('ConfirmNoEscalation: the missing rules, compacted, sorted, one a line', () => {
  const src = source({ roles: { 'dev/r': [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }] }, bindings: [bind('b', 'dev', 'Role', 'r')] });
  assert.equal(confirmNoEscalation(src, jane, 'dev', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]), undefined);
  assert.equal(
    confirmNoEscalation(src, jane, 'dev', [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'configmaps'] },
      { verbs: ['get'], nonResourceURLs: ['/metrics'] },
    ]),
    'user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["configmaps"], Verbs:["list"]}\n' +
      '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}\n' +
      '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
  );
  // The rules held elsewhere do not count; what could not be resolved is said after.
  const broken = source({ bindings: [bind('b', '', 'ClusterRole', 'gone')] });
  assert.equal(
    confirmNoEscalation(broken, jane, 'other', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
    'user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "gone" not found]',
  );
});

test('the checks: system:masters, escalate and bind as the authorizer allows them', () => {
  const src = source({
    clusterRoles: {
      escalator: [{ verbs: ['escalate'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] }],
      binder: [{ verbs: ['bind'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['view'] }],
    },
    bindings: [bind('e', '', 'ClusterRole', 'escalator'), bind('b', 'dev', 'ClusterRole', 'binder')],
  });
  const c = rbacEscalationChecks(src, unionAuthorizer(privilegedGroups, rbacAuthorizer(src)));
  assert.equal(c.escalationAllowed({ username: 'x', groups: ['system:masters'] }), true);
  assert.equal(c.escalationAllowed(jane), false);
  assert.equal(c.roleEscalationAuthorized(jane, { group: 'rbac.authorization.k8s.io', resource: 'clusterroles', namespace: '', name: '' }), true);
  assert.equal(c.roleEscalationAuthorized(jane, { group: 'rbac.authorization.k8s.io', resource: 'roles', namespace: 'dev', name: '' }), false);
  const view = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' };
  assert.equal(c.bindingAuthorized(jane, view, 'dev'), true);
  assert.equal(c.bindingAuthorized(jane, view, 'prod'), false);
  assert.equal(c.bindingAuthorized(jane, { ...view, name: 'edit' }, 'dev'), false);
  assert.deepEqual(c.roleReferenceRules({ ...view, name: 'nope' }, ''), { error: 'clusterrole.rbac.authorization.k8s.io "nope" not found' });
});
