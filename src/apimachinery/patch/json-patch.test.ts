import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJSONPatch, decodeJSONPatch, type JSONPatchOperation } from './json-patch.ts';

const doc = { a: { b: [1, 2, 3], c: 'x', n: null }, k: 'v' };

// [name, ops, expected result]
const ok: Array<[string, JSONPatchOperation[], unknown]> = [
  ['add member', [{ op: 'add', path: '/a/d', value: 4 }], { a: { b: [1, 2, 3], c: 'x', n: null, d: 4 }, k: 'v' }],
  ['add replaces member', [{ op: 'add', path: '/k', value: { z: 1 } }], { a: doc.a, k: { z: 1 } }],
  ['add into array', [{ op: 'add', path: '/a/b/1', value: 9 }], { a: { ...doc.a, b: [1, 9, 2, 3] }, k: 'v' }],
  ['add append', [{ op: 'add', path: '/a/b/-', value: 9 }], { a: { ...doc.a, b: [1, 2, 3, 9] }, k: 'v' }],
  ['add at length', [{ op: 'add', path: '/a/b/3', value: 9 }], { a: { ...doc.a, b: [1, 2, 3, 9] }, k: 'v' }],
  ['add negative index', [{ op: 'add', path: '/a/b/-1', value: 9 }], { a: { ...doc.a, b: [1, 2, 3, 9] }, k: 'v' }],
  ['add without value adds null', [{ op: 'add', path: '/z' }], { ...doc, z: null }],
  ['remove member', [{ op: 'remove', path: '/k' }], { a: doc.a }],
  ['remove element', [{ op: 'remove', path: '/a/b/0' }], { a: { ...doc.a, b: [2, 3] }, k: 'v' }],
  ['remove last by -1', [{ op: 'remove', path: '/a/b/-1' }], { a: { ...doc.a, b: [1, 2] }, k: 'v' }],
  ['replace member', [{ op: 'replace', path: '/a/c', value: 'y' }], { a: { ...doc.a, c: 'y' }, k: 'v' }],
  ['replace missing key adds it', [{ op: 'replace', path: '/q', value: 1 }], { ...doc, q: 1 }],
  ['replace element', [{ op: 'replace', path: '/a/b/2', value: 0 }], { a: { ...doc.a, b: [1, 2, 0] }, k: 'v' }],
  ['replace whole document', [{ op: 'replace', path: '', value: { x: 1 } }], { x: 1 }],
  ['move', [{ op: 'move', from: '/k', path: '/a/k' }], { a: { ...doc.a, k: 'v' } }],
  ['copy', [{ op: 'copy', from: '/a/b', path: '/b' }], { ...doc, b: [1, 2, 3] }],
  ['test passes', [{ op: 'test', path: '/a/b', value: [1, 2, 3] }], doc],
  ['test null on missing key', [{ op: 'test', path: '/missing', value: null }], doc],
  ['test null member', [{ op: 'test', path: '/a/n', value: null }], doc],
  ['test object order-insensitive', [{ op: 'test', path: '/a', value: { n: null, c: 'x', b: [1, 2, 3] } }], doc],
  ['escaped keys', [{ op: 'add', path: '/x~1y~0z', value: 1 }], { ...doc, 'x/y~z': 1 }],
  ['path without leading slash', [{ op: 'add', path: 'ignored/q', value: 1 }], { ...doc, q: 1 }],
  ['__proto__ is a plain key', [{ op: 'add', path: '/__proto__', value: { polluted: true } }], JSON.parse('{"a":{"b":[1,2,3],"c":"x","n":null},"k":"v","__proto__":{"polluted":true}}')],
];
for (const [name, ops, want] of ok) {
  test(`json patch: ${name}`, () => {
    const input = structuredClone(doc);
    const out = applyJSONPatch(input, ops);
    assert.deepEqual(out, want);
    assert.deepEqual(input, doc, 'input not mutated');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
}

const failing: Array<[string, JSONPatchOperation[], string]> = [
  ['unknown op', [{ op: 'frob', path: '/a' }], 'Unexpected kind: frob'],
  ['missing op', [{ path: '/a' }], 'Unexpected kind: unknown'],
  ['add to missing parent', [{ op: 'add', path: '/x/y', value: 1 }], 'add operation does not apply: doc is missing path: "/x/y": missing value'],
  ['add empty path', [{ op: 'add', path: '', value: 1 }], 'add operation does not apply: doc is missing path: "": missing value'],
  ['add without path', [{ op: 'add', value: 1 }], 'add operation failed to decode path: missing value'],
  ['add bad index', [{ op: 'add', path: '/a/b/x', value: 1 }], `error in add for path: '/a/b/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`],
  ['add index too large', [{ op: 'add', path: '/a/b/5', value: 1 }], "error in add for path: '/a/b/5': Unable to access invalid index: 5: invalid index referenced"],
  ['remove missing key', [{ op: 'remove', path: '/a/zz' }], "error in remove for path: '/a/zz': Unable to remove nonexistent key: zz: missing value"],
  ['remove bad index', [{ op: 'remove', path: '/a/b/3' }], "error in remove for path: '/a/b/3': Unable to access invalid index: 3: invalid index referenced"],
  ['remove through scalar', [{ op: 'remove', path: '/k/x' }], 'remove operation does not apply: doc is missing path: "/k/x": missing value'],
  ['remove through null', [{ op: 'remove', path: '/a/n/x' }], 'remove operation does not apply: doc is missing path: "/a/n/x": missing value'],
  ['replace out of range', [{ op: 'replace', path: '/a/b/7', value: 1 }], 'replace operation does not apply: doc is missing key: /a/b/7: missing value'],
  ['replace path not string', [{ op: 'replace', path: 5, value: 1 }], 'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string'],
  ['replace whole with scalar', [{ op: 'replace', path: '', value: 1 }], 'replace operation value must be object or array: %!w(<nil>)'],
  ['move missing from', [{ op: 'move', path: '/x' }], 'move operation failed to decode from: operation, missing from field: missing value'],
  ['move from missing key', [{ op: 'move', from: '/zz', path: '/x' }], "error in move for path: 'zz': Unable to remove nonexistent key: zz: missing value"],
  ['test fails', [{ op: 'test', path: '/k', value: 'w' }], 'testing value /k failed: test failed'],
  ['test type mismatch', [{ op: 'test', path: '/a/b', value: { 0: 1 } }], 'testing value /a/b failed: test failed'],
  ['test missing path', [{ op: 'test', path: '/q/r', value: 1 }], 'test operation does not apply: is missing path: /q/r: missing value'],
  ['copy missing destination', [{ op: 'copy', from: '/k', path: '/q/r' }], 'copy operation does not apply: doc is missing destination path: /q/r: missing value'],
  ['second op fails after first applies', [{ op: 'add', path: '/z', value: 1 }, { op: 'test', path: '/z', value: 2 }], 'testing value /z failed: test failed'],
];
for (const [name, ops, msg] of failing) {
  test(`json patch error: ${name}`, () => assert.throws(() => applyJSONPatch(doc, ops), { name: 'JSONPatchError', message: msg }));
}

test('copy respects the accumulated size limit', () => {
  const big = { s: 'x'.repeat(100) };
  const ops = [
    { op: 'copy', from: '/s', path: '/t' },
    { op: 'copy', from: '/s', path: '/u' },
  ];
  assert.throws(() => applyJSONPatch(big, ops, { maxCopyBytes: 150 }), {
    message: 'Unable to complete the copy, the accumulated size increase of copy is 204, exceeding the limit 150',
  });
  assert.deepEqual(Object.keys(applyJSONPatch(big, ops) as object), ['s', 't', 'u']);
});

test('decodeJSONPatch reports Go unmarshal errors', () => {
  assert.deepEqual(decodeJSONPatch(null), []);
  assert.throws(() => decodeJSONPatch({ op: 'add' }), { message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' });
  assert.throws(() => decodeJSONPatch(['x']), { message: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation' });
  assert.equal(decodeJSONPatch([{ op: 'add' }, null]).length, 2);
});

test('test and copy take values nested 10000 levels deep', () => {
  const n = 9998;
  const deep = () => JSON.parse('{"a":'.repeat(n) + '[1,{"b":null}]' + '}'.repeat(n));
  const doc = { spec: deep() };
  assert.doesNotThrow(() => applyJSONPatch(doc, [{ op: 'test', path: '/spec', value: deep() }]));
  assert.throws(() => applyJSONPatch(doc, [{ op: 'test', path: '/spec', value: { a: 1 } }]), /testing value \/spec failed/);
  const out = applyJSONPatch(doc, [{ op: 'copy', from: '/spec/a', path: '/other' }]) as Record<string, unknown>;
  let x: any = out.other;
  for (let i = 1; i < n; i++) x = x.a;
  assert.deepEqual(x, [1, { b: null }]);
});
