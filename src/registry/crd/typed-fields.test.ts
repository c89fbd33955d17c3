import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dropUnknownCRDFields } from './typed-fields.ts';

test('unknown CRD fields: reported by path in the order met, and dropped', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'foos.example.com', bogusMeta: 1, ownerReferences: [{ name: 'o', typo: true }] },
    spec: {
      group: 'example.com',
      bogus: 1,
      names: { kind: 'Foo', plural: 'foos', plurals: 'x' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schemas: {},
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', typo: 1, allOf: [{ required: ['a'], extra: 2 }] } },
              'x-kubernetes-validations': [{ rule: 'true', mesage: 'm' }],
            },
          },
          subresources: { status: { x: 1 } },
        },
      ],
    },
    status: { storedVersions: ['v1'], observedGeneration: 1, oops: 1 },
  };
  assert.deepEqual(dropUnknownCRDFields(crd), [
    'metadata.bogusMeta',
    'metadata.ownerReferences[0].typo',
    'spec.bogus',
    'spec.names.plurals',
    'spec.versions[0].schemas',
    'spec.versions[0].schema.openAPIV3Schema.properties.spec.typo',
    'spec.versions[0].schema.openAPIV3Schema.properties.spec.allOf[0].extra',
    'spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].mesage',
    'spec.versions[0].subresources.status.x',
    'status.oops',
  ]);
  assert.deepEqual(crd.metadata, { name: 'foos.example.com', ownerReferences: [{ name: 'o' }] });
  assert.deepEqual(crd.spec.names, { kind: 'Foo', plural: 'foos' });
  assert.deepEqual(crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec, { type: 'object', allOf: [{ required: ['a'] }] });
  assert.deepEqual(crd.spec.versions[0]!.subresources, { status: {} });
  assert.deepEqual(crd.status, { storedVersions: ['v1'], observedGeneration: 1 });
  // Nothing left to report on a second pass.
  assert.deepEqual(dropUnknownCRDFields(crd), []);
});

test('schemas under items, additionalProperties, additionalItems and dependencies decode leniently; default and enum hold any JSON', () => {
  const schema = {
    type: 'object',
    properties: {
      a: { type: 'array', items: { type: 'string', typo: 1 } },
      b: { type: 'object', additionalProperties: { type: 'string', typo: 2, properties: { c: { typo: 3 } } } },
      t: { type: 'array', items: [{ type: 'string', typo: 4 }], additionalItems: { typo: 5 } },
      d: { type: 'object', dependencies: { x: { typo: 6 }, y: ['z'] } },
      e: { type: 'object', default: { anything: 1 }, enum: [{ goes: 2 }], example: { here: 3 } },
    },
  };
  const crd = { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] } };
  assert.deepEqual(dropUnknownCRDFields(crd), []);
  const p = schema.properties;
  assert.deepEqual(p.a.items, { type: 'string' });
  assert.deepEqual(p.b.additionalProperties, { type: 'string', properties: { c: {} } });
  assert.deepEqual(p.t, { type: 'array', items: [{ type: 'string' }], additionalItems: {} });
  assert.deepEqual(p.d.dependencies, { x: {}, y: ['z'] });
  assert.deepEqual(p.e, { type: 'object', default: { anything: 1 }, enum: [{ goes: 2 }], example: { here: 3 } });
});
