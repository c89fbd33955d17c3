import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crdTableConvertor, parseIncludeObject, toTable, defaultTableConvertor } from './convert.ts';
import { StatusError } from '../../apimachinery/index.ts';

const now = Date.parse('2026-11-29T22:38:44Z');
const ct = {
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: 'my-ct', namespace: 'default', creationTimestamp: '2026-11-29T22:33:44Z', labels: { app: 'demo' } },
  spec: { cronSpec: '* * * * */5', replicas: 1.9, image: 'my-awesome-cron-image', tags: ['a'] },
};
const columns = [
  { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
  { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
  { name: 'Image', type: 'string', jsonPath: '.spec.image', priority: 1, description: 'the image' },
  { name: 'Tags', type: 'string', jsonPath: '.spec.tags' },
  { name: 'Missing', type: 'string', jsonPath: '.spec.nope' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

test('CRD printer columns produce cells as apiextensions does', () => {
  const conv = crdTableConvertor(columns);
  assert.deepEqual(
    conv.columns.map((c) => [c.name, c.type, c.priority]),
    [['Name', 'string', 0], ['Spec', 'string', 0], ['Replicas', 'integer', 0], ['Image', 'string', 1], ['Tags', 'string', 0], ['Missing', 'string', 0], ['Age', 'date', 0]],
  );
  assert.equal(conv.columns[1]!.description, 'Custom resource definition column (in JSONPath format): .spec.cronSpec');
  assert.equal(conv.columns[3]!.description, 'the image');
  assert.deepEqual(conv.cells(ct, now), ['my-ct', '* * * * */5', 1, 'my-awesome-cron-image', '["a"]', null, '5m']);
});

test('a CRD without columns gets Age; default convertor prints Created At', () => {
  const conv = crdTableConvertor(undefined);
  assert.deepEqual(conv.columns.map((c) => c.name), ['Name', 'Age']);
  assert.deepEqual(defaultTableConvertor.cells(ct, now), ['my-ct', '2026-11-29T22:33:44Z']);
});

test('toTable builds rows with PartialObjectMetadata and list metadata', () => {
  const list = { metadata: { resourceVersion: '105', continue: 'abc' }, items: [ct] };
  const t = toTable(crdTableConvertor(columns), list, true, { includeObject: 'Metadata', tableVersion: 'v1', now });
  assert.equal(t.kind, 'Table');
  assert.deepEqual(t.metadata, { resourceVersion: '105', continue: 'abc' });
  const row = (t.rows as Array<Record<string, unknown>>)[0]!;
  assert.deepEqual(row.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: ct.metadata });
  const none = toTable(crdTableConvertor(columns), list, true, { includeObject: 'None', tableVersion: 'v1', noHeaders: true, now });
  assert.equal((none.rows as Array<Record<string, unknown>>)[0]!.object, undefined);
  assert.equal(none.columnDefinitions, null);
  assert.throws(
    () => parseIncludeObject('Bogus'),
    (e: unknown) =>
      e instanceof StatusError &&
      e.code === 400 &&
      e.message === 'Unable to convert to Table as requested: includeObject: Unsupported value: "Bogus": supported values: "Metadata", "None", "Object"',
  );
});
