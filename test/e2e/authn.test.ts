/**
 * Authentication end to end, against `serve` processes over TLS: kubectl with the kubeconfig
 * `serve` writes (the admin's client certificate); a --token-auth-file user bound to `view`
 * reading and refused writes, and impersonation checked for that user; client certificates of
 * the user's own CA (--tls-cert-file, --client-ca-file); anonymous requests reaching what
 * `system:public-info-viewer` grants; kube-apiserver's 401 for an unknown token, a certificate
 * from an unknown CA and, with --anonymous-auth=false, no credentials; client-node and the
 * Python client with a token user's kubeconfig.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig, CoreV1Api } from '@kubernetes/client-node';
import { kubectl, startServer, type ServerProcess } from './harness.ts';
import { makeTestCA, type TestCA } from '../lib/certs.ts';
import { tlsFetch } from '../lib/tls-fetch.ts';

// The first interpreter that has the Python client: PATH's python3, else Debian's.
const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0);

const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

/** A kubeconfig for `s` as a bearer-token user (the server's CA, no client certificate). */
function tokenKubeconfig(s: ServerProcess, name: string, token: string): string {
  const p = join(s.dir, `${name}.kubeconfig`);
  writeFileSync(
    p,
    `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: ${s.url}
    certificate-authority-data: ${Buffer.from(s.tls!.ca).toString('base64')}
contexts:
- name: c
  context: {cluster: c, user: u, namespace: default}
current-context: c
users:
- name: u
  user:
    token: ${token}
`,
  );
  return p;
}

/** kubectl with another kubeconfig than the admin's. */
function kubectlAs(s: ServerProcess, kubeconfig: string, args: string[]) {
  return kubectl({ ...s, kubeconfig }, args);
}

/** A fetch that trusts the server's CA and presents no client certificate. */
const anonymousFetch = (s: ServerProcess) => tlsFetch({ ca: s.tls!.ca }).fetch;

