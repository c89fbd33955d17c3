/**
 * The watch cache end to end, kubectl against real `serve` processes: `kubectl get --chunk-size`
 * pages through continue tokens and `kubectl get -w --output-watch-events` prints every change,
 * with the cache on (the default) exactly as with `--watch-cache=false`; a raw watch from a
 * resourceVersion inside the cache's window replays what followed it, after a restart too (the
 * window reaches back as far as the store's history).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { crontabCRDYAML, kubectl, manifest, startServer, type ServerProcess } from './harness.ts';

let cached: ServerProcess;
let uncached: ServerProcess;

const crontabs = (prefix: string, n: number, replicas = 1) =>
  Array.from({ length: n }, (_, i) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${prefix}${String(i).padStart(2, '0')}
spec:
  cronSpec: "* * * * */5"
  replicas: ${replicas}
`).join('---\n');

async function setUp(s: ServerProcess): Promise<void> {
  assert.equal((await kubectl(s, ['apply', '-f', manifest(s, 'crd.yaml', crontabCRDYAML)])).code, 0);
  assert.equal((await kubectl(s, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s'])).code, 0);
  const r = await kubectl(s, ['apply', '-f', manifest(s, 'many.yaml', crontabs('c', 15))]);
  assert.equal(r.code, 0, r.stderr);
}

before(async () => {
  [cached, uncached] = await Promise.all([startServer(), startServer({ args: ['--watch-cache=false'] })]);
  await Promise.all([setUp(cached), setUp(uncached)]);
});

after(async () => {
  const codes = await Promise.all([cached.stop(), uncached.stop()]);
  assert.deepEqual(codes, [0, 0], cached.output() + uncached.output());
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

test('kubectl get --chunk-size pages through continue tokens; the same list with and without the cache', async () => {
  const expected = Array.from({ length: 15 }, (_, i) => `crontab.stable.example.com/c${String(i).padStart(2, '0')}`).join('\n') + '\n';
  for (const s of [cached, uncached]) {
    const r = await kubectl(s, ['get', 'crontabs', '--chunk-size=4', '-o', 'name', '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, expected);
    // Four pages: the first without a token, three continuing.
    assert.equal(r.stderr.match(/GET \S+crontabs\?limit=4 200/g)?.length, 1, r.stderr);
    assert.equal(r.stderr.match(/GET \S+crontabs\?continue=\S+&limit=4 200/g)?.length, 3, r.stderr);
  }
  // Chunks of a table too (the server's Table rows).
  const t = await kubectl(cached, ['get', 'crontabs', '--chunk-size=6']);
  assert.equal(t.stdout.trim().split('\n').length, 16, t.stdout);
});

test('kubectl get -w --output-watch-events prints the rows, then every change, from the cache', async () => {
  const child = spawn('/usr/bin/kubectl', ['--kubeconfig', cached.kubeconfig, '--cache-dir', join(cached.dir, 'kube-cache'), 'get', 'crontabs', '-w', '--output-watch-events'], {
    env: { ...process.env, HOME: cached.dir },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  try {
    await until(() => out, (o) => /^EVENT\s+NAME\s+SPEC\s+REPLICAS\s+AGE\n/.test(o) && (o.match(/^ADDED\s+c\d\d\s/gm)?.length ?? 0) === 15, 20000);
    assert.equal((await kubectl(cached, ['apply', '-f', manifest(cached, 'w.yaml', crontabs('w', 1))])).code, 0);
    await until(() => out, (o) => /^ADDED\s+w00\s+\* \* \* \* \*\/5\s+1\s/m.test(o), 15000);
    assert.equal((await kubectl(cached, ['apply', '-f', manifest(cached, 'w2.yaml', crontabs('w', 1, 4))])).code, 0);
    await until(() => out, (o) => /^MODIFIED\s+w00\s+\* \* \* \* \*\/5\s+4\s/m.test(o), 15000);
    assert.equal((await kubectl(cached, ['delete', 'crontab', 'w00'])).code, 0);
    await until(() => out, (o) => /^DELETED\s+w00\s/m.test(o), 15000);
  } finally {
    child.kill('SIGTERM');
  }
});

test('a watch from a resourceVersion in the window replays it, across a restart too', async () => {
  const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
  const list = JSON.parse((await kubectl(cached, ['get', '--raw', path])).stdout) as { metadata: { resourceVersion: string } };
  const rv = list.metadata.resourceVersion;
  assert.equal((await kubectl(cached, ['apply', '-f', manifest(cached, 'r.yaml', crontabs('r', 2))])).code, 0);
  const replay = await kubectl(cached, ['get', '--raw', `${path}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`]);
  const events = replay.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
  assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED r00', 'ADDED r01']);
  // Restarted, the server's cache reaches back as far as the store's history: a watch resumed
  // from before the restart gets what it missed (past the window it would be the cacher's 410
  // `too old resource version`, which the registry's tests pin with a small window).
  await cached.stop({ keep: true });
  cached = await startServer({ dir: cached.dir });
  assert.equal((await kubectl(cached, ['apply', '-f', manifest(cached, 'q.yaml', crontabs('q', 1))])).code, 0);
  const resumed = await kubectl(cached, ['get', '--raw', `${path}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`]);
  const again = resumed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
  assert.deepEqual(again.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED r00', 'ADDED r01', 'ADDED q00']);
});
