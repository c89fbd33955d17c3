import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { compileSchema } from '../../src/schema/compile.ts';
import type { JSONSchemaProps } from '../../src/schema/types.ts';
import { invalidCertificates, validCertificates } from './certificates.ts';
import { toJSONSchema } from './jsonschema.ts';
import { crdVersionSchema } from './manifests.ts';

const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;
const root = new URL('../..', import.meta.url).pathname;
const known = new Set(['int32', 'int64', 'date-time']);

function strictAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  addFormats(ajv);
  return ajv;
}

describe('toJSONSchema', () => {
  const cases: { name: string; input: JSONSchemaProps; expected: Record<string, unknown>; notes?: string[] }[] = [
    {
      name: 'nullable adds null to the type and the enum',
      input: { type: 'string', nullable: true, enum: ['a', 'b'] },
      expected: { type: ['string', 'null'], enum: ['a', 'b', null] },
    },
    {
      name: 'int-or-string becomes a type list, anyOf kept',
      input: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: '^[0-9]+%$' },
      expected: { type: ['integer', 'string'], anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: '^[0-9]+%$' },
      notes: [],
    },
    {
      name: 'boolean exclusive bounds become numeric ones',
      input: { type: 'number', maximum: 10, exclusiveMaximum: true, minimum: 0, exclusiveMinimum: false },
      expected: { type: 'number', exclusiveMaximum: 10, minimum: 0 },
    },
    {
      name: 'x-kubernetes keys dropped and counted, nested schemas converted',
      input: {
        type: 'object',
        'x-kubernetes-validations': [{ rule: 'self.a > 0' }],
        properties: {
          a: { type: 'integer', format: 'int32' },
          l: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } },
          m: { type: 'object', additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: 'true' }] } },
        },
      },
      expected: {
        type: 'object',
        properties: {
          a: { type: 'integer', format: 'int32' },
          l: { type: 'array', items: { type: ['string', 'null'] } },
          m: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      notes: ['dropped x-kubernetes-validations (2 places)', 'dropped x-kubernetes-list-type (1 place)'],
    },
    {
      name: 'unknown formats dropped with their path, annotations silently',
      input: { type: 'object', properties: { d: { type: 'string', format: 'duration', example: '1h' }, t: { type: 'string', format: 'date-time' } } },
      expected: { type: 'object', properties: { d: { type: 'string' }, t: { type: 'string', format: 'date-time' } } },
      notes: ['dropped format "duration" at .d (not a format the peer knows)'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const before = structuredClone(c.input);
      const got = toJSONSchema(c.input, { knownFormats: known });
      assert.deepEqual(got.schema, c.expected);
      if (c.notes) assert.deepEqual(got.notes, c.notes);
      assert.deepEqual(c.input, before, 'input not modified');
    });
  }

  it('prune closes objects Kubernetes prunes, and only those', () => {
    const input: JSONSchemaProps = {
      type: 'object',
      properties: {
        open: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
        emb: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
        map: { type: 'object', additionalProperties: { type: 'string' } },
        bare: { type: 'object' },
      },
    };
    const s = toJSONSchema(input, { knownFormats: known, prune: true }).schema as { additionalProperties?: boolean; properties: Record<string, { additionalProperties?: unknown }> };
    assert.equal(s.additionalProperties, false);
    assert.equal(s.properties.open!.additionalProperties, undefined);
    assert.equal(s.properties.emb!.additionalProperties, undefined);
    assert.deepEqual(s.properties.map!.additionalProperties, { type: 'string' });
    assert.equal(s.properties.bare!.additionalProperties, undefined);
    assert.equal(toJSONSchema(input, { knownFormats: known }).schema.additionalProperties, undefined);
  });

  it('converts the real CRD schemas into schemas strict ajv compiles', () => {
    const schemas = [
      crdVersionSchema(join(root, 'testdata/crds/gateway-api/crds/standard-install.yaml'), 'httproutes.gateway.networking.k8s.io', 'v1beta1'),
      crdVersionSchema(join(root, 'testdata/crds/gateway-api/crds/standard-install.yaml'), 'gateways.gateway.networking.k8s.io', 'v1'),
      crdVersionSchema(join(root, 'testdata/crds/cert-manager/cert-manager.crds.yaml'), 'certificates.cert-manager.io', 'v1'),
    ];
    for (const s of schemas) {
      const ajv = strictAjv();
      const conv = toJSONSchema(s, { knownFormats: new Set(Object.keys(ajv.formats)) });
      assert.equal(typeof ajv.compile(conv.schema), 'function');
      assert.ok(conv.notes.every((n) => n.startsWith('dropped x-kubernetes-')), conv.notes.join('; '));
    }
  });

  it('ajv on the converted Certificate schema judges the benchmark Certificates as ours does', () => {
    const schema = crdVersionSchema(join(root, 'testdata/crds/cert-manager/cert-manager.crds.yaml'), 'certificates.cert-manager.io', 'v1');
    const ajv = strictAjv();
    const peer = ajv.compile(toJSONSchema(schema, { knownFormats: new Set(Object.keys(ajv.formats)) }).schema);
    const ours = compileSchema(schema);
    for (const d of validCertificates()) {
      assert.deepEqual(ours.validate(d), [], `ours accepts ${JSON.stringify(d.metadata)}`);
      assert.equal(peer(d), true, `ajv accepts ${JSON.stringify(d.metadata)}: ${JSON.stringify(peer.errors)}`);
    }
    for (const d of invalidCertificates()) {
      assert.notEqual(ours.validate(d).length, 0, `ours rejects ${JSON.stringify(d.metadata)}`);
      assert.equal(peer(d), false, `ajv rejects ${JSON.stringify(d.metadata)}`);
    }
  });
});
