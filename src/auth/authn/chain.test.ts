/**
 * The chain's rules, as kube-apiserver's config.go composes it: the first authenticator to find
 * a user wins and gets `system:authenticated`; a refused credential is a failure even with
 * anonymous requests allowed; no credential at all is `system:anonymous` unless that is off;
 * bearer headers as bearertoken.go splits them. (Client certificates are judged over real TLS
 * connections in test/e2e/authn.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UserInfo } from '../../registry/index.ts';
import { bearerToken } from './bearertoken.ts';
import { newRequestAuthenticator } from './chain.ts';
import type { TokenAuthenticator } from './authenticator.ts';
import { tokenFileAuthenticator } from './tokenfile.ts';

const file = tokenFileAuthenticator(
  new Map<string, UserInfo>([
    ['t-jane', { username: 'jane', uid: '1', groups: ['devs'] }],
    ['t-auth', { username: 'already', groups: ['system:authenticated'] }],
  ]),
);
const refusing: TokenAuthenticator = {
  authenticateToken: (t) => (t === 't-expired' ? Promise.reject(new Error('token has expired')) : Promise.resolve(null)),
};
const later: TokenAuthenticator = { authenticateToken: (t) => Promise.resolve(t === 't-later' ? { username: 'later', groups: [] } : null) };

const req = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization }, socket: {} });

test('bearer headers as bearertoken.go splits them', () => {
  const cases: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ['', undefined],
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['  Bearer abc  ', 'abc'],
    ['Bearer abc def', 'abc'],
    ['Bearer', undefined],
    ['Bearer  abc', undefined],
    ['Basic YTpi', undefined],
    ['abc', undefined],
  ];
  for (const [h, want] of cases) assert.equal(bearerToken(h), want, JSON.stringify(h));
});

test('the chain: found users, refused credentials, anonymous requests', async () => {
  const tokens = [file, refusing];
  const chain = newRequestAuthenticator({ tokenAuthenticators: tokens }, tokens);
  assert.deepEqual(await chain.authenticateRequest(req('Bearer t-jane')), { user: { username: 'jane', uid: '1', groups: ['devs', 'system:authenticated'] } });
  assert.deepEqual(await chain.authenticateRequest(req('Bearer t-auth')), { user: { username: 'already', groups: ['system:authenticated'] } });
  assert.deepEqual(await chain.authenticateRequest(req('Bearer nope')), { error: 'invalid bearer token' });
  assert.deepEqual(await chain.authenticateRequest(req('Bearer t-expired')), { error: 'token has expired' });
  assert.deepEqual(await chain.authenticateRequest(req()), { user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
  assert.deepEqual(await chain.authenticateRequest(req('Basic YTpi')), { user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
  // An authenticator appended after the chain was built takes part.
  tokens.push(later);
  assert.deepEqual(await chain.authenticateRequest(req('Bearer t-later')), { user: { username: 'later', groups: ['system:authenticated'] } });
});

test('without anonymous auth, no credential is a failure without a reason (the 401)', async () => {
  const chain = newRequestAuthenticator({ anonymous: false }, [file]);
  assert.deepEqual(await chain.authenticateRequest(req()), {});
  assert.deepEqual(await chain.authenticateRequest(req('Bearer')), {});
  assert.equal((await chain.authenticateRequest(req('Bearer t-jane'))).user?.username, 'jane');
});
