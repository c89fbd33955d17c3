/**
 * Merge schemas from structural schemas and OpenAPI: what each x-kubernetes extension becomes,
 * and a custom resource applied through the field manager with the schema built from its CRD.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { newFieldManager } from '../../managedfields/field-manager.ts';
import { customResourceResetFields } from '../../managedfields/reset-fields.ts';
import type { Obj } from '../../managedfields/manager.ts';
import { newTypeConverter } from '../../managedfields/type-converter.ts';
import { TypedError } from '../typed/errors.ts';
import { asTyped } from '../typed/typed.ts';
import { schemaFromOpenAPI, SchemaConversionError, type OpenAPISchema } from './from-openapi.ts';
import { schemaFromStructural, type StructuralNode } from './from-structural.ts';
import { findNamedType, resolve, type Schema, type TypeRef } from './schema.ts';
import { setToJSON } from '../fieldpath/serialize.ts';

const components = (JSON.parse(readFileSync(new URL('../../../../testdata/smd/openapi/objectmeta.json', import.meta.url), 'utf8')) as { schemas: Record<string, OpenAPISchema> }).schemas;

type Spec = Partial<Omit<StructuralNode, 'properties' | 'items'>> & { properties?: Record<string, Spec>; items?: Spec };

/** A structural node with Go's zero values where the spec says nothing. */
function node(s: Spec): StructuralNode {
  const out: StructuralNode = { type: '', xPreserveUnknownFields: false, xEmbeddedResource: false, xIntOrString: false, ...s } as StructuralNode;
  if (s.properties !== undefined) out.properties = new Map(Object.entries(s.properties).map(([k, v]) => [k, node(v)]));
  if (s.items !== undefined) out.items = node(s.items);
  return out;
}

const str = node({ type: 'string' });

function crontab(): { schema: Schema; typeRef: TypeRef } {
  const root = node({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          cronSpec: { type: 'string' },
          replicas: { type: 'integer' },
          ports: {
            type: 'array',
            xListType: 'map',
            xListMapKeys: ['name', 'protocol'],
            items: { type: 'object', properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' }, port: { type: 'integer' } } },
          },
          tags: { type: 'array', xListType: 'set', items: { type: 'string' } },
          args: { type: 'array', items: { type: 'string' } },
          selector: { type: 'object', xMapType: 'atomic', additionalProperties: { structural: str, bool: true } },
          env: { type: 'object', additionalProperties: { structural: str, bool: true } },
          extra: { type: 'object', xPreserveUnknownFields: true },
          port: { xIntOrString: true },
          template: { type: 'object', xEmbeddedResource: true, properties: { spec: { type: 'object', xPreserveUnknownFields: true } } },
          when: { type: 'string', valueValidation: { format: 'date-time' } },
        },
      },
    },
  });
  return schemaFromStructural(root, { name: 'com.example.stable.v1.CronTab', components });
}

