/**
 * The ReplicaSet kubectl's Deployments get, against a real server process: for each
 * `kubectl create deployment ...` of testdata/k8s-native/pod-template-hash/, the server stores
 * the vector's template and the deployment controller names the ReplicaSet `<name>-<hash>` with
 * the hash kube-controller-manager's Go code gave that template (and labels it so).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { kubectlOK, startServer, type ServerProcess } from './harness.ts';

interface Vector {
  name: string;
  template: Record<string, unknown>;
  collisionCount: number | null;
  hash: string;
}

const file = new URL('../../testdata/k8s-native/pod-template-hash/vectors.json', import.meta.url);
const commands = (JSON.parse(readFileSync(file, 'utf8')) as { cases: Vector[] }).cases.filter((c) => c.name.startsWith('kubectl create deployment '));

let s: ServerProcess;
before(async () => {
  s = await startServer();
});
after(async () => {
  await s.stop();
});

const ok = (args: string[]): Promise<string> => kubectlOK(s, args);

test('kubectl create deployment: at least 5 commands with Go-computed hashes', () => {
  assert.ok(commands.length >= 5, `${commands.length} commands`);
  assert.equal(commands[0]!.name, 'kubectl create deployment web --image=nginx');
  assert.equal(commands[0]!.hash, '68d995574f');
});

commands.forEach((c, i) => {
  test(`${c.name}: ReplicaSet named with kube-controller-manager's hash`, async () => {
    const ns = `hash-${i}`;
    await ok(['create', 'namespace', ns]);
    const args = c.name.split(' ').slice(1);
    const name = args[2]!;
    await ok(['-n', ns, ...args]);
    const stored = JSON.parse(await ok(['-n', ns, 'get', 'deployment', name, '-o', 'json'])) as { spec: { template: unknown } };
    assert.deepEqual(stored.spec.template, c.template, 'the template the server stored');
    let rsNames: string[] = [];
    for (let tries = 0; tries < 100 && rsNames.length === 0; tries++) {
      rsNames = (await ok(['-n', ns, 'get', 'rs', '-o', 'jsonpath={.items[*].metadata.name}'])).split(' ').filter(Boolean);
      if (rsNames.length === 0) await new Promise((res) => setTimeout(res, 100));
    }
    assert.deepEqual(rsNames, [`${name}-${c.hash}`]);
    const label = await ok(['-n', ns, 'get', 'rs', rsNames[0]!, '-o', 'jsonpath={.metadata.labels.pod-template-hash} {.spec.template.metadata.labels.pod-template-hash}']);
    assert.equal(label, `${c.hash} ${c.hash}`);
  });
});