describe('serve over TLS with a token file', () => {
  let s: ServerProcess;
  let ca: TestCA;
  before(async () => {
    ca = makeTestCA('authn test tokens');
    const tokens = ca.write('tokens.csv', 'jane-token,jane,1001,"devs,readers"\nbob-token,bob,1002\n');
    s = await startServer({ args: ['--token-auth-file', tokens] });
  });
  after(async () => {
    await s?.stop();
    ca?.remove();
  });

  test('kubectl with the generated kubeconfig is the admin (system:masters)', async () => {
    const ns = await kubectl(s, ['get', 'namespaces', '-o', 'name']);
    assert.equal(ns.code, 0, ns.stderr);
    assert.match(ns.stdout, /namespace\/kube-system/);
    const can = await kubectl(s, ['auth', 'can-i', '*', '*']);
    assert.equal(can.stdout.trim(), 'yes');
  });

  test('a token user bound to view reads and may not write, with the cluster\'s 403', async () => {
    assert.equal((await kubectl(s, ['create', 'configmap', 'seen', '--from-literal=a=b'])).code, 0);
    const kc = tokenKubeconfig(s, 'jane', 'jane-token');
    const before = await kubectlAs(s, kc, ['get', 'configmaps']);
    assert.equal(before.code, 1);
    assert.equal(before.stderr.trim(), 'Error from server (Forbidden): configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"');
    assert.equal((await kubectl(s, ['create', 'rolebinding', 'jane-view', '--clusterrole=view', '--user=jane'])).code, 0);
    let read = await kubectlAs(s, kc, ['get', 'configmap', 'seen', '-o', 'jsonpath={.data.a}']);
    for (let i = 0; i < 50 && read.code !== 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      read = await kubectlAs(s, kc, ['get', 'configmap', 'seen', '-o', 'jsonpath={.data.a}']);
    }
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.stdout, 'b');
    const write = await kubectlAs(s, kc, ['create', 'configmap', 'mine', '--from-literal=x=y']);
    assert.equal(write.code, 1);
    assert.equal(write.stderr.trim(), 'error: failed to create configmap: configmaps is forbidden: User "jane" cannot create resource "configmaps" in API group "" in the namespace "default"');
    // Groups come from the token file; system:authenticated is added.
    const sar = await kubectlAs(s, kc, ['auth', 'can-i', 'list', 'configmaps']);
    assert.equal(sar.stdout.trim(), 'yes');
    // Impersonation is authorized for jane, not for the admin.
    const as = await kubectlAs(s, kc, ['get', 'configmaps', '--as', 'bob']);
    assert.equal(as.code, 1);
    assert.equal(as.stderr.trim(), 'Error from server (Forbidden): users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  test('an unknown token is a 401, whatever anonymous requests may do', async () => {
    const f = anonymousFetch(s);
    const r = await f(`${s.url}/version`, { headers: { Authorization: 'Bearer not-a-token' } });
    assert.equal(r.status, 401);
    assert.deepEqual(await r.json(), unauthorized);
    // The second field is the token (bearertoken.go splits on single spaces).
    const extra = await f(`${s.url}/version`, { headers: { Authorization: 'Bearer not-a-token jane-token' } });
    assert.equal(extra.status, 401);
    const k = await kubectlAs(s, tokenKubeconfig(s, 'nobody', 'not-a-token'), ['get', 'pods']);
    assert.equal(k.code, 1);
    assert.equal(k.stderr.trim(), 'error: You must be logged in to the server (Unauthorized)');
  });

  test('an Authorization header that carries no bearer token is no credential: the request is anonymous', async () => {
    const f = anonymousFetch(s);
    for (const header of ['Bearer', 'Basic amFuZTpzZWNyZXQ=', 'Bearer  jane-token', 'jane-token']) {
      const r = await f(`${s.url}/api/v1/namespaces`, { headers: { Authorization: header } });
      assert.equal(r.status, 403, header);
      assert.match(((await r.json()) as { message: string }).message, /^namespaces is forbidden: User "system:anonymous"/, header);
    }
    // Case-insensitive scheme, surrounding space trimmed.
    const lower = await f(`${s.url}/api/v1/namespaces/default/configmaps`, { headers: { Authorization: '  bearer jane-token ' } });
    assert.equal(lower.status, 200);
  });

  test('anonymous requests: /version and the health checks, and the cluster\'s 403 elsewhere', async () => {
    const f = anonymousFetch(s);
    for (const p of ['/version', '/healthz', '/readyz', '/livez']) assert.equal((await f(`${s.url}${p}`)).status, 200, p);
    const r = await f(`${s.url}/api/v1/namespaces`);
    assert.equal(r.status, 403);
    assert.deepEqual(await r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { kind: 'namespaces' },
      code: 403,
    });
  });

  test('a client certificate from a CA the server does not trust is a 401', async () => {
    const other = makeTestCA('not the server CA');
    try {
      const masters = other.client('kubernetes-admin', ['system:masters']);
      const f = tlsFetch({ ca: s.tls!.ca, ...masters }).fetch;
      const r = await f(`${s.url}/version`);
      assert.equal(r.status, 401);
      assert.deepEqual(await r.json(), unauthorized);
    } finally {
      other.remove();
    }
  });

  test('a certificate of the server\'s CA that is not for client authentication is a 401', async () => {
    const pki = join(s.dir, 'data', 'pki');
    const out = (f: string) => join(s.dir, f);
    execFileSync('openssl', ['req', '-x509', '-CA', join(pki, 'ca.crt'), '-CAkey', join(pki, 'ca.key'), '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/O=system:masters/CN=server-only', '-addext', 'extendedKeyUsage=serverAuth', '-keyout', out('srv.key'), '-out', out('srv.crt')], { stdio: 'ignore', env: { ...process.env, OPENSSL_CONF: '/dev/null' } });
    const f = tlsFetch({ ca: s.tls!.ca, cert: readFileSync(out('srv.crt'), 'utf8'), key: readFileSync(out('srv.key'), 'utf8') }).fetch;
    const r = await f(`${s.url}/api/v1/namespaces`);
    assert.equal(r.status, 401);
    assert.deepEqual(await r.json(), unauthorized);
  });

  test('client-node with a token user\'s kubeconfig', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(tokenKubeconfig(s, 'jane-node', 'jane-token'));
    const core = kc.makeApiClient(CoreV1Api);
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    assert.ok(list.items.some((c) => c.metadata?.name === 'seen'));
    await assert.rejects(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'nope' } } }), (e: { code?: number; body?: string }) => {
      assert.equal(e.code, 403);
      assert.match(String(e.body), /User \\"jane\\" cannot create resource \\"configmaps\\"/);
      return true;
    });
    const anon = new KubeConfig();
    anon.loadFromFile(tokenKubeconfig(s, 'bad-node', 'wrong'));
    await assert.rejects(anon.makeApiClient(CoreV1Api).listNamespace(), (e: { code?: number }) => e.code === 401);
  });

  test('the Python client with a token user\'s kubeconfig', { skip: python ? false : 'install python3-kubernetes' }, async () => {
    const script = `
import sys
from kubernetes import client, config
from kubernetes.client.rest import ApiException
config.load_kube_config(config_file=sys.argv[1])
v1 = client.CoreV1Api()
print(sorted(c.metadata.name for c in v1.list_namespaced_config_map("default").items))
try:
    v1.create_namespaced_config_map("default", {"metadata": {"name": "py"}})
except ApiException as e:
    print(e.status)
`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(python!, ['-c', script, tokenKubeconfig(s, 'jane-py', 'jane-token')], { timeout: 60000 }, (e, stdout, stderr) => (e ? reject(new Error(stderr)) : resolve(stdout))),
    );
    assert.match(out, /'seen'/);
    assert.match(out, /\n403\n$/);
  });
});

