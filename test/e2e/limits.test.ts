/**
 * The in-flight limit on a real serve process: with `--max-mutating-requests-inflight 1` and one
 * write held in flight (its body never finished), kubectl acting as another user gets the 429
 * (client-go retries it as Retry-After says, then gives up), the admin (system:masters) is still
 * served, and once the held write ends the user's writes are served again.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { kubectl, startServer, type ServerProcess } from './harness.ts';

let s: ServerProcess;

before(async () => {
  s = await startServer({ args: ['--max-mutating-requests-inflight', '1', '--request-timeout', '2m'] });
  const r = await kubectl(s, ['create', 'rolebinding', 'jane-edit', '-n', 'default', '--clusterrole=edit', '--user=jane']);
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await s?.stop();
});

/** A create whose body never completes. */
function hold(): { req: ClientRequest; done: Promise<unknown> } {
  // The harness's server speaks TLS (its agent presents the kubeconfig's admin certificate).
  const req = (s.agent ? httpsRequest : request)(`${s.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', agent: s.agent, headers: { 'Content-Type': 'application/json', 'Content-Length': '1000' } });
  const done = new Promise((resolve) => {
    req.on('error', resolve);
    req.on('response', (res) => res.resume().on('end', resolve));
  });
  req.write('{');
  return { req, done };
}

test('past --max-mutating-requests-inflight others get 429 with Retry-After; system:masters does not', async () => {
  // The binding reaches the authorizer's cache.
  for (let i = 0; (await kubectl(s, ['auth', 'can-i', 'create', 'configmaps', '-n', 'default', '--as=jane'])).stdout.trim() !== 'yes'; i++) {
    assert.ok(i < 100, 'the binding never took effect');
    await new Promise((r) => setTimeout(r, 100));
  }
  const held = hold();
  await new Promise((r) => setTimeout(r, 300));
  const raw = await s.fetch(`${s.url}/api/v1/namespaces/default/configmaps`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Impersonate-User': 'jane' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw' } }),
  });
  assert.equal(raw.status, 429);
  assert.equal(raw.headers.get('retry-after'), '1');
  assert.equal(await raw.text(), 'Too many requests, please try again later.\n');

  const started = Date.now();
  const r = await kubectl(s, ['create', 'configmap', 'by-jane', '-n', 'default', '--as=jane']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /TooManyRequests|too many requests/i);
  assert.ok(Date.now() - started >= 5000, 'kubectl waited as Retry-After asked before giving up');
  const admin = await kubectl(s, ['create', 'configmap', 'by-admin', '-n', 'default']);
  assert.equal(admin.code, 0, admin.stderr);

  held.req.destroy();
  await held.done;
  const after = await kubectl(s, ['create', 'configmap', 'by-jane', '-n', 'default', '--as=jane']);
  assert.equal(after.code, 0, after.stderr);
});
