import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AuthorizationAttributes } from '../authorizer.ts';
import { rbacAuthorizer } from './authorizer.ts';
import { ruleAllows, type Binding, type PolicyRule, type RuleSource, type Subject } from './rules.ts';

interface Req {
  resourceRequest: boolean;
  verb: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  path?: string;
  user?: string;
  groups?: string[];
}

const data = JSON.parse(readFileSync(new URL('../../../testdata/k8s-rbac/rbac.json', import.meta.url), 'utf8')) as {
  ruleMatches: Array<{ name: string; rule: PolicyRule; requests: Array<{ request: Req; allowed: boolean }> }>;
  authorizer: Array<{
    clusterRoles?: Array<{ name: string; rules: PolicyRule[] }>;
    roles?: Array<{ name: string; namespace: string; rules: PolicyRule[] }>;
    roleBindings?: Array<{ namespace: string; roleRef: { kind: string; name: string }; subjects: Subject[] }>;
    clusterRoleBindings?: Array<{ roleRef: { kind: string; name: string }; subjects: Subject[] }>;
    shouldPass: Req[];
    shouldFail: Req[];
  }>;
};

const attrs = (r: Req): AuthorizationAttributes => ({
  user: { username: r.user ?? '', groups: r.groups ?? [] },
  verb: r.verb,
  resourceRequest: r.resourceRequest,
  apiGroup: r.apiGroup ?? '',
  apiVersion: '',
  resource: r.resource ?? '',
  subresource: r.subresource ?? '',
  namespace: r.namespace ?? '',
  name: '',
  path: r.path ?? '',
});

test('RuleAllows matches verbs, groups, resources, subresources and non-resource URLs as upstream (testdata/k8s-rbac/rbac.json)', () => {
  const n = data.ruleMatches.reduce((s, c) => s + c.requests.length, 0);
  assert.ok(n >= 70, `only ${n} requests`);
  const wrong: string[] = [];
  for (const c of data.ruleMatches) {
    for (const { request, allowed } of c.requests) if (ruleAllows(attrs(request), c.rule) !== allowed) wrong.push(`${c.name}: ${JSON.stringify(request)} should be ${allowed}`);
  }
  assert.deepEqual(wrong, []);
});

test('the RBAC authorizer allows what bound rules allow, in the binding\'s namespace only (TestAuthorizer)', () => {
  let n = 0;
  const wrong: string[] = [];
  data.authorizer.forEach((c, i) => {
    const src: RuleSource = {
      clusterRoleBindings: () => (c.clusterRoleBindings ?? []).map((b, j): Binding => ({ name: `crb${j}`, namespace: '', subjects: b.subjects, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...b.roleRef } })),
      roleBindings: (ns) => (c.roleBindings ?? []).filter((b) => b.namespace === ns).map((b, j): Binding => ({ name: `rb${j}`, namespace: b.namespace, subjects: b.subjects, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...b.roleRef } })),
      clusterRoleRules: (name) => c.clusterRoles?.find((r) => r.name === name)?.rules,
      roleRules: (ns, name) => c.roles?.find((r) => r.name === name && r.namespace === ns)?.rules,
    };
    const z = rbacAuthorizer(src);
    for (const r of c.shouldPass) {
      n++;
      if (z.authorize(attrs(r)).decision !== 'Allow') wrong.push(`case ${i}: restricted ${JSON.stringify(r)}`);
    }
    for (const r of c.shouldFail) {
      n++;
      if (z.authorize(attrs(r)).decision === 'Allow') wrong.push(`case ${i}: passed ${JSON.stringify(r)}`);
    }
  });
  assert.ok(n >= 31, `only ${n} checks`);
  assert.deepEqual(wrong, []);
});

test('reasons name the binding that allowed, and the roles a binding names that do not exist', () => {
  const src: RuleSource = {
    clusterRoleBindings: () => [{ name: 'b1', namespace: '', subjects: [{ kind: 'Group', name: 'devs' }], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gone' } }],
    roleBindings: () => [{ name: 'b2', namespace: 'ns', subjects: [{ kind: 'ServiceAccount', name: 'sa' }], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' } }],
    clusterRoleRules: () => undefined,
    roleRules: (ns, name) => (ns === 'ns' && name === 'reader' ? [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] : undefined),
  };
  const z = rbacAuthorizer(src);
  const sa = { username: 'system:serviceaccount:ns:sa', groups: ['devs'] };
  const a = (verb: string): AuthorizationAttributes => ({ user: sa, verb, resourceRequest: true, apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', namespace: 'ns', name: '', path: '' });
  assert.deepEqual(z.authorize(a('get')), { decision: 'Allow', reason: 'RBAC: allowed by RoleBinding "b2/ns" of Role "reader" to ServiceAccount "sa/ns"' });
  assert.deepEqual(z.authorize(a('list')), { decision: 'NoOpinion', reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found' });
});
