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

test('canonicalJSON sorts every level, whether a subtree is in order already, out of order, or below one that is', () => {
  /** Keys sorted by copying every object: what canonical text must equal. */
  const sortedCopy = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(sortedCopy);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined) continue;
      if (k === '__proto__') Object.defineProperty(out, k, { value: sortedCopy(x), enumerable: true, writable: true, configurable: true });
      else out[k] = sortedCopy(x);
    }
    return out;
  };
  const proto = JSON.parse('{"__proto__":{"b":1,"a":2},"z":1}') as unknown;
  const cases: unknown[] = [
    { a: 1, b: { c: 2, d: [1, { e: 3, f: 4 }] } },
    { b: 1, a: { d: 2, c: 3 } },
    { a: { c: 1, b: 2 }, b: 1 },
    { a: [{ y: 1, x: 2 }, { x: 1 }], b: [undefined, 1] },
    { a: undefined, b: { d: undefined, c: 1 }, c: 1 },
    { a: 1, b: undefined, c: { b: 1, a: 1 } },
    { '10': 1, '9': 2, a: { '2': 1, '1': 1 } },
    proto,
    { x: proto },
    { metadata: { name: 'n', labels: { app: 'x' }, namespace: 'd', managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': { '.': {}, 'f:a': {} } } }] }, apiVersion: 'v1', kind: 'K', spec: { a: 1 } },
  ];
  for (const c of cases) {
    const before = JSON.stringify(c);
    assert.equal(canonicalJSON(c), JSON.stringify(sortedCopy(c)), before);
    assert.equal(JSON.stringify(c), before, 'the input is left as it was');
  }
  assert.equal(canonicalJSON({ b: { d: 1, c: 2 }, a: 1 }), '{"a":1,"b":{"c":2,"d":1}}');
});
