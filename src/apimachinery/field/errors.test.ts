import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateString,
  duplicate,
  errorBody,
  errorString,
  forbidden,
  internalError,
  invalid,
  notFound,
  notSupported,
  omitValue,
  required,
  tooFew,
  tooLong,
  tooLongCharacters,
  tooMany,
  tooShort,
  typeInvalid,
  type FieldError,
} from './errors.ts';
import { GoFloat } from './govalue.ts';
import { Path } from './path.ts';

const p = Path.of('spec').child('x');

// Expected strings are field.Error.Error() outputs of k8s.io/apimachinery (Kubernetes 1.34+).
const cases: Array<[string, FieldError, string]> = [
  ['invalid int64', invalid(p, 1000000, 'd'), 'spec.x: Invalid value: 1000000: d'],
  ['invalid float64', invalid(p, new GoFloat(1e6), 'd'), 'spec.x: Invalid value: 1e+06: d'],
  ['invalid non-integral float', invalid(p, 0.9, 'd'), 'spec.x: Invalid value: 0.9: d'],
  ['invalid string', invalid(p, 'a"b\n', 'd'), 'spec.x: Invalid value: "a\\"b\\n": d'],
  ['invalid bool', invalid(p, true, 'must be false'), 'spec.x: Invalid value: true: must be false'],
  ['invalid null', invalid(p, null, 'd'), 'spec.x: Invalid value: null: d'],
  ['invalid map is JSON with sorted keys', invalid(p, { b: 1, a: 'x' }, 'd'), 'spec.x: Invalid value: {"a":"x","b":1}: d'],
  ['invalid slice is JSON', invalid(p, ['a', 2.5], ''), 'spec.x: Invalid value: ["a",2.5]'],
  ['invalid no detail', invalid(p, 'v', ''), 'spec.x: Invalid value: "v"'],
  ['invalid omitted value', invalid(p, omitValue, 'd'), 'spec.x: Invalid value: d'],
  ['typeInvalid', typeInvalid(p, 'string', 'must be object'), 'spec.x: Invalid value: "string": must be object'],
  ['required', required(p, ''), 'spec.x: Required value'],
  ['required detail', required(p, 'name or generateName is required'), 'spec.x: Required value: name or generateName is required'],
  ['forbidden', forbidden(p, 'not allowed'), 'spec.x: Forbidden: not allowed'],
  ['notFound', notFound(p, 'y'), 'spec.x: Not found: "y"'],
  ['duplicate', duplicate(p, { k: 'v' }), 'spec.x: Duplicate value: {"k":"v"}'],
  ['notSupported', notSupported(p, 'c', ['a', 'b']), 'spec.x: Unsupported value: "c": supported values: "a", "b"'],
  ['notSupported bool', notSupported(p, true, ['a']), 'spec.x: Unsupported value: true: supported values: "a"'],
  ['notSupported none', notSupported(p, 'c', []), 'spec.x: Unsupported value: "c"'],
  ['tooLong', tooLong(p, 'abc', 2), 'spec.x: Too long: may not be more than 2 bytes'],
  ['tooLong 1', tooLong(p, 'abc', 1), 'spec.x: Too long: may not be more than 1 byte'],
  ['tooLong unbounded', tooLong(p, 'abc', -1), 'spec.x: Too long: value is too long'],
  ['tooLongCharacters', tooLongCharacters(p, 'abc', 2), 'spec.x: Too long: may not be more than 2 characters'],
  ['tooShort', tooShort(p, 'a', 2), 'spec.x: Too short: must be at least 2 characters'],
  ['tooMany', tooMany(p, 3, 2), 'spec.x: Too many: 3: must have at most 2 items'],
  ['tooMany 1', tooMany(p, 3, 1), 'spec.x: Too many: 3: must have at most 1 item'],
  ['tooMany unknown', tooMany(p, -1, -1), 'spec.x: Too many: has too many items'],
  ['tooFew', tooFew(p, 1, 2), 'spec.x: Too few: 1: must have at least 2 items'],
  ['internal', internalError(p, new Error('boom')), 'spec.x: Internal error: boom'],
  ['nil path', invalid('', '', 'x'), '<nil>: Invalid value: "": x'],
  ['key path', required(Path.of('metadata').child('labels').key('a/b'), ''), 'metadata.labels[a/b]: Required value'],
];

for (const [name, err, want] of cases) {
  test(`errorString: ${name}`, () => assert.equal(errorString(err), want));
}

test('errorBody drops the field', () => {
  assert.equal(errorBody(invalid(p, 20, 'too big')), 'Invalid value: 20: too big');
});

test('aggregateString: one error bare, several bracketed, duplicates dropped', () => {
  const a = required(p, '');
  const b = forbidden(p, 'no');
  assert.equal(aggregateString([a]), 'spec.x: Required value');
  assert.equal(aggregateString([a, b, required(p, '')]), '[spec.x: Required value, spec.x: Forbidden: no]');
  assert.equal(aggregateString([a, { ...a }]), 'spec.x: Required value');
});
