/**
 * `kubectl get -w` against a real server: the Table watch prints the current rows, then a row for
 * each change, as kubectl prints them from a real cluster.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { crontabCRDYAML, kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;

const ct = (name: string, replicas: number) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "* * * * */5"
  replicas: ${replicas}
`;

before(async () => {
  s = await startServer();
  assert.equal((await kubectl(s, ['apply', '-f', manifest(s, 'crd.yaml', crontabCRDYAML)])).code, 0);
  assert.equal((await kubectl(s, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s'])).code, 0);
  assert.equal((await kubectl(s, ['apply', '-f', manifest(s, 'a.yaml', ct('first', 1))])).code, 0);
});

after(async () => {
  const code = await s.stop();
  assert.equal(code, 0, s.output());
});

/** Resolves once `out()` satisfies `pred`, or rejects after `ms`. */
function until(out: () => string, pred: (s: string) => boolean, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const tick = () => {
      if (pred(out())) resolve();
      else if (Date.now() - start > ms) reject(new Error(`timed out; output so far:\n${out()}`));
      else setTimeout(tick, 50);
    };
    tick();
  });
}

test('get -w prints the current rows, then one row per change', async () => {
  const child = spawn('/usr/bin/kubectl', ['--kubeconfig', s.kubeconfig, '--cache-dir', join(s.dir, 'kube-cache'), 'get', 'crontabs', '-w'], {
    env: { ...process.env, HOME: s.dir },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  try {
    await until(() => out, (o) => /^NAME\s+SPEC\s+REPLICAS\s+AGE\n/.test(o) && /^first\s+\* \* \* \* \*\/5\s+1\s+\d+s$/m.test(o), 15000);
    assert.equal((await kubectl(s, ['apply', '-f', manifest(s, 'b.yaml', ct('second', 2))])).stdout, 'crontab.stable.example.com/second created\n');
    await until(() => out, (o) => /^second\s+\* \* \* \* \*\/5\s+2\s+\d+s$/m.test(o), 15000);
    assert.equal((await kubectl(s, ['apply', '-f', manifest(s, 'a2.yaml', ct('first', 3))])).stdout, 'crontab.stable.example.com/first configured\n');
    await until(() => out, (o) => /^first\s+\* \* \* \* \*\/5\s+3\s+\d+s$/m.test(o), 15000);
    // The header is printed once, not per event.
    assert.equal(out.match(/^NAME/gm)?.length, 1, out);
  } finally {
    child.kill('SIGTERM');
  }
});
