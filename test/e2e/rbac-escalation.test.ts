/**
 * RBAC's escalation checks on a real server process with kubectl: a user impersonated with
 * `--as` who may create roles but holds no pod rights cannot create a role granting them
 * (kube-apiserver's message, the missing rules compacted), can once it may `escalate`; bindings
 * need the bound role's rules or `bind` on it; an aggregationRule needs full authority; a binding
 * to a missing role is the lister's 404.
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

/** Until `kubectl auth can-i` answers yes (the authorizer's cache follows the bindings by watch). */
async function canI(args: string[]): Promise<void> {
  const end = Date.now() + 10000;
  for (;;) {
    if ((await kubectl(s, ['auth', 'can-i', ...args])).stdout.trim() === 'yes') return;
    if (Date.now() > end) assert.fail(`never allowed: ${args.join(' ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const held = 'user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:';

before(async () => {
  s = await startServer();
  await k(['create', 'namespace', 'esc']);
  await k(['create', 'role', 'rbac-writer', '-n', 'esc', '--verb=create,get,update,patch', '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io']);
  await k(['create', 'rolebinding', 'jane-rbac-writer', '-n', 'esc', '--role=rbac-writer', '--user=jane']);
  await canI(['create', 'roles', '-n', 'esc', '--as=jane']);
});
after(async () => {
  await s?.stop();
});

test('a role granting what the user does not hold is refused with upstream\'s message; with escalate it is created', async () => {
  const r = await kubectl(s, ['create', 'role', 'pod-reader', '-n', 'esc', '--verb=get,list', '--resource=pods,configmaps', '--as=jane']);
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    `Error from server (Forbidden): roles.rbac.authorization.k8s.io "pod-reader" is forbidden: ${held}\n` +
      '{APIGroups:[""], Resources:["configmaps"], Verbs:["get" "list"]}\n' +
      '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
  );
  // What it holds it may grant.
  await k(['create', 'role', 'role-getter', '-n', 'esc', '--verb=get', '--resource=roles.rbac.authorization.k8s.io', '--as=jane']);
  // An update is checked too.
  const upd = await kubectl(s, ['patch', 'role', 'role-getter', '-n', 'esc', '--as=jane', '--type=json', '-p', '[{"op":"add","path":"/rules/-","value":{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}}]']);
  assert.equal(upd.stderr.trim(), `Error from server (Forbidden): roles.rbac.authorization.k8s.io "role-getter" is forbidden: ${held}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`);

  await k(['create', 'role', 'escalator', '-n', 'esc', '--verb=escalate', '--resource=roles.rbac.authorization.k8s.io']);
  await k(['create', 'rolebinding', 'jane-escalator', '-n', 'esc', '--role=escalator', '--user=jane']);
  await canI(['escalate', 'roles', '-n', 'esc', '--as=jane']);
  await k(['create', 'role', 'pod-reader', '-n', 'esc', '--verb=get,list', '--resource=pods,configmaps', '--as=jane']);
  // escalate on roles in esc is not escalate on cluster roles.
  const cr = await kubectl(s, ['create', 'clusterrole', 'pods-everywhere', '--verb=get', '--resource=pods', '--as=jane']);
  assert.match(cr.stderr, /clusterroles.rbac.authorization.k8s.io is forbidden: User "jane" cannot create resource "clusterroles"/);
});

test('a binding needs the bound role\'s rules or bind on it', async () => {
  const edit = await kubectl(s, ['create', 'rolebinding', 'bob-edit', '-n', 'esc', '--clusterrole=edit', '--user=bob', '--as=jane']);
  assert.notEqual(edit.code, 0);
  assert.ok(edit.stderr.startsWith(`error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "bob-edit" is forbidden: ${held}\n{APIGroups:[""], Resources:[`), edit.stderr);
  // Holding every rule of the role is enough.
  await k(['create', 'rolebinding', 'bob-rbac-writer', '-n', 'esc', '--role=rbac-writer', '--user=bob', '--as=jane']);

  const pr = await kubectl(s, ['create', 'rolebinding', 'bob-pods', '-n', 'esc', '--role=pod-reader', '--user=bob', '--as=jane']);
  assert.match(pr.stderr, /rolebindings.rbac.authorization.k8s.io "bob-pods" is forbidden: user "jane" .* not currently held:\n\{APIGroups:\[""\], Resources:\["configmaps"\], Verbs:\["get" "list"\]\}\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["get" "list"\]\}/);
  await k(['create', 'role', 'binder', '-n', 'esc', '--verb=bind', '--resource=roles.rbac.authorization.k8s.io', '--resource-name=pod-reader']);
  await k(['create', 'rolebinding', 'jane-binder', '-n', 'esc', '--role=binder', '--user=jane']);
  await canI(['bind', 'roles/pod-reader', '-n', 'esc', '--as=jane']);
  await k(['create', 'rolebinding', 'bob-pods', '-n', 'esc', '--role=pod-reader', '--user=bob', '--as=jane']);

  // A role that does not exist: the lister's 404, for whoever may not bind it.
  const missing = await kubectl(s, ['create', 'rolebinding', 'bob-missing', '-n', 'esc', '--clusterrole=no-such-role', '--user=bob', '--as=jane']);
  assert.equal(missing.stderr.trim(), 'error: failed to create rolebinding: clusterrole.rbac.authorization.k8s.io "no-such-role" not found');
  // The admin (system:masters) binds anything.
  await k(['create', 'rolebinding', 'bob-admin-made', '-n', 'esc', '--clusterrole=edit', '--user=bob']);
});

test('a cluster role with an aggregationRule needs full authority', async () => {
  await k(['create', 'clusterrole', 'clusterrole-writer', '--verb=create,get', '--resource=clusterroles.rbac.authorization.k8s.io']);
  await k(['create', 'clusterrolebinding', 'jane-clusterrole-writer', '--clusterrole=clusterrole-writer', '--user=jane']);
  await canI(['create', 'clusterroles', '--as=jane']);
  const agg = JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'gather-all' },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] },
  });
  const r = await kubectl(s, ['create', '-f', '-', '--as=jane'], agg);
  assert.equal(r.stderr.trim(), 'Error from server (Forbidden): error when creating "STDIN": clusterroles.rbac.authorization.k8s.io "gather-all" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  assert.equal((await kubectl(s, ['create', '-f', '-'], agg)).code, 0, 'the admin may');
});
