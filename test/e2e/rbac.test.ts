/**
 * RBAC on a real server process with kubectl: the bootstrap roles present and aggregated, users
 * impersonated with `--as` / `--as-group` refused with kube-apiserver's 403 texts until a binding
 * grants them, `auth can-i` (and `--list`) answering from RBAC, a SubjectAccessReview's reason,
 * and impersonation itself authorized.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;

async function k(args: string[], stdin?: string): Promise<string> {
  const r = await kubectl(s, args, stdin);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function eventually(what: string, fn: () => Promise<boolean>, ms = 10000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > end) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

test('the bootstrap roles and bindings are there, and admin, edit and view aggregate their parts', async () => {
  const roles = (await k(['get', 'clusterroles', '-o', 'name'])).split('\n');
  for (const r of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer']) assert.ok(roles.includes(`clusterrole.rbac.authorization.k8s.io/${r}`), r);
  const binding = JSON.parse(await k(['get', 'clusterrolebinding', 'cluster-admin', '-o', 'json']));
  assert.deepEqual(binding.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]);
  await eventually('view has the aggregated rules', async () => {
    const view = JSON.parse(await k(['get', 'clusterrole', 'view', '-o', 'json']));
    return (view.rules ?? []).some((r: { resources?: string[] }) => r.resources?.includes('configmaps'));
  });
  // A role labelled to aggregate into view extends it.
  await k(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'crontab-viewer', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
    rules: [{ apiGroups: ['stable.example.com'], resources: ['crontabs'], verbs: ['get', 'list', 'watch'] }],
  }));
  await eventually('view aggregates the new role', async () => {
    const view = JSON.parse(await k(['get', 'clusterrole', 'view', '-o', 'json']));
    return (view.rules ?? []).some((r: { resources?: string[] }) => r.resources?.includes('crontabs'));
  });
});

test('an impersonated user is refused with the cluster\'s 403 until a binding grants it', async () => {
  const denied = await kubectl(s, ['get', 'pods', '-n', 'default', '--as=jane']);
  assert.notEqual(denied.code, 0);
  assert.equal(denied.stderr.trim(), 'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"');
  const named = await kubectl(s, ['get', 'configmap', 'kube-root-ca.crt', '-n', 'default', '--as=jane']);
  assert.match(named.stderr, /configmaps "kube-root-ca.crt" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "default"/);
  const cluster = await kubectl(s, ['get', 'namespaces', '--as=jane']);
  assert.match(cluster.stderr, /namespaces is forbidden: User "jane" cannot list resource "namespaces" in API group "" at the cluster scope/);
  assert.equal((await kubectl(s, ['auth', 'can-i', 'list', 'pods', '-n', 'default', '--as=jane'])).stdout.trim(), 'no');

  await k(['create', 'rolebinding', 'jane-view', '--clusterrole=view', '--user=jane', '-n', 'default']);
  await eventually('the binding takes effect', async () => (await kubectl(s, ['auth', 'can-i', 'list', 'pods', '-n', 'default', '--as=jane'])).stdout.trim() === 'yes');
  assert.equal((await kubectl(s, ['get', 'pods', '-n', 'default', '--as=jane'])).code, 0);
  const write = await kubectl(s, ['create', 'configmap', 'by-jane', '-n', 'default', '--as=jane']);
  assert.match(write.stderr, /configmaps is forbidden: User "jane" cannot create resource "configmaps" in API group "" in the namespace "default"/);
  assert.equal((await kubectl(s, ['auth', 'can-i', 'list', 'pods', '-n', 'kube-system', '--as=jane'])).stdout.trim(), 'no');
  assert.equal((await kubectl(s, ['auth', 'can-i', 'get', 'secrets', '-n', 'default', '--as=jane'])).stdout.trim(), 'no');

  // edit through a group.
  await k(['create', 'rolebinding', 'devs-edit', '--clusterrole=edit', '--group=devs', '-n', 'default']);
  await eventually('the group binding takes effect', async () => (await kubectl(s, ['auth', 'can-i', 'create', 'configmaps', '-n', 'default', '--as=bob', '--as-group=devs'])).stdout.trim() === 'yes');
  await k(['create', 'configmap', 'by-bob', '-n', 'default', '--as=bob', '--as-group=devs']);
  assert.equal((await kubectl(s, ['auth', 'can-i', 'create', 'rolebindings', '-n', 'default', '--as=bob', '--as-group=devs'])).stdout.trim(), 'no');
});

test('auth can-i --list and a SubjectAccessReview answer from RBAC, with the binding in the reason', async () => {
  await k(['create', 'clusterrolebinding', 'ann-view', '--clusterrole=view', '--user=ann']);
  await eventually('ann can list deployments', async () => (await kubectl(s, ['auth', 'can-i', 'list', 'deployments.apps', '--as=ann'])).stdout.trim() === 'yes');
  const list = await k(['auth', 'can-i', '--list', '-n', 'default', '--as=ann']);
  assert.match(list, /configmaps\s+\[\]\s+\[\]\s+\[get list watch\]/);
  assert.match(list, /selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
  const review = JSON.parse(await k(['create', '-o', 'json', '-f', '-'], JSON.stringify({
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: { user: 'ann', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } },
  })));
  assert.deepEqual(review.status, { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "ann-view" of ClusterRole "view" to User "ann"' });
  const no = JSON.parse(await k(['create', '-o', 'json', '-f', '-'], JSON.stringify({
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: { user: 'ann', resourceAttributes: { verb: 'delete', resource: 'pods', namespace: 'default' } },
  })));
  assert.deepEqual(no.status, { allowed: false });
  // LocalSubjectAccessReview: the namespace's own question.
  const local = JSON.parse(await k(['create', '-n', 'default', '-o', 'json', '-f', '-'], JSON.stringify({
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'LocalSubjectAccessReview',
    spec: { user: 'jane', resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } },
  })));
  assert.deepEqual(local.status, { allowed: true, reason: 'RBAC: allowed by RoleBinding "jane-view/default" of ClusterRole "view" to User "jane"' });
  assert.equal(local.metadata.namespace, 'default');
  const elsewhere = await kubectl(s, ['create', '-n', 'default', '-f', '-'], JSON.stringify({
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'LocalSubjectAccessReview',
    spec: { user: 'jane', resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'kube-system' } },
  }));
  assert.equal(elsewhere.stderr.trim(), 'The LocalSubjectAccessReview "" is invalid: spec.resourceAttributes.namespace: Invalid value: "kube-system": must match metadata.namespace');
  const bad = await kubectl(s, ['create', '-f', '-'], JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } }));
  assert.equal(bad.stderr.trim(), 'The SubjectAccessReview "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
});

test('a binding to a missing role is named in the refusal; impersonation headers as kube-apiserver reads them', async () => {
  await k(['create', 'rolebinding', 'ghost', '--clusterrole=no-such-role', '--user=carl', '-n', 'default']);
  await eventually('the binding is seen', async () => {
    const r = await kubectl(s, ['get', 'pods', '-n', 'default', '--as=carl']);
    return /RBAC: clusterrole.rbac.authorization.k8s.io "no-such-role" not found/.test(r.stderr);
  });
  const r = await kubectl(s, ['get', 'pods', '-n', 'default', '--as=carl']);
  assert.equal(r.stderr.trim(), 'Error from server (Forbidden): pods is forbidden: User "carl" cannot list resource "pods" in API group "" in the namespace "default": RBAC: clusterrole.rbac.authorization.k8s.io "no-such-role" not found');
  // The admin (system:masters) may impersonate; jane then reads what view grants her.
  const asJane = await s.fetch(`${s.url}/api/v1/namespaces/default/pods`, { headers: { 'Impersonate-User': 'jane' } });
  assert.equal(asJane.status, 200);
  // Whether jane herself may impersonate is the impersonate verb on users, which view does not grant.
  const sar = await s.fetch(`${s.url}/apis/authorization.k8s.io/v1/subjectaccessreviews`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'jane', resourceAttributes: { verb: 'impersonate', resource: 'users', name: 'bob' } } }),
  });
  assert.equal(((await sar.json()) as { status: { allowed: boolean } }).status.allowed, false);
  const groupsOnly = await s.fetch(`${s.url}/api/v1/namespaces/default/pods`, { headers: { 'Impersonate-Group': 'devs' } });
  assert.equal(groupsOnly.status, 400);
  assert.equal(((await groupsOnly.json()) as { message: string }).message, 'requested [{Group  devs  }] without impersonating a user');
  // A non-resource path: jane (authenticated) may read /version but not /metrics.
  const version = await s.fetch(`${s.url}/version`, { headers: { 'Impersonate-User': 'jane' } });
  assert.equal(version.status, 200);
  const logs = await s.fetch(`${s.url}/logs`, { headers: { 'Impersonate-User': 'jane' } });
  assert.equal(logs.status, 403);
  assert.equal(((await logs.json()) as { message: string }).message, 'forbidden: User "jane" cannot get path "/logs"');
});

test('a ValidatingAdmissionPolicy\'s authorizer asks RBAC: the admin passes, an impersonated user is checked', async () => {
  await k(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'only-secret-readers' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
      validations: [{ expression: "authorizer.group('').resource('secrets').namespace(object.metadata.namespace).check('get').allowed()", message: 'only those who may read secrets may create configmaps' }],
    },
  }));
  await k(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'only-secret-readers' },
    spec: { policyName: 'only-secret-readers', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'default' } } } },
  }));
  // A role that may create configmaps but not read secrets, for eve.
  await k(['create', 'role', 'cm-only', '--verb=create', '--resource=configmaps', '-n', 'default']);
  await k(['create', 'rolebinding', 'eve-cm', '--role=cm-only', '--user=eve', '-n', 'default']);
  await eventually('eve is refused by the policy', async () => {
    const r = await kubectl(s, ['create', 'configmap', 'by-eve', '-n', 'default', '--as=eve']);
    return /ValidatingAdmissionPolicy 'only-secret-readers' with binding 'only-secret-readers' denied request: only those who may read secrets may create configmaps/.test(r.stderr);
  });
  // The admin (system:masters) and bob (edit through devs, which reads secrets) pass.
  await k(['create', 'configmap', 'by-admin', '-n', 'default']);
  await k(['create', 'configmap', 'by-bob-2', '-n', 'default', '--as=bob', '--as-group=devs']);
});
