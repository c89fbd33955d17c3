import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch, createMergePatch } from './merge-patch.ts';

// RFC 7386 appendix A examples, as far as evanphx/json-patch v4 agrees with them, plus its departures.
const cases: Array<[string, unknown, unknown, unknown]> = [
  ['replace member', { a: 'b' }, { a: 'c' }, { a: 'c' }],
  ['add member', { a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  ['delete member', { a: 'b' }, { a: null }, {}],
  ['delete one of two', { a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  ['array replaced', { a: ['b'] }, { a: 'c' }, { a: 'c' }],
  ['member replaced by array', { a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  ['nested merge', { a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  ['array of objects replaced', { a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  ['nested null pruned when target missing', { e: null }, { a: 1 }, { e: null, a: 1 }],
  ['nulls pruned in new value', {}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ['nulls pruned when target is scalar', { a: 1 }, { a: { b: null, c: 2 } }, { a: { c: 2 } }],
  ['array patch replaces document, keeps null elements', { a: 1 }, [1, null, { x: null }], [1, null, {}]],
  ['array value replacing object keeps nulls', { a: { x: 1 } }, { a: [null, { y: null }] }, { a: [null, { y: null }] }],
  ['array value replacing scalar prunes objects', { a: 1 }, { a: [null, { y: null }] }, { a: [null, {}] }],
  ['empty patch', { a: 1 }, {}, { a: 1 }],
];
for (const [name, doc, patch, want] of cases) {
  test(`merge patch: ${name}`, () => {
    const d = structuredClone(doc);
    const p = structuredClone(patch);
    const out = applyMergePatch(d, p);
    assert.deepEqual(out, want);
    assert.deepEqual(d, doc);
    assert.deepEqual(p, patch);
  });
}

test('merge patch result shares nothing with the inputs', () => {
  const doc = { keep: { deep: [1] }, x: 1 };
  const out = applyMergePatch(doc, { x: 2 }) as { keep: { deep: number[] } };
  out.keep.deep.push(2);
  assert.deepEqual(doc.keep.deep, [1]);
});

test('rejected patches', () => {
  assert.throws(() => applyMergePatch({}, null), { message: 'Invalid JSON Patch' });
  assert.throws(() => applyMergePatch({}, 'x'), { message: 'Invalid JSON Patch' });
  assert.throws(() => applyMergePatch({}, 1), { message: 'Invalid JSON Patch' });
  assert.throws(() => applyMergePatch(null, {}), { message: 'Invalid JSON Document' });
});

test('createMergePatch round trips', () => {
  const a = { x: 1, y: { z: 1, w: [1] }, gone: true };
  const b = { x: 2, y: { z: 1, w: [1, 2] }, add: 'n' };
  const p = createMergePatch(a, b);
  assert.deepEqual(p, { gone: null, x: 2, y: { w: [1, 2] }, add: 'n' });
  assert.deepEqual(applyMergePatch(a, p), b);
});

test('documents and patches nested 10000 levels deep merge without recursion', () => {
  const n = 9998;
  const doc = JSON.parse('{"a":'.repeat(n) + '{"keep":1,"drop":2}' + '}'.repeat(n));
  const patch = JSON.parse('{"a":'.repeat(n) + '{"drop":null,"add":{"x":null,"y":[{"z":null}]}}' + '}'.repeat(n));
  const out = applyMergePatch(doc, patch) as Record<string, unknown>;
  let x: any = out;
  for (let i = 0; i < n; i++) x = x.a;
  // Nulls inside an added value are pruned, array elements kept.
  assert.deepEqual(x, { keep: 1, add: { y: [{}] } });
  let d: any = doc;
  for (let i = 0; i < n; i++) d = d.a;
  assert.deepEqual(d, { keep: 1, drop: 2 });
  const back = createMergePatch(doc, out as Record<string, unknown>);
  let p: any = back;
  for (let i = 0; i < n; i++) p = p.a;
  assert.deepEqual(p, { drop: null, add: { y: [{}] } });
  assert.deepEqual(createMergePatch(doc, doc), {});
});
