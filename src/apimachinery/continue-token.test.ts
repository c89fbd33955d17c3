import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanPath, continueAfter, decodeContinue, decodeRawURLBase64, encodeContinue } from './continue-token.ts';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const prefix = '/registry/stable.example.com/crontabs/';

test('encode matches upstream bytes', () => {
  const t = encodeContinue(prefix + 'ns/b', prefix, 42);
  assert.equal(Buffer.from(t, 'base64url').toString(), '{"v":"meta.k8s.io/v1","rv":42,"start":"ns/b"}');
  assert.ok(!t.includes('='));
  assert.equal(Buffer.from(encodeContinue(prefix + 'a<b', prefix, 1), 'base64url').toString(), '{"v":"meta.k8s.io/v1","rv":1,"start":"a\\u003cb"}');
  assert.throws(() => encodeContinue('/other/x', prefix, 1), { message: 'unable to encode next field: the key and key prefix do not match' });
  assert.deepEqual(decodeContinue(continueAfter(prefix + 'ns/a', prefix, 7), prefix), { key: prefix + 'ns/a\x00', rv: 7 });
});

test('round trip', () => {
  assert.deepEqual(decodeContinue(encodeContinue(prefix + 'ns/b', prefix, 42), prefix), { key: prefix + 'ns/b', rv: 42 });
  assert.deepEqual(decodeContinue(encodeContinue(prefix + 'x', prefix, -1), prefix), { key: prefix + 'x', rv: -1 });
});

const bad: Array<[string, string]> = [
  ['!!!', 'continue key is not valid: illegal base64 data at input byte 0'],
  ['eyJ2Ij=', 'continue key is not valid: illegal base64 data at input byte 6'],
  ['a', 'continue key is not valid: illegal base64 data at input byte 0'],
  [b64('not json'), "continue key is not valid: invalid character 'o' in literal null (expecting 'u')"],
  [b64('{"v":'), 'continue key is not valid: unexpected end of JSON input'],
  [b64('x'), "continue key is not valid: invalid character 'x' looking for beginning of value"],
  [b64('[]'), 'continue key is not valid: json: cannot unmarshal array into Go value of type storage.continueToken'],
  [b64('{"rv":"1"}'), 'continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
  [b64('{"rv":1.5,"v":"meta.k8s.io/v1"}'), 'continue key is not valid: json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64'],
  [b64('{"v":"meta.k8s.io/v2","rv":1,"start":"a"}'), 'continue key is not valid: server does not recognize this encoded version meta.k8s.io/v2'],
  [b64('{}'), 'continue key is not valid: server does not recognize this encoded version '],
  [b64('{"v":"meta.k8s.io/v1","start":"a"}'), 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
  [b64('{"v":"meta.k8s.io/v1","rv":3}'), 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
  [b64('{"v":"meta.k8s.io/v1","rv":3,"start":"../x"}'), 'continue key is not valid: ../x'],
  [b64('{"v":"meta.k8s.io/v1","rv":3,"start":"a//b"}'), 'continue key is not valid: a//b'],
];
for (const [tok, msg] of bad) {
  test(`decode error: ${msg.slice(26, 80)}`, () => assert.throws(() => decodeContinue(tok, prefix), { name: 'ContinueTokenError', message: msg }));
}

test('field names match case-insensitively, as encoding/json does', () => {
  assert.deepEqual(decodeContinue(b64('{"V":"meta.k8s.io/v1","RV":5,"Start":"q"}'), prefix), { key: prefix + 'q', rv: 5 });
});

test('base64 decoding follows Go', () => {
  assert.equal(decodeRawURLBase64('aGk').toString(), 'hi');
  assert.equal(decodeRawURLBase64('aG\nk').toString(), 'hi');
  assert.equal(decodeRawURLBase64('').length, 0);
});

test('path.Clean', () => {
  const t: Array<[string, string]> = [
    ['/a/b', '/a/b'],
    ['/a/./b', '/a/b'],
    ['/a/../b', '/b'],
    ['/../a', '/a'],
    ['/a/', '/a'],
    ['//a', '/a'],
    ['', '.'],
    ['a/../..', '..'],
    ['/a/b\x00', '/a/b\x00'],
  ];
  for (const [i, o] of t) assert.equal(cleanPath(i), o, i);
});
