/**
 * ServiceAccount tokens against a real server process: the signing key the server makes in its
 * data directory, TokenRequest through `kubectl create token` (audiences, durations, bound Pods
 * and Secrets, upstream's refusals), the tokens it issues checked by the ServiceAccount token
 * authenticator (built over that key, reading the server's objects over HTTP) and by TokenReview,
 * `kubectl auth whoami`, Secret-based tokens filled in by the tokens controller, the
 * kube-root-ca.crt ConfigMap of every namespace, and pods getting their kube-api-access volume.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, startServer, type ServerProcess } from './harness.ts';
import { newNotFound } from '../../src/apimachinery/index.ts';
import { dataDirSigningKey, ServiceAccountTokens, TokenInvalid, type ServiceAccountTokenAuthenticator as TokenAuthenticator } from '../../src/auth/index.ts';
import { signJWT } from '../../src/auth/serviceaccount/jwt.ts';

let s: ServerProcess;
let authn: TokenAuthenticator;
const issuer = 'https://kubernetes.default.svc.cluster.local';

before(async () => {
  s = await startServer();
  const tokens = new ServiceAccountTokens({ signingKey: await dataDirSigningKey(join(s.dir, 'data')) });
  const get = async (path: string, resource: string, name: string) => {
    const r = await s.fetch(`${s.url}${path}`);
    if (r.status === 404) throw newNotFound({ group: '', resource }, name);
    assert.equal(r.status, 200, path);
    return (await r.json()) as Record<string, unknown>;
  };
  authn = tokens.authenticator({
    getServiceAccount: (ns, name) => get(`/api/v1/namespaces/${ns}/serviceaccounts/${name}`, 'serviceaccounts', name),
    getPod: (ns, name) => get(`/api/v1/namespaces/${ns}/pods/${name}`, 'pods', name),
    getSecret: (ns, name) => get(`/api/v1/namespaces/${ns}/secrets/${name}`, 'secrets', name),
    getNode: (name) => get(`/api/v1/nodes/${name}`, 'nodes', name),
  });
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

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;

/** The authenticator's refusal text (or '' when it accepts). */
async function refusal(token: string): Promise<string> {
  try {
    assert.ok(await authn.authenticateToken(token));
    return '';
  } catch (e) {
    assert.ok(e instanceof TokenInvalid, String(e));
    return e.message;
  }
}

async function tokenReview(token: string, audiences?: string[]): Promise<Record<string, unknown>> {
  const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } });
  return JSON.parse(await ok(['create', '-o', 'json', '-f', '-'], body)).status as Record<string, unknown>;
}

async function waitFor<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('discovery lists serviceaccounts/token, tokenreviews and selfsubjectreviews as upstream does', async () => {
  const core = JSON.parse(await ok(['get', '--raw', '/api/v1'])) as { resources: Array<Record<string, unknown>> };
  assert.deepEqual(
    core.resources.find((r) => r.name === 'serviceaccounts/token'),
    { name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] },
  );
  const authn = JSON.parse(await ok(['get', '--raw', '/apis/authentication.k8s.io/v1'])) as { resources: Array<Record<string, unknown>> };
  assert.deepEqual(
    authn.resources.map((r) => [r.name, r.kind, r.namespaced, r.verbs]),
    [
      ['selfsubjectreviews', 'SelfSubjectReview', false, ['create']],
      ['tokenreviews', 'TokenReview', false, ['create']],
    ],
  );
});

test('the signing key is made in the data directory, readable by its owner only', () => {
  assert.equal(statSync(join(s.dir, 'data', 'service-account.key')).mode & 0o777, 0o600);
});

