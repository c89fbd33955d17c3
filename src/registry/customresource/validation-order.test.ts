import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../apimachinery/index.ts';
import { servedVersions } from '../crd/serving.ts';
import { GenericStore } from '../generic-store.ts';
import { openTempStore } from '../testing.ts';
import type { Obj } from '../rest.ts';

// A CRD version with every validation stage: ObjectMeta, the schema, the scale subresource's
// replica paths, a list-type set, and a CEL rule.
const crd: Obj = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gizmos.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [{ rule: 'self.size == 1', message: 'size must be 1' }],
                properties: {
                  replicas: { type: 'integer' },
                  size: { type: 'integer' },
                  mode: { type: 'string', enum: ['a', 'b'] },
                  tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' } } },
            },
          },
        },
      },
    ],
  },
};

test('validation errors come in upstream order: ObjectMeta, schema, scale, list types, then CEL rules or the notice', async () => {
  const t = await openTempStore();
  try {
    const v = servedVersions(crd)[0]!;
    const store = new GenericStore({ store: t.store, info: v.info, strategy: v.strategy, codec: v.codec });
    const create = async (spec: Obj, name = 'g') => {
      try {
        await store.create('default', { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name, labels: { 'a b': 'x' } }, spec }, {});
      } catch (e) {
        assert.ok(e instanceof StatusError, String(e));
        return (e.status.details?.causes ?? []).map((c) => c.field);
      }
      assert.fail('expected Invalid');
    };
    // A blocking schema error (NotSupported): the rules are not run; the notice comes after the scale error.
    assert.deepEqual(await create({ replicas: -1, size: 2, mode: 'c', tags: ['x', 'x'] }), [
      'metadata.labels',
      'spec.mode',
      '.spec.replicas',
      'spec.tags[1]',
      '<nil>',
    ]);
    // No blocking error: the rule's own error comes last.
    assert.deepEqual(await create({ replicas: -1, size: 2, mode: 'a', tags: ['x', 'x'] }), ['metadata.labels', '.spec.replicas', 'spec.tags[1]', 'spec']);
  } finally {
    await t.close();
  }
});
