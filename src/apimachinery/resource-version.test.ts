import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGoBool, parseGoInt, parseGoUint, parseResourceVersion, queryParamBool, requireResourceVersion } from './resource-version.ts';

test('parseResourceVersion', () => {
  assert.deepEqual(parseResourceVersion(''), { ok: true, value: 0 });
  assert.deepEqual(parseResourceVersion('0'), { ok: true, value: 0 });
  assert.deepEqual(parseResourceVersion('123'), { ok: true, value: 123 });
  assert.deepEqual(parseResourceVersion('abc'), {
    ok: false,
    error: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
  });
  assert.deepEqual(parseResourceVersion('-1'), {
    ok: false,
    error: 'resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax',
  });
  assert.deepEqual(parseResourceVersion('18446744073709551616'), {
    ok: false,
    error: 'resourceVersion: Invalid value: "18446744073709551616": strconv.ParseUint: parsing "18446744073709551616": value out of range',
  });
  assert.equal((parseResourceVersion('18446744073709551615') as { value: number }).value, Infinity);
  assert.throws(() => requireResourceVersion('x'), {
    message: 'invalid resource version: resourceVersion: Invalid value: "x": strconv.ParseUint: parsing "x": invalid syntax',
  });
});

test('strconv', () => {
  assert.deepEqual(parseGoUint('007'), { ok: true, value: 7n });
  assert.deepEqual(parseGoUint('+7'), { ok: false, error: 'strconv.ParseUint: parsing "+7": invalid syntax' });
  assert.deepEqual(parseGoInt('-9223372036854775808'), { ok: true, value: -(2n ** 63n) });
  assert.deepEqual(parseGoInt('9223372036854775808'), { ok: false, error: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' });
  assert.deepEqual(parseGoInt('1.0'), { ok: false, error: 'strconv.ParseInt: parsing "1.0": invalid syntax' });
  for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.deepEqual(parseGoBool(t), { ok: true, value: true });
  for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) assert.deepEqual(parseGoBool(f), { ok: true, value: false });
  assert.deepEqual(parseGoBool('yes'), { ok: false, error: 'strconv.ParseBool: parsing "yes": invalid syntax' });
  assert.deepEqual(parseGoBool('tRUE'), { ok: false, error: 'strconv.ParseBool: parsing "tRUE": invalid syntax' });
});

test('query parameter booleans are lenient', () => {
  assert.equal(queryParamBool(undefined), false);
  assert.equal(queryParamBool([]), false);
  assert.equal(queryParamBool('0'), false);
  assert.equal(queryParamBool('FaLsE'), false);
  assert.equal(queryParamBool(''), true);
  assert.equal(queryParamBool('no'), true);
  assert.equal(queryParamBool(['1', '0']), true);
});
