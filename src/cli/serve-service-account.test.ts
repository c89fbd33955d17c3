/**
 * serve's ServiceAccount token flags as kube-apiserver names and checks them, and the issuer they
 * build: a named ECDSA signing key signs ES256 tokens that the named public key verifies, the
 * issuers and audiences given are the tokens', and the data directory's key is made once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseServeArgs, type ServeArgs } from './serve.ts';
import { serviceAccountTokensFromFlags, defaultServiceAccountFlags, rootCABundle } from '../auth/index.ts';

test('the --service-account-* flags and --api-audiences are parsed and checked as kube-apiserver does', () => {
  const a = parseServeArgs([
    '--service-account-issuer', 'https://a.example',
    '--service-account-issuer=https://b.example',
    '--service-account-key-file', '/k1.pem',
    '--service-account-signing-key-file', '/sk.pem',
    '--service-account-max-token-expiration', '24h',
    '--service-account-extend-token-expiration=false',
    '--api-audiences', 'x,y',
  ]) as ServeArgs;
  assert.deepEqual(a.serviceAccounts, {
    issuers: ['https://a.example', 'https://b.example'],
    keyFiles: ['/k1.pem'],
    signingKeyFile: '/sk.pem',
    maxTokenExpirationSeconds: 86400,
    extendTokenExpiration: false,
    apiAudiences: ['x', 'y'],
  });
  assert.equal((parseServeArgs([]) as ServeArgs).serviceAccounts, undefined);
  assert.throws(() => parseServeArgs(['--service-account-max-token-expiration', '30m']), /the service-account-max-token-expiration must be between 1 hour and 2\^32 seconds/);
  assert.throws(() => parseServeArgs(['--service-account-issuer', 'a', '--service-account-issuer', 'a']), /service-account-issuer "a" is already specified/);
  assert.throws(() => parseServeArgs(['--service-account-issuer', 'http://[::1']), /service-account-issuer "http:\/\/\[::1" contained a ':' but was not a valid URL/);
  assert.throws(() => parseServeArgs(['--service-account-extend-token-expiration', 'maybe']), /strconv.ParseBool: parsing "maybe": invalid syntax/);
});

test('named keys, issuers and audiences make the tokens; the data directory key is made once, mode 0600', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sa-flags-'));
  try {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(join(dir, 'sk.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const tokens = await serviceAccountTokensFromFlags(dir, {
      ...defaultServiceAccountFlags(),
      issuers: ['https://issuer.example', 'https://old.example'],
      signingKeyFile: join(dir, 'sk.pem'),
      keyFiles: [join(dir, 'pub.pem')],
      apiAudiences: ['api'],
      maxTokenExpirationSeconds: 7200,
    });
    assert.deepEqual(tokens.generator.apiAudiences, ['api']);
    assert.equal(tokens.generator.maxExpirationSeconds, 7200);
    const token = tokens.generator.generateToken({ serviceAccount: { namespace: 'ns', name: 'sa', uid: 'u' }, audiences: ['api'], expirationSeconds: 600, now: Math.floor(Date.now() / 1000) });
    const [header, payload] = token.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    assert.equal(header.alg, 'ES256');
    assert.equal(payload.iss, 'https://issuer.example');
    const authn = tokens.authenticator({
      getServiceAccount: async () => ({ metadata: { name: 'sa', namespace: 'ns', uid: 'u' } }),
      getPod: async () => ({}),
      getSecret: async () => ({}),
      getNode: async () => ({}),
    });
    assert.equal((await authn.authenticateToken(token))?.username, 'system:serviceaccount:ns:sa');
    await assert.rejects(serviceAccountTokensFromFlags(dir, { ...defaultServiceAccountFlags(), signingKeyFile: join(dir, 'pub.pem') }), /failed to parse service-account-issuer-key-file: data does not contain a valid RSA or ECDSA private key/);

    const made = await serviceAccountTokensFromFlags(dir, defaultServiceAccountFlags());
    const keyFile = join(dir, 'service-account.key');
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.match(readFileSync(keyFile, 'utf8'), /^-----BEGIN RSA PRIVATE KEY-----/);
    const again = await serviceAccountTokensFromFlags(dir, defaultServiceAccountFlags());
    assert.equal(again.publicKeys[0]!.export({ type: 'spki', format: 'pem' }), made.publicKeys[0]!.export({ type: 'spki', format: 'pem' }), 'the same key after a restart');
    const ca = rootCABundle(dir);
    assert.match(ca, /^-----BEGIN CERTIFICATE-----/);
    assert.equal(rootCABundle(dir), ca, 'the same CA after a restart');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