test('kubectl create token: an RS256 token with upstream claims, accepted by the authenticator and TokenReview', async () => {
  const token = (await ok(['create', 'token', 'default'])).trim();
  const header = headerOf(token);
  assert.equal(header.alg, 'RS256');
  assert.match(String(header.kid), /^[A-Za-z0-9_-]{43}$/);
  const c = claimsOf(token);
  assert.deepEqual(Object.keys(c), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
  assert.deepEqual(c.aud, [issuer]);
  assert.equal(c.iss, issuer);
  assert.equal(c.sub, 'system:serviceaccount:default:default');
  assert.equal(Number(c.exp) - Number(c.iat), 3600);
  assert.equal(c.nbf, c.iat);
  const sa = JSON.parse(await ok(['get', 'sa', 'default', '-o', 'json']));
  assert.deepEqual(c['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'default', uid: sa.metadata.uid } });

  const user = await authn.authenticateToken(token);
  assert.deepEqual(user, {
    username: 'system:serviceaccount:default:default',
    uid: sa.metadata.uid,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${c.jti}`] },
  });
  assert.equal(await authn.authenticateToken('not-a-jwt'), null, 'a token that is not ours is no opinion');

  const review = await tokenReview(token);
  assert.equal(review.authenticated, true);
  assert.deepEqual(review.audiences, [issuer]);
  assert.deepEqual((review.user as Record<string, unknown>).username, 'system:serviceaccount:default:default');
  assert.deepEqual(await tokenReview('garbage'), { user: {}, error: 'invalid bearer token' });
  const tampered = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  assert.deepEqual(await tokenReview(tampered), { user: {}, error: 'go-jose/go-jose: error in cryptographic primitive' });
});

test('TokenRequest refusals and limits are upstream’s', async () => {
  let r = await run(['create', 'token', 'default', '--duration', '5m']);
  assert.equal(r.err, 'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes');
  r = await run(['create', 'token', 'nobody']);
  assert.equal(r.err, 'error: failed to create token: serviceaccounts "nobody" not found');
  const long = (await ok(['create', 'token', 'default', '--duration', '48h'])).trim();
  const c = claimsOf(long);
  assert.equal(Number(c.exp) - Number(c.iat), 48 * 3600);

  // Another audience: good for it, not for the API server.
  const other = (await ok(['create', 'token', 'default', '--audience', 'vault', '--audience', 'nats'])).trim();
  assert.deepEqual(claimsOf(other).aud, ['vault', 'nats']);
  assert.equal(await refusal(other), `token audiences ["vault" "nats"] is invalid for the target audiences ["${issuer}"]`);
  const review = await tokenReview(other, ['nats']);
  assert.equal(review.authenticated, true);
  assert.deepEqual(review.audiences, ['nats']);
  const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} });
  r = await run(['create', '-f', '-'], body);
  assert.match(r.err, /token is required for TokenReview in authentication/);
});

test('a pod gets the kube-api-access volume, and a token bound to it lives as long as the pod', async () => {
  await ok(['run', 'web', '--image', 'nginx']);
  const pod = JSON.parse(await ok(['get', 'pod', 'web', '-o', 'json']));
  assert.equal(pod.spec.serviceAccountName, 'default');
  assert.equal(pod.spec.serviceAccount, 'default');
  const volume = pod.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
  assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(volume.projected, {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
      { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
    ],
  });
  assert.deepEqual(pod.spec.containers[0].volumeMounts, [{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: volume.name, readOnly: true }]);

  const token = (await ok(['create', 'token', 'default', '--bound-object-kind', 'Pod', '--bound-object-name', 'web'])).trim();
  assert.deepEqual((claimsOf(token)['kubernetes.io'] as Record<string, unknown>).pod, { name: 'web', uid: pod.metadata.uid });
  const user = await authn.authenticateToken(token);
  assert.deepEqual(user?.extra?.['authentication.kubernetes.io/pod-name'], ['web']);
  assert.deepEqual(user?.extra?.['authentication.kubernetes.io/pod-uid'], [pod.metadata.uid]);

  let r = await run(['create', 'token', 'default', '--bound-object-kind', 'Pod', '--bound-object-name', 'web', '--bound-object-uid', 'nope']);
  assert.equal(
    r.err,
    'error: failed to create token: Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (nope) does not match the UID in record. The object might have been deleted and then recreated',
  );
  await ok(['create', 'serviceaccount', 'builder']);
  r = await run(['create', 'token', 'builder', '--bound-object-kind', 'Pod', '--bound-object-name', 'web']);
  assert.equal(r.err, 'error: failed to create token: cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.');
  r = await run(['create', 'token', 'default', '--bound-object-kind', 'Pod', '--bound-object-name', 'missing']);
  assert.equal(r.err, 'error: failed to create token: pods "missing" not found');

  await ok(['delete', 'pod', 'web', '--wait=false']);
  assert.equal(await refusal(token), 'service account token has been invalidated');
  assert.deepEqual(await tokenReview(token), { user: {}, error: 'service account token has been invalidated' });
});

test('pods refused or left without a token as upstream’s plugin decides', async () => {
  let r = await run(['run', 'ghost', '--image', 'nginx', '--overrides', '{"spec":{"serviceAccountName":"ghost"}}']);
  assert.equal(r.err, 'Error from server (Forbidden): pods "ghost" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found');
  await ok(['run', 'quiet', '--image', 'nginx', '--overrides', '{"spec":{"automountServiceAccountToken":false}}']);
  const pod = JSON.parse(await ok(['get', 'pod', 'quiet', '-o', 'json']));
  assert.equal(pod.spec.volumes, undefined);
  assert.equal(pod.spec.containers[0].volumeMounts, undefined);
  r = await run(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'mirror', annotations: { 'kubernetes.io/config.mirror': 'x' } }, spec: { serviceAccountName: 'default', containers: [{ name: 'c', image: 'nginx' }] } }));
  assert.equal(r.err, 'Error from server (Forbidden): error when creating "STDIN": pods "mirror" is forbidden: a mirror pod may not reference service accounts');
});

test('a deleted ServiceAccount takes its tokens with it; one recreated under the name does not revive them', async () => {
  await ok(['create', 'serviceaccount', 'temp']);
  const token = (await ok(['create', 'token', 'temp'])).trim();
  assert.equal(await refusal(token), '');
  await ok(['delete', 'serviceaccount', 'temp']);
  assert.equal(await refusal(token), 'serviceaccounts "temp" not found');
  await ok(['create', 'serviceaccount', 'temp']);
  const uid = JSON.parse(await ok(['get', 'sa', 'temp', '-o', 'json'])).metadata.uid;
  const claimed = ((claimsOf(token)['kubernetes.io'] as Record<string, Record<string, string>>).serviceaccount!).uid;
  assert.equal(await refusal(token), `service account UID (${uid}) does not match claim (${claimed})`);
});

test('kubectl auth whoami answers with the requester', async () => {
  const out = await ok(['auth', 'whoami', '-o', 'json']);
  const review = JSON.parse(out);
  assert.equal(review.kind, 'SelfSubjectReview');
  // The kubeconfig's admin: its client certificate's CN and O, and the certificate as credential id.
  assert.equal(review.status.userInfo.username, 'kubernetes-admin');
  assert.deepEqual(review.status.userInfo.groups, ['system:masters', 'system:authenticated']);
  assert.match(review.status.userInfo.extra['authentication.kubernetes.io/credential-id'][0], /^X509SHA256=[0-9a-f]{64}$/);
  const table = await ok(['auth', 'whoami']);
  assert.match(table, /Username\s+kubernetes-admin/);
});

test('a kubernetes.io/service-account-token Secret gets a legacy token the authenticator accepts until the Secret goes', async () => {
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'legacy', annotations: { 'kubernetes.io/service-account.name': 'default' } }, type: 'kubernetes.io/service-account-token' };
  await ok(['create', '-f', '-'], JSON.stringify(secret));
  const filled = await waitFor('the token', async () => {
    const o = JSON.parse(await ok(['get', 'secret', 'legacy', '-o', 'json']));
    return o.data?.token ? o : undefined;
  });
  const sa = JSON.parse(await ok(['get', 'sa', 'default', '-o', 'json']));
  assert.equal(filled.metadata.annotations['kubernetes.io/service-account.uid'], sa.metadata.uid);
  assert.equal(Buffer.from(filled.data.namespace, 'base64').toString(), 'default');
  assert.match(Buffer.from(filled.data['ca.crt'], 'base64').toString(), /^-----BEGIN CERTIFICATE-----/);
  const token = Buffer.from(filled.data.token, 'base64').toString();
  assert.deepEqual(claimsOf(token), {
    iss: 'kubernetes/serviceaccount',
    'kubernetes.io/serviceaccount/namespace': 'default',
    'kubernetes.io/serviceaccount/secret.name': 'legacy',
    'kubernetes.io/serviceaccount/service-account.name': 'default',
    'kubernetes.io/serviceaccount/service-account.uid': sa.metadata.uid,
    sub: 'system:serviceaccount:default:default',
  });
  const user = await authn.authenticateToken(token);
  assert.equal(user?.username, 'system:serviceaccount:default:default');
  assert.equal((await tokenReview(token)).authenticated, true);
  await ok(['delete', 'secret', 'legacy']);
  assert.equal(await refusal(token), 'token has been invalidated');

  // One naming a ServiceAccount that does not exist is deleted.
  await ok(['create', '-f', '-'], JSON.stringify({ ...secret, metadata: { name: 'orphan', annotations: { 'kubernetes.io/service-account.name': 'nobody' } } }));
  await waitFor('the orphan to go', async () => ((await run(['get', 'secret', 'orphan'])).code !== 0 ? true : undefined));
});

test('every namespace has kube-root-ca.crt, put back when deleted', async () => {
  await ok(['create', 'namespace', 'team']);
  const cm = await waitFor('kube-root-ca.crt', async () => {
    const r = await run(['-n', 'team', 'get', 'cm', 'kube-root-ca.crt', '-o', 'json']);
    return r.code === 0 ? JSON.parse(r.out) : undefined;
  });
  assert.match(cm.data['ca.crt'], /^-----BEGIN CERTIFICATE-----/);
  assert.equal(
    cm.metadata.annotations['kubernetes.io/description'],
    'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
  );
  await ok(['-n', 'team', 'delete', 'cm', 'kube-root-ca.crt']);
  const again = await waitFor('kube-root-ca.crt back', async () => {
    const r = await run(['-n', 'team', 'get', 'cm', 'kube-root-ca.crt', '-o', 'json']);
    return r.code === 0 ? JSON.parse(r.out) : undefined;
  });
  assert.notEqual(again.metadata.uid, cm.metadata.uid);
  // A pod in a fresh namespace waits for its default ServiceAccount rather than failing.
  await ok(['create', 'namespace', 'fresh']);
  await ok(['-n', 'fresh', 'run', 'p', '--image', 'nginx']);
});

test('requests with a ServiceAccount token act as its ServiceAccount; forged, expired and foreign tokens are 401', async () => {
  const token = (await ok(['create', 'token', 'default'])).trim();
  // A kubeconfig with the server's CA and the token alone (the harness's carries the admin's certificate, which would authenticate first).
  const as = (t: string, args: string[]) => {
    const file = join(s.dir, 'token-kubeconfig');
    const kc = { apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: s.url, 'certificate-authority-data': Buffer.from(s.tls!.ca).toString('base64') } }], users: [{ name: 'u', user: { token: t } }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u', namespace: 'default' } }], 'current-context': 'x' };
    writeFileSync(file, JSON.stringify(kc));
    return kubectl({ ...s, kubeconfig: file }, args);
  };
  const me = await as(token, ['auth', 'whoami', '-o', 'json']);
  assert.equal(me.code, 0, me.stderr);
  const user = JSON.parse(me.stdout).status.userInfo;
  assert.equal(user.username, 'system:serviceaccount:default:default');
  assert.deepEqual(user.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
  // RBAC sees it as that user: nothing grants the default ServiceAccount to list secrets.
  const denied = await as(token, ['get', 'secrets']);
  assert.equal(denied.code, 1);
  assert.match(denied.stderr, /secrets is forbidden: User "system:serviceaccount:default:default" cannot list resource "secrets" in API group "" in the namespace "default"/);
  const unauthorized = /error: You must be logged in to the server \(Unauthorized\)/;
  // Forged: claims changed without the key.
  const [h, , sig] = token.split('.');
  const claims = claimsOf(token);
  const forgedClaims = Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url');
  const forged = await as(`${h}.${forgedClaims}.${sig}`, ['get', 'configmaps']);
  assert.equal(forged.code, 1);
  assert.match(forged.stderr, unauthorized);
  // Expired: signed with the server's own key, an hour past its expiry.
  const key = await dataDirSigningKey(join(s.dir, 'data'));
  const now = Math.floor(Date.now() / 1000);
  const expired = signJWT(key, { ...claims, iat: now - 7200, nbf: now - 7200, exp: now - 3600 });
  const late = await as(expired, ['get', 'configmaps']);
  assert.equal(late.code, 1);
  assert.match(late.stderr, unauthorized);
  // Foreign: a valid JWT of another key.
  const other = signJWT(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, claims);
  const foreign = await as(other, ['get', 'configmaps']);
  assert.equal(foreign.code, 1);
  assert.match(foreign.stderr, unauthorized);
});