describe('serve with the user\'s own certificates', () => {
  let s: ServerProcess;
  let ca: TestCA;
  before(async () => {
    ca = makeTestCA('own CA');
    const serving = ca.serving();
    s = await startServer({ args: ['--tls-cert-file', ca.write('tls.crt', serving.cert), '--tls-private-key-file', ca.write('tls.key', serving.key), '--client-ca-file', ca.certFile] });
  });
  after(async () => {
    await s?.stop();
    ca?.remove();
  });

  test('serves the given certificate; a client certificate of the client CA names the user and groups', async () => {
    assert.match(s.output(), /the kubeconfig has no client credentials \(--client-ca-file names the CA that signs them\)/);
    assert.equal(s.tls!.cert, undefined);
    const admin = tlsFetch({ ca: ca.cert, ...ca.client('alice', ['system:masters']) }).fetch;
    const ns = await admin(`${s.url}/api/v1/namespaces`);
    assert.equal(ns.status, 200);
    const dev = tlsFetch({ ca: ca.cert, ...ca.client('carol', ['devs']) }).fetch;
    const refused = await dev(`${s.url}/api/v1/namespaces/default/pods`);
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { message: string }).message, 'pods is forbidden: User "carol" cannot list resource "pods" in API group "" in the namespace "default"');
    const grant = await admin(`${s.url}/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'devs-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }] }),
    });
    assert.equal(grant.status, 201);
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await dev(`${s.url}/api/v1/namespaces/default/pods`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200);
  });
});

describe('serve --anonymous-auth=false', () => {
  let s: ServerProcess;
  before(async () => {
    s = await startServer({ args: ['--anonymous-auth=false'] });
  });
  after(async () => {
    await s?.stop();
  });

  test('a request without credentials is a 401, even for /version; the admin certificate still works', async () => {
    const f = anonymousFetch(s);
    for (const p of ['/version', '/healthz', '/api/v1/namespaces']) {
      const r = await f(`${s.url}${p}`);
      assert.equal(r.status, 401, p);
      assert.deepEqual(await r.json(), unauthorized, p);
    }
    const malformed = await f(`${s.url}/version`, { headers: { Authorization: 'Bearer' } });
    assert.equal(malformed.status, 401);
    assert.equal((await s.fetch(`${s.url}/api/v1/namespaces`)).status, 200);
  });
});
