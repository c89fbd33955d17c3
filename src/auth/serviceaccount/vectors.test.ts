/**
 * Kubernetes' own ServiceAccount token tables run as data (testdata/k8s-serviceaccount/):
 * claims.json (Claims() and the bound-token validator) and jwt.json (legacy tokens signed with
 * RSA and ECDSA keys, authenticated against sets of public keys; key files read).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { newNotFound } from '../../apimachinery/index.ts';
import type { Obj } from '../../registry/index.ts';
import { boundClaims, legacyClaims, validateBound, type ServiceAccountTokenGetter } from './claims.ts';
import { parsePrivateKeyPEM, parsePublicKeysPEM } from './keys.ts';
import { signJWT } from './jwt.ts';
import { serviceAccountTokenAuthenticator } from './authenticator.ts';

const dir = new URL('../../../testdata/k8s-serviceaccount/', import.meta.url);
const load = (name: string) => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));

/** A getter over fixed objects; a missing one is the NotFound of its resource. */
function getter(objects: { serviceAccount?: Obj; secret?: Obj; pod?: Obj; node?: Obj; secrets?: Obj[] }): ServiceAccountTokenGetter {
  const missing = (resource: string, name: string) => Promise.reject(newNotFound({ group: '', resource }, name));
  const named = (o: Obj | undefined, name: string) => (o && (o.metadata as { name?: string }).name === name ? o : undefined);
  return {
    getServiceAccount: (_ns, name) => (named(objects.serviceAccount, name) ? Promise.resolve(objects.serviceAccount!) : missing('serviceaccounts', name)),
    getSecret: (_ns, name) => {
      const s = [objects.secret, ...(objects.secrets ?? [])].find((x) => named(x, name));
      return s ? Promise.resolve(s) : missing('secrets', name);
    },
    getPod: (_ns, name) => (named(objects.pod, name) ? Promise.resolve(objects.pod!) : missing('pods', name)),
    getNode: (name) => (named(objects.node, name) ? Promise.resolve(objects.node!) : missing('nodes', name)),
  };
}

test('claims.json: Claims() as the upstream table expects them', () => {
  const doc = load('claims.json');
  assert.ok(doc.claims.length >= 5, 'the table has its cases');
  const sa = { namespace: 'myns', name: 'mysvcacct', uid: 'mysvcacct-uid' };
  let run = 0;
  for (const c of doc.claims) {
    const input = { issuer: 'iss', serviceAccount: sa, audiences: c.input.audiences, expirationSeconds: c.input.expirationSeconds, now: 1514764800, jti: 'x', ...(c.input.warnAfterSeconds ? { warnAfterSeconds: c.input.warnAfterSeconds } : {}) };
    if (c.input.pod && c.input.secret) {
      assert.throws(() => boundClaims({ ...input, pod: c.input.pod, secret: c.input.secret }), /internal error, token can only be bound to one object type/, c.name);
    }
    const bound = c.input.pod ? { pod: c.input.pod } : c.input.secret ? { secret: c.input.secret } : {};
    const { iss, jti, ...got } = boundClaims({ ...input, ...bound });
    assert.equal(iss, 'iss');
    assert.equal(jti, 'x');
    assert.deepEqual(got, c.expected, c.name);
    run++;
  }
  process.stdout.write(`claims.json Claims(): ${run} passed, 0 skipped\n`);
});

test('claims.json: the bound-token validator as the upstream table expects it', async () => {
  const doc = load('claims.json');
  assert.ok(doc.validate.length >= 27, 'the table has its cases');
  const now = 1514764800;
  for (const c of doc.validate) {
    const claims: Record<string, unknown> = { exp: c.exp ?? now, ...(c.nbf !== undefined ? { nbf: c.nbf } : {}), 'kubernetes.io': c.private };
    let err = '';
    try {
      const info = await validateBound(claims, getter(c.objects), now);
      assert.equal(info.name, 'saname');
    } catch (e) {
      err = e instanceof Error ? e.message : String(e);
    }
    assert.equal(err, c.expectErr, c.name);
  }
  process.stdout.write(`claims.json validator: ${doc.validate.length} passed, 0 skipped\n`);
});

test('jwt.json: legacy tokens of RSA and ECDSA keys, verified against sets of public keys', async () => {
  const doc = load('jwt.json');
  assert.ok(doc.cases.length >= 10, 'the table has its cases');
  const keys = doc.keys as Record<string, string>;
  for (const name of doc.privateKeys) assert.ok(parsePrivateKeyPEM(keys[name]!), name);
  for (const f of doc.publicKeyFiles) assert.equal(parsePublicKeysPEM(f.keys.map((k: string) => keys[k]).join('\n')).length, f.count);
  assert.throws(() => parsePublicKeysPEM(''), /data does not contain any valid RSA or ECDSA public keys/);
  assert.throws(() => parsePrivateKeyPEM(''), /data does not contain a valid RSA or ECDSA private key/);
  const sa = { namespace: 'test', name: 'my-service-account', uid: '12345' };
  const tokens: Record<string, string> = {
    rsa: signJWT(createPrivateKey(keys.rsaPrivateKey!), legacyClaims(sa, 'my-rsa-secret')),
    ecdsa: signJWT(createPrivateKey(keys.ecdsaPrivateKey!), legacyClaims(sa, 'my-ecdsa-secret')),
  };
  const objects: Record<string, Obj> = {
    serviceAccount: { metadata: { name: 'my-service-account', namespace: 'test', uid: '12345' } },
    rsaSecret: { metadata: { name: 'my-rsa-secret', namespace: 'test' }, data: { token: Buffer.from(tokens.rsa!).toString('base64') } },
    ecdsaSecret: { metadata: { name: 'my-ecdsa-secret', namespace: 'test' }, data: { token: Buffer.from(tokens.ecdsa!).toString('base64') } },
  };
  for (const c of doc.cases) {
    const held = (c.lookup ?? []) as string[];
    const authn = serviceAccountTokenAuthenticator({
      issuers: ['https://kubernetes.default.svc.cluster.local'],
      publicKeys: c.keys.map((k: string) => createPublicKey(keys[k]!)),
      apiAudiences: [],
      lookup: c.lookup !== null,
      getter: getter({
        ...(held.includes('serviceAccount') ? { serviceAccount: objects.serviceAccount } : {}),
        secrets: held.filter((h) => h.endsWith('Secret')).map((h) => objects[h]!),
      }),
    });
    assert.equal(await authn.authenticateToken('invalid token'), null, `${c.name}: a non-JWT token is no opinion`);
    let user = null;
    let err = false;
    try {
      user = await authn.authenticateToken(tokens[c.token]!);
    } catch {
      err = true;
    }
    assert.equal(err, c.err, `${c.name}: error`);
    assert.equal(user !== null, c.ok, `${c.name}: ok`);
    if (user) {
      assert.equal(user.username, c.username, c.name);
      assert.equal(user.uid, c.uid, c.name);
      assert.deepEqual(user.groups, [...c.groups, 'system:authenticated'], c.name);
    }
  }
  process.stdout.write(`jwt.json: ${doc.cases.length} passed, 0 skipped\n`);
});
