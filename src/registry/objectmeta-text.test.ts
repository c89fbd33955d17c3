/**
 * ObjectMeta re-encoded text to text: for metadata in its stored (canonical, sorted) form, the
 * re-encoded text is exactly what decoding it into ObjectMeta and encoding it again writes, with
 * the resourceVersion in its place; what is not ObjectMeta is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJSON, decodeObjectMeta, encodeObjectMeta } from '../apimachinery/index.ts';
import { insertSorted, objectMetaOrder, reencode } from './objectmeta-text.ts';

const cases: { name: string; meta: Record<string, unknown> }[] = [
  // Every stored object has a creationTimestamp (Go writes `null` for a missing one, which the
  // text cannot know: decoding finds the difference and the object is kept decoded).
  { name: 'the least', meta: { creationTimestamp: '2026-01-01T00:00:00Z' } },
  { name: 'name only', meta: { name: 'a', creationTimestamp: '2026-01-01T00:00:00Z' } },
  {
    name: 'every common field',
    meta: {
      name: 'a',
      namespace: 'ns',
      uid: 'u-1',
      generation: 3,
      creationTimestamp: '2026-01-01T00:00:00Z',
      deletionTimestamp: '2026-01-02T00:00:00Z',
      deletionGracePeriodSeconds: 30,
      labels: { 'app.kubernetes.io/name': 'x', b: 'quote " and \\ backslash' },
      annotations: { 'a/b': '{"json":["in",{"a":"string"}]}', z: '' },
      finalizers: ['example.com/f', 'kubernetes'],
      generateName: 'a-',
    },
  },
  {
    name: 'owner references and managed fields',
    meta: {
      name: 'b',
      creationTimestamp: '2026-01-01T00:00:00Z',
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-2', controller: true, blockOwnerDeletion: true },
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u-3' },
      ],
      managedFields: [
        { manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:b': {}, 'f:a': {} } } },
        { manager: 'ctl', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {}, subresource: 'status' },
      ],
    },
  },
];

test('ObjectMeta re-encoded from its stored text is what decoding and encoding it write', () => {
  for (const c of cases) {
    const stored = canonicalJSON({ apiVersion: 'v1', kind: 'K', metadata: c.meta, spec: { metadata: { x: 1 } } });
    const open = stored.indexOf('"metadata":{') + '"metadata":'.length;
    const decoded = decodeObjectMeta((JSON.parse(stored) as { metadata: unknown }).metadata);
    assert.ok(decoded.meta, c.name);
    const want = JSON.stringify(encodeObjectMeta({ ...decoded.meta, resourceVersion: '42' }));
    const got = reencode(stored, open, objectMetaOrder, '42');
    assert.equal(got?.text, want, c.name);
    assert.equal(stored.slice(got!.end), ',"spec":{"metadata":{"x":1}}}', c.name);
  }
});

test('the sorted form inserts the resourceVersion among sorted members', () => {
  const sorted = (m: Record<string, unknown>) => canonicalJSON({ ...m, resourceVersion: '7' });
  for (const c of [{ name: 'empty', meta: {} }, { name: 'after', meta: { a: 1 } }, ...cases]) {
    const stored = canonicalJSON(c.meta);
    assert.equal(insertSorted(stored, 0, '7')?.text, sorted(c.meta), c.name);
  }
});

test('a member ObjectMeta does not have, or text that is not compact JSON, is refused', () => {
  assert.equal(reencode('{"name":"a","unknownField":1}', 0, objectMetaOrder, '1'), undefined);
  assert.equal(reencode('{"ownerReferences":[{"extra":1}]}', 0, objectMetaOrder, '1'), undefined);
  assert.equal(reencode('{ "name":"a"}', 0, objectMetaOrder, '1'), undefined);
  assert.equal(reencode('{"name":"a"', 0, objectMetaOrder, '1'), undefined);
});
