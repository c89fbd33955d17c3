/**
 * Pod subresources with kubectl against a real server process: discovery lists them as
 * kube-apiserver's /api/v1 does; `kubectl logs` and `exec` of a pod without a node answer as a
 * cluster does; a Binding sets the node (and a second one is refused); with a node but no
 * kubelet, logs fail as a refused kubelet connection does; `kubectl drain` evicts through
 * pods/eviction, held back by a PodDisruptionBudget with no disruptions allowed and let through
 * when its status allows one.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

async function run(args: string[], stdin?: string): Promise<{ code: number; out: string; err: string }> {
  const r = await kubectl(s, args, stdin);
  return { code: r.code, out: r.stdout, err: r.stderr.trim() };
}

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await run(args, stdin);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.err}`);
  return r.out;
}

const binding = (node: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { name: node } });

test('discovery lists the pod, node and service subresources as /api/v1 does', async () => {
  const list = JSON.parse(await ok(['get', '--raw', '/api/v1'])) as { resources: Array<{ name: string; kind: string; verbs: string[]; group?: string; version?: string }> };
  const sub = (n: string) => list.resources.find((r) => r.name === n);
  assert.deepEqual(
    list.resources.filter((r) => r.name.startsWith('pods/')).map((r) => r.name),
    ['pods/attach', 'pods/binding', 'pods/eviction', 'pods/exec', 'pods/log', 'pods/portforward', 'pods/proxy', 'pods/status'],
  );
  assert.deepEqual(sub('pods/eviction'), { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
  assert.deepEqual(sub('pods/log')?.verbs, ['get']);
  assert.deepEqual(sub('pods/exec')?.verbs, ['create', 'get']);
  assert.deepEqual(sub('nodes/proxy')?.kind, 'NodeProxyOptions');
  assert.deepEqual(sub('services/proxy')?.verbs, ['create', 'delete', 'get', 'patch', 'update']);
});

test('a pod without a node: no logs, no exec; a Binding gives it one, once', async () => {
  await ok(['run', 'p', '--image=nginx', '--labels=app=web']);
  const logs = await run(['logs', 'p']);
  assert.deepEqual([logs.code, logs.out], [0, '']);
  const exec = await run(['exec', 'p', '--', 'ls']);
  assert.notEqual(exec.code, 0);
  assert.equal(exec.err, 'Error from server (BadRequest): pod p does not have a host assigned');
  // The server's own check (kubectl checks the container name before asking).
  assert.equal(
    (await run(['get', '--raw', '/api/v1/namespaces/default/pods/p/log?container=sidecar'])).err,
    'Error from server (BadRequest): container sidecar is not valid for pod p',
  );
  assert.equal(
    (await run(['get', '--raw', '/api/v1/namespaces/default/pods/p/log?tailLines=-2'])).err,
    'The PodLogOptions "p" is invalid: tailLines: Invalid value: -2: must be greater than or equal to 0',
  );

  assert.equal(await ok(['create', '--raw', '/api/v1/namespaces/default/pods/p/binding', '-f', '-'], binding('node1')), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}\n');
  assert.equal(await ok(['get', 'pod', 'p', '-o', 'jsonpath={.spec.nodeName} {.status.conditions[0].type}={.status.conditions[0].status}']), 'node1 PodScheduled=True');
  const again = await run(['create', '--raw', '/api/v1/namespaces/default/pods/p/binding', '-f', '-'], binding('node2'));
  assert.equal(again.err, 'Error from server (Conflict): Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node1"');
});

test('a node without a kubelet: logs and exec fail as a refused connection does', async () => {
  assert.equal((await run(['logs', 'p'])).err, 'Error from server (NotFound): nodes "node1" not found');
  await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node1' } }));
  assert.equal((await run(['logs', 'p'])).err, 'Error from server: no preferred addresses found; known addresses: []');
  await ok(['patch', 'node', 'node1', '--subresource=status', '--type=merge', '-p', '{"status":{"addresses":[{"type":"InternalIP","address":"10.1.2.3"}]}}']);
  assert.equal(
    (await run(['logs', 'p'])).err,
    'Error from server: Get "https://10.1.2.3:10250/containerLogs/default/p/p": dial tcp 10.1.2.3:10250: connect: connection refused',
  );
  assert.equal((await run(['exec', 'p', '--', 'ls'])).err.split('\n').pop(), 'Error from server: error dialing backend: dial tcp 10.1.2.3:10250: connect: connection refused');
});

test('kubectl drain evicts through pods/eviction, as the PodDisruptionBudget allows', async () => {
  await ok(['patch', 'pod', 'p', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}']);
  await ok(['create', 'pdb', 'web', '--selector=app=web', '--min-available=1']);
  await ok(['patch', 'pdb', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"observedGeneration":1,"disruptionsAllowed":0,"currentHealthy":1,"desiredHealthy":1,"expectedPods":1}}']);
  const held = await run(['drain', 'node1', '--force', '--timeout=3s']);
  assert.notEqual(held.code, 0);
  assert.match(held.err, /error when evicting pods\/"p" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./);
  assert.match(await ok(['get', 'pods']), /^p\s/m);
  await ok(['patch', 'pdb', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"disruptionsAllowed":1}}']);
  const drained = await run(['drain', 'node1', '--force', '--timeout=20s']);
  assert.equal(drained.code, 0, drained.err);
  assert.match(drained.out, /pod\/p evicted/);
  assert.equal((await run(['get', 'pod', 'p'])).err, 'Error from server (NotFound): pods "p" not found');
  const pdb = JSON.parse(await ok(['get', 'pdb', 'web', '-o', 'json'])) as { status: { disruptionsAllowed: number; disruptedPods: Record<string, string> } };
  assert.equal(pdb.status.disruptionsAllowed, 0);
  assert.ok(pdb.status.disruptedPods.p);
});
