/**
 * The authentication filter of an in-process server (plain HTTP, so that no certificates are
 * needed: the filter does not care how the token arrived): the 401 Status, the token user
 * authorized by RBAC, anonymous requests, and `requestUser` naming whom a request acted as.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokenFileAuthenticator } from '../auth/index.ts';
import type { UserInfo } from '../registry/index.ts';
import { openBackend } from './backend.ts';
import { ApiServer } from './server.ts';
import { call } from './testing/fixtures.ts';

let server: ApiServer;
let base: string;
let close: () => Promise<void>;
const seen: (UserInfo | undefined)[] = [];

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-authn-'));
  const backend = await openBackend(dir);
  const tokens = tokenFileAuthenticator(
    new Map<string, UserInfo>([
      ['admin-token', { username: 'root', groups: ['system:masters'] }],
      ['jane-token', { username: 'jane', groups: [] }],
    ]),
  );
  server = new ApiServer({ ...backend.deps, authentication: { tokenAuthenticators: [tokens] } });
  const handle = server.handle.bind(server);
  server.handle = async (req: IncomingMessage, res) => {
    await handle(req, res);
    seen.push(server.requestUser(req));
  };
  const { port } = await server.listen('127.0.0.1', 0);
  base = `http://127.0.0.1:${port}`;
  close = async () => {
    await server.close();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  };
});

after(async () => {
  await close?.();
});

test('an unknown token is the 401 Status kube-apiserver writes', async () => {
  const r = await call(base, 'GET', '/version', undefined, { Authorization: 'Bearer wrong' });
  assert.equal(r.status, 401);
  assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  assert.equal(seen.at(-1), undefined);
});

test('a token user is authorized by RBAC, and is whom the request acted as', async () => {
  const r = await call(base, 'GET', '/api/v1/namespaces/default/secrets', undefined, { Authorization: 'Bearer jane-token' });
  assert.equal(r.status, 403);
  assert.equal(r.json.message, 'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default"');
  assert.deepEqual(seen.at(-1), { username: 'jane', groups: ['system:authenticated'] });
  const admin = await call(base, 'GET', '/api/v1/namespaces/default/secrets', undefined, { Authorization: 'Bearer admin-token', 'Impersonate-User': 'jane' });
  assert.equal(admin.status, 403);
  assert.deepEqual(seen.at(-1), { username: 'jane', groups: ['system:authenticated'] });
  assert.equal((await call(base, 'GET', '/api/v1/namespaces', undefined, { Authorization: 'Bearer admin-token' })).status, 200);
  assert.deepEqual(seen.at(-1), { username: 'root', groups: ['system:masters', 'system:authenticated'] });
});

test('no credentials: system:anonymous, which RBAC lets read /version only', async () => {
  assert.equal((await call(base, 'GET', '/version')).status, 200);
  assert.deepEqual(seen.at(-1), { username: 'system:anonymous', groups: ['system:unauthenticated'] });
  const r = await call(base, 'GET', '/api/v1/namespaces');
  assert.equal(r.status, 403);
  assert.equal(r.json.message, 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope');
});