test('structural schemas become merge schema atoms as kube-apiserver builds them', () => {
  const { schema, typeRef } = crontab();
  const rootAtom = resolve(schema, typeRef)!;
  const field = (tr: TypeRef, name: string) => resolve(schema, resolve(schema, tr)!.map!.fields!.find((f) => f.name === name)!.type)!;
  const specRef = rootAtom.map!.fields!.find((f) => f.name === 'spec')!.type;
  assert.deepEqual(field(specRef, 'ports').list!.keys, ['name', 'protocol']);
  assert.equal(field(specRef, 'ports').list!.elementRelationship, 'associative');
  assert.equal(resolve(schema, field(specRef, 'ports').list!.elementType)!.map!.fields!.find((f) => f.name === 'protocol')!.default, 'TCP');
  assert.equal(field(specRef, 'tags').list!.elementRelationship, 'associative');
  assert.equal(field(specRef, 'tags').list!.keys, undefined);
  assert.equal(field(specRef, 'args').list!.elementRelationship, 'atomic', 'lists without a list type are atomic');
  assert.equal(field(specRef, 'selector').map!.elementRelationship, 'atomic');
  assert.equal(field(specRef, 'env').map!.elementRelationship, undefined);
  assert.deepEqual(field(specRef, 'extra').map!.elementType, { namedType: '__untyped_deduced_' });
  assert.deepEqual(Object.keys(field(specRef, 'port')).sort(), ['list', 'map', 'scalar'], 'int-or-string takes any value');
  assert.equal(field(specRef, 'when').scalar, 'untyped', 'formatted strings are untyped scalars');
  const templateFields = field(specRef, 'template').map!.fields!.map((f) => f.name).sort();
  assert.deepEqual(templateFields, ['apiVersion', 'kind', 'metadata', 'spec']);
  assert.deepEqual(rootAtom.map!.fields!.map((f) => f.name).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  assert.ok(findNamedType(schema, 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'));
});

test('values are validated against the converted schema with upstream messages', () => {
  const { schema, typeRef } = crontab();
  const v = (spec: Obj) => asTyped({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x' }, spec }, schema, typeRef);
  assert.doesNotThrow(() => v({ ports: [{ name: 'a' }, { name: 'a', protocol: 'UDP' }], port: 'http', extra: { any: { thing: [1] } } }));
  assert.throws(() => v({ ports: [{ name: 'a' }, { name: 'a', protocol: 'TCP' }] }), { message: '.spec.ports: duplicate entries for key [name="a",protocol="TCP"]' });
  assert.throws(() => v({ tags: ['x', 'x'] }), { message: '.spec.tags: duplicate entries for key [="x"]' });
  assert.throws(() => v({ unknown: 1 }), (e: unknown) => e instanceof TypedError && e.message === '.spec.unknown: field not declared in schema');
  assert.throws(() => v({ replicas: 'x' }), { message: '.spec.replicas: expected numeric (int or float), got string' });
});

test('an apply to a custom resource merges list-map items by key and keeps atomic lists whole', () => {
  const { schema, typeRef } = crontab();
  const typeConverter = newTypeConverter(schema, new Map([['stable.example.com/v1/CronTab', typeRef]]));
  const fm = newFieldManager({ typeConverter, apiVersion: 'stable.example.com/v1', kind: 'CronTab', now: () => '2026-01-01T00:00:00Z' });
  const ct = (spec: Obj): Obj => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c', labels: { a: '1' } }, spec });
  let live = fm.apply({ apiVersion: 'stable.example.com/v1', kind: 'CronTab' }, ct({ ports: [{ name: 'web', port: 80 }], args: ['a'] }), 'one', false);
  live = fm.apply(live, ct({ ports: [{ name: 'metrics', port: 9090 }], args: ['b'] }), 'two', true);
  assert.deepEqual((live.spec as Obj).ports, [{ name: 'web', port: 80 }, { name: 'metrics', port: 9090 }]);
  assert.deepEqual((live.spec as Obj).args, ['b']);
  const mf = (live.metadata as { managedFields: { manager: string; fieldsV1: unknown }[] }).managedFields;
  assert.equal(
    JSON.stringify(mf.find((e) => e.manager === 'one')!.fieldsV1),
    '{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:ports":{"k:{\\"name\\":\\"web\\",\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},"f:port":{}}}}}',
  );
  assert.equal(
    JSON.stringify(mf.find((e) => e.manager === 'two')!.fieldsV1),
    '{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:args":{},"f:ports":{"k:{\\"name\\":\\"metrics\\",\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},"f:port":{}}}}}',
  );
});

test('schemaconv errors are collected and reported together', () => {
  assert.throws(
    () => schemaFromOpenAPI({ a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'map' }, b: { type: 'object', 'x-kubernetes-map-type': 'weird' } }),
    (e: unknown) => e instanceof SchemaConversionError && e.message === 'a: missing map keys\nb: unknown map type weird',
  );
});

test('without a schema every field is deduced: maps granular, lists atomic', () => {
  const { schema, typeRef } = schemaFromStructural(undefined, { name: 'x', components });
  const set = asTyped({ a: { b: [1, 2] }, c: 'd' }, schema, typeRef).toFieldSet();
  // Undeclared fields are members themselves, so the parent map is owned too.
  assert.equal(setToJSON(set), '{"f:a":{".":{},"f:b":{}},"f:c":{}}');
});

test('with a status subresource, the main resource owns no status and the status endpoint no spec', () => {
  const { schema, typeRef } = schemaFromStructural(
    node({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } }, status: { type: 'object', properties: { b: { type: 'string' } } } } }),
    { name: 'com.example.stable.v1.Thing', components },
  );
  const typeConverter = newTypeConverter(schema, new Map([['stable.example.com/v1/Thing', typeRef]]));
  const gv = 'stable.example.com/v1';
  const opts = { typeConverter, apiVersion: gv, kind: 'Thing', now: () => '2026-01-01T00:00:00Z' };
  const main = newFieldManager({ ...opts, resetFields: customResourceResetFields([gv], '') });
  const status = newFieldManager({ ...opts, subresource: 'status', resetFields: customResourceResetFields([gv], 'status') });
  const obj = { apiVersion: gv, kind: 'Thing', metadata: { name: 't' }, spec: { a: 'x' }, status: { b: 'y' } };
  const created = main.update({ apiVersion: gv, kind: 'Thing' }, obj, 'creator');
  const mf = (o: Obj) => (o.metadata as { managedFields: { manager: string; subresource?: string; fieldsV1: unknown }[] }).managedFields;
  assert.equal(JSON.stringify(mf(created)[0]!.fieldsV1), '{"f:spec":{".":{},"f:a":{}}}');
  const viaStatus = status.update(created, { ...obj, spec: { a: 'changed' }, status: { b: 'z' } }, 'controller');
  const ctl = mf(viaStatus).find((e) => e.manager === 'controller')!;
  assert.equal(ctl.subresource, 'status');
  assert.equal(JSON.stringify(ctl.fieldsV1), '{"f:status":{"f:b":{}}}');
  assert.equal(customResourceResetFields([], ''), undefined);
});
