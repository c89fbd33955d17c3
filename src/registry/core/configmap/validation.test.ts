import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateConfigMap } from './validation.ts';

// The vector file skips these cases for the `<nil>` rendering of an empty path; the check itself is pinned here.
test('ConfigMap data and binaryData over 1 MiB in all: one TooLong error for the whole object', () => {
  const half = 'a'.repeat(512 * 1024);
  const bin = Buffer.from('b'.repeat(512 * 1024 + 1)).toString('base64');
  const errs = validateConfigMap({ data: { a: half }, binaryData: { b: bin } });
  assert.deepEqual(
    errs.map((e) => [e.type, e.field, e.detail]),
    [['FieldValueTooLong', '', 'may not be more than 1048576 bytes']],
  );
  assert.deepEqual(validateConfigMap({ data: { a: half }, binaryData: { b: Buffer.from(half).toString('base64') } }), []);
});

test('ConfigMap values count in UTF-8 bytes, as Go strings do', () => {
  const errs = validateConfigMap({ data: { a: 'é'.repeat(512 * 1024 + 1) } });
  assert.equal(errs.length, 1);
});
