import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJSON, stringifyJSON, writeJSONIteratively } from './stringify.ts';
import { jsonEqual } from './equal.ts';
import { nestingDepthError } from './depth.ts';

const samples: unknown[] = [
  null,
  'x"\n',
  1.5,
  NaN,
  [],
  {},
  [1, undefined, () => 1, [[]], { a: undefined }],
  { z: 1, a: { y: [true, false, null], b: {} }, u: undefined, t: { toJSON: () => ({ r: 1 }) } },
  { '': [{ '': '' }] },
];

test('the explicit-stack writer writes what JSON.stringify writes, compact and indented', () => {
  for (const v of samples) {
    assert.equal(writeJSONIteratively(v), JSON.stringify(v), JSON.stringify(v));
    assert.equal(writeJSONIteratively(v, { indent: 2 }), JSON.stringify(v, null, 2), JSON.stringify(v));
  }
});

test('stringifyJSON and canonicalJSON take values deeper than JSON.stringify can', () => {
  // 9999 objects around an array: the 10000 levels a decoder accepts.
  const deep = '{"b":1,"a":'.repeat(9999) + '[]' + '}'.repeat(9999);
  const v = JSON.parse(deep);
  assert.throws(() => JSON.stringify(v), RangeError);
  assert.equal(stringifyJSON(v), deep);
  const pretty = stringifyJSON(v, 1);
  assert.equal(pretty.split('\n').length, 3 * 9999 + 1);
  assert.equal(pretty.replace(/\s+/g, ''), deep);
  const sorted = canonicalJSON(v);
  assert.equal(sorted, '{"a":'.repeat(9999) + '[]' + ',"b":1}'.repeat(9999));
  assert.equal(nestingDepthError(sorted), undefined);
  assert.equal(canonicalJSON({ b: 1, a: [{ d: 1, c: undefined }] }), '{"a":[{"d":1}],"b":1}');
});

test('jsonEqual compares deep values without recursing past its first levels', () => {
  const mk = (leaf: string) => JSON.parse('{"a":'.repeat(10000) + leaf + '}'.repeat(10000));
  assert.ok(jsonEqual(mk('[1,{"x":2,"y":3}]'), mk('[1,{"y":3,"x":2}]')));
  assert.ok(!jsonEqual(mk('[1,{"x":2}]'), mk('[1,{"x":3}]')));
  assert.ok(!jsonEqual(mk('[1]'), mk('[1,2]')));
  assert.ok(jsonEqual({ a: 1, b: undefined }, { a: 1 }));
});
