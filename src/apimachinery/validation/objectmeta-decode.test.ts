/**
 * ObjectMeta decoding's usual-form path against the generic walk over the Go types: for metadata
 * built from every member with values of every JSON type (nulls, wrong types, -0, huge integers,
 * bad and odd timestamps, unknown and `__proto__` keys, sorted and unsorted keys), the two give
 * the same result, error text included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeByWalk, decodeObjectMeta } from './objectmeta-decode.ts';

const scalars: unknown[] = ['x', '', 0, -0, 7, 1.5, 2 ** 60, -3, true, false, null, [], {}, 10n];
const times: unknown[] = ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.123+02:00', '2026-13-02T03:04:05Z', 'junk', null, 5, ''];
const maps: unknown[] = [{ a: 'b', c: 'd' }, { z: 'y', a: '' }, { a: null }, { a: 1 }, {}, [], 'x', null, JSON.parse('{"__proto__":"x"}')];
const owner = (o: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u', ...o });
const owners: unknown[] = [[owner({})], [owner({ controller: true, blockOwnerDeletion: false })], [owner({ controller: null })], [owner({ name: 3 })], [{ uid: 'u' }], [null], [owner({ extra: 1 })], 'x', null, []];
const entry = (o: Record<string, unknown>) => ({ manager: 'm', operation: 'Update', apiVersion: 'v1', time: '2026-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:a': {} }, ...o });
const entries: unknown[] = [[entry({})], [entry({ subresource: 'status' })], [entry({ time: null })], [entry({ time: 'bad' })], [entry({ fieldsV1: null })], [entry({ fieldsV1: 'raw' })], [entry({ manager: 1 })], [null], [{}], 'x', null];
const lists: unknown[] = [['a', 'b'], [], ['a', null], ['a', 1], 'x', null];

const members: Record<string, unknown[]> = {
  name: scalars, generateName: scalars, namespace: scalars, selfLink: scalars, uid: scalars, resourceVersion: scalars,
  generation: scalars, deletionGracePeriodSeconds: scalars,
  creationTimestamp: times, deletionTimestamp: times,
  labels: maps, annotations: maps, ownerReferences: owners, managedFields: entries, finalizers: lists,
  unknownField: scalars, Name: scalars,
};

const usual = {
  name: 'web', namespace: 'default', uid: 'u-1', resourceVersion: '5', generation: 2,
  creationTimestamp: '2026-01-02T03:04:05Z', labels: { app: 'web' }, annotations: { a: 'b' },
  ownerReferences: [owner({ controller: true })], finalizers: ['f'], managedFields: [entry({})],
};

function same(md: unknown, label: string): void {
  assert.deepEqual(decodeObjectMeta(md), decodeByWalk(md), label);
}

test('the usual-form path gives what the walk gives, member by member', () => {
  let n = 0;
  for (const [key, values] of Object.entries(members)) {
    for (const v of values) {
      same({ ...usual, [key]: v }, `${key}: ${String(v)}`);
      same({ [key]: v, ...usual }, `${key} first: ${String(v)}`);
      n += 2;
    }
  }
  assert.ok(n >= 200, `only ${n} cases`);
});

test('whole metadata of every shape the decoder meets', () => {
  for (const md of [usual, {}, null, 'x', 3, [], { __proto__: null, name: 'a' }, JSON.parse('{"name":"a","__proto__":{"x":1}}'), Object.fromEntries(Object.entries(usual).reverse())]) {
    same(md, JSON.stringify(md) ?? String(md));
  }
  // A result shares no list or map with the input but a managed-fields entry's raw fieldsV1.
  const got = decodeObjectMeta(usual).meta!;
  assert.notEqual(got.labels, usual.labels);
  assert.notEqual(got.finalizers, usual.finalizers);
  assert.equal(got.managedFields![0]!.fieldsV1, usual.managedFields[0]!.fieldsV1);
});

test('the walk decides errors and drops malformed fields as before', () => {
  assert.match(decodeObjectMeta({ ...usual, labels: { a: 1 } }).error!, /cannot unmarshal number into Go struct field ObjectMeta.labels of type string/);
  assert.deepEqual(decodeObjectMeta({ name: 'a', labels: { a: 1 } }, { dropMalformedFields: true }).meta, { name: 'a' });
});
