// canonicalObjectMeta against the decoder it short-cuts (decodeObjectMeta + encodeObjectMeta): the
// same object, key order included, wherever it answers; undefined (the decoder's turn) for every
// shape the decoder reports, drops or reorders in ways it does not reproduce.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeObjectMeta, encodeObjectMeta } from '../apimachinery/index.ts';
import { canonicalObjectMeta } from './objectmeta-canonical.ts';

const accepted: [string, unknown][] = [
  ['empty', {}],
  ['name and namespace', { name: 'a', namespace: 'ns' }],
  ['labels out of order', { name: 'a', labels: { z: '1', a: '2', m: '' } }],
  ['integer-like label keys', { labels: { '10': 'a', '9': 'b', x: 'c' } }],
  ['sorted annotations', { annotations: { a: '1', b: '2' } }],
  ['empty maps and lists are omitted', { labels: {}, annotations: {}, finalizers: [] }],
  ['nulls are omitted', { name: null, labels: null, generation: null, deletionGracePeriodSeconds: null, finalizers: null }],
  ['empty strings are omitted', { name: '', generateName: '', uid: '' }],
  ['every scalar field', { uid: 'u', resourceVersion: '7', selfLink: '/x', generateName: 'g-', generation: 3, deletionGracePeriodSeconds: 0, name: 'n' }],
  ['negative zero grace period', { deletionGracePeriodSeconds: -0 }],
  ['zero generation', { generation: 0 }],
  ['timestamps re-encoded', { creationTimestamp: '2024-02-03T04:05:06+01:00', deletionTimestamp: '2024-02-03T04:05:06.123Z' }],
  ['null creationTimestamp', { creationTimestamp: null, name: 'n' }],
  ['finalizers', { finalizers: ['b', 'a'] }],
  ['what clients send', { name: 'a', namespace: 'ns', labels: { a: '1', b: '2' } }],
  ['fields after creationTimestamp', { name: 'a', deletionTimestamp: '2024-02-03T04:05:06Z', deletionGracePeriodSeconds: 0, labels: { a: '1' }, annotations: { b: '2' }, finalizers: ['f'] }],
  ['canonical with creationTimestamp', { name: 'a', generation: 2, creationTimestamp: '2024-02-03T04:05:06Z', labels: { a: '1' } }],
  ['fields out of order', { namespace: 'ns', name: 'a', labels: { a: '1' } }],
  ['labels before a timestamp', { labels: { a: '1' }, creationTimestamp: '2024-02-03T04:05:06Z' }],
  ['a timestamp not in its canonical form', { name: 'a', creationTimestamp: '2024-02-03T05:05:06+01:00' }],
];

const declined: [string, unknown][] = [
  ['not an object', 'x'],
  ['null', null],
  ['an array', []],
  ['unknown field', { name: 'a', foo: 1 }],
  ['owner references', { ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'n', uid: 'u' }] }],
  ['managed fields', { managedFields: [{ manager: 'm' }] }],
  ['wrong type', { name: 1 }],
  ['label value not a string', { labels: { a: 1 } }],
  ['null label value', { labels: { a: null } }],
  ['__proto__ label', JSON.parse('{"labels":{"__proto__":"x"}}')],
  ['fractional generation', { generation: 1.5 }],
  ['generation beyond 2^53', { generation: 2 ** 60 }],
  ['malformed time', { creationTimestamp: 'yesterday' }],
  ['time not a string', { creationTimestamp: 5 }],
  ['finalizer not a string', { finalizers: [null] }],
];

const exact = (v: unknown) => JSON.stringify(v);

for (const [name, md] of accepted) {
  test(`canonicalObjectMeta: ${name}`, () => {
    const fast = canonicalObjectMeta(structuredClone(md));
    const d = decodeObjectMeta(structuredClone(md));
    assert.equal(d.error, undefined);
    assert.ok(fast !== undefined, 'the shortcut declined a shape it handles');
    assert.equal(exact(fast), exact(encodeObjectMeta(d.meta!)));
    assert.deepEqual(fast, encodeObjectMeta(d.meta!));
  });
}

// The decoder's reuse of metadata it owns: the same answer, md itself where md was canonical but
// for creationTimestamp, and md untouched where a copy is answered.
for (const [name, md] of accepted) {
  test(`canonicalObjectMeta reusing: ${name}`, () => {
    const input = structuredClone(md) as Record<string, unknown>;
    const before = exact(input);
    const fast = canonicalObjectMeta(input, true);
    const d = decodeObjectMeta(structuredClone(md));
    assert.equal(exact(fast), exact(encodeObjectMeta(d.meta!)));
    if (fast !== input) assert.equal(exact(input), before);
  });
}

test('canonicalObjectMeta reusing: what clients send is kept, creationTimestamp put in its place', () => {
  const md = { name: 'a', namespace: 'ns', labels: { a: '1' }, annotations: { b: '2' } };
  const labels = md.labels;
  const out = canonicalObjectMeta(md, true)!;
  assert.equal(out, md);
  assert.equal(out.labels, labels);
  assert.deepEqual(Object.keys(out), ['name', 'namespace', 'creationTimestamp', 'labels', 'annotations']);
  // Not where the encoding omits or rewrites a value: unsorted labels, an empty string.
  for (const m of [{ name: 'a', labels: { b: '1', a: '2' } }, { name: '', namespace: 'ns' }, { generation: 0 }, { deletionGracePeriodSeconds: -0 }]) {
    assert.notEqual(canonicalObjectMeta(m, true), m);
  }
});

for (const [name, md] of declined) {
  test(`canonicalObjectMeta declines: ${name}`, () => {
    assert.equal(canonicalObjectMeta(md), undefined);
  });
}

test('canonicalObjectMeta copies: the result shares no map or list with its input', () => {
  const md = { labels: { a: '1' }, annotations: { b: '2' }, finalizers: ['f'] };
  const out = canonicalObjectMeta(md)!;
  assert.notEqual(out.labels, md.labels);
  assert.notEqual(out.annotations, md.annotations);
  assert.notEqual(out.finalizers, md.finalizers);
});
