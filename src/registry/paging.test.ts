import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeContinue, encodeContinue } from './paging.ts';
import { parseGoUint, parseResourceVersion } from './resource-version.ts';

const prefix = '/registry/example.com/widgets/';
const token = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

test('continue tokens round-trip and are upstream-shaped', () => {
  const t = encodeContinue(prefix + 'ns/b\x00', prefix, 42);
  assert.deepEqual(JSON.parse(Buffer.from(t, 'base64url').toString()), { v: 'meta.k8s.io/v1', rv: 42, start: 'ns/b\x00' });
  assert.ok(!t.includes('='));
  assert.deepEqual(decodeContinue(t, prefix), { key: prefix + 'ns/b\x00', rv: 42 });
  assert.throws(() => encodeContinue('/elsewhere/x', prefix, 1), { message: 'unable to encode next field: the key and key prefix do not match' });
});

const bad: [string, string, string][] = [
  ['illegal base64 character', '#abc', 'continue key is not valid: illegal base64 data at input byte 0'],
  ['dangling base64 character', 'abcde', 'continue key is not valid: illegal base64 data at input byte 4'],
  ['not JSON', Buffer.from('nope').toString('base64url'), 'continue key is not valid: invalid character in JSON input'],
  ['empty', '', 'continue key is not valid: unexpected end of JSON input'],
  ['unknown version', token({ v: 'x/v9', rv: 1, start: 'a' }), 'continue key is not valid: server does not recognize this encoded version x/v9'],
  ['zero rv', token({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }), 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
  ['empty start', token({ v: 'meta.k8s.io/v1', rv: 3, start: '' }), 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
  ['path escape', token({ v: 'meta.k8s.io/v1', rv: 3, start: 'a/../../b' }), 'continue key is not valid: a/../../b'],
  ['string rv', token({ v: 'meta.k8s.io/v1', rv: '3', start: 'a' }), 'continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
];
for (const [name, input, message] of bad) {
  test(`malformed continue token: ${name}`, () => {
    assert.throws(() => decodeContinue(input, prefix), { message });
  });
}

test('negative rv (inconsistent continue) decodes', () => {
  assert.deepEqual(decodeContinue(token({ v: 'meta.k8s.io/v1', rv: -1, start: 'ns/x' }), prefix), { key: prefix + 'ns/x', rv: -1 });
});

test('resourceVersion parsing follows strconv.ParseUint', () => {
  assert.deepEqual(parseGoUint('007'), { ok: true, value: 7n });
  assert.deepEqual(parseGoUint('18446744073709551615'), { ok: true, value: 18446744073709551615n });
  assert.deepEqual(parseGoUint('18446744073709551616'), { ok: false, error: 'strconv.ParseUint: parsing "18446744073709551616": value out of range' });
  assert.deepEqual(parseGoUint('+1'), { ok: false, error: 'strconv.ParseUint: parsing "+1": invalid syntax' });
  assert.deepEqual(parseGoUint(''), { ok: false, error: 'strconv.ParseUint: parsing "": invalid syntax' });
  assert.deepEqual(parseResourceVersion(''), { ok: true, value: 0 });
  assert.deepEqual(parseResourceVersion('0'), { ok: true, value: 0 });
  assert.deepEqual(parseResourceVersion('12'), { ok: true, value: 12 });
  assert.deepEqual(parseResourceVersion('1.5'), {
    ok: false,
    error: 'resourceVersion: Invalid value: "1.5": strconv.ParseUint: parsing "1.5": invalid syntax',
  });
});
