import assert from 'node:assert/strict';
import test from 'node:test';
import { newStructural, StructuralError } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';

test('newStructural reads every keyword it converts, x-kubernetes-* extensions included', () => {
  const s = newStructural({
    type: 'object',
    description: 'd',
    'x-kubernetes-validations': [{ rule: 'true' }],
    properties: {
      list: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], maxItems: 3, items: { type: 'object', required: ['k'] } },
      map: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string', enum: ['a'] } },
      any: { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      res: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      n: { type: 'number', minimum: 1, exclusiveMinimum: true, default: 2, nullable: true, format: 'double' },
    },
  })!;
  assert.equal(s.type, 'object');
  assert.equal(s.description, 'd');
  assert.deepEqual(s.xValidations, [{ rule: 'true' }]);
  const p = s.properties!;
  assert.equal(p.get('list')!.xListType, 'map');
  assert.deepEqual(p.get('list')!.xListMapKeys, ['k']);
  assert.equal(p.get('list')!.valueValidation!.maxItems, 3);
  assert.deepEqual(p.get('list')!.items!.valueValidation!.required, ['k']);
  assert.equal(p.get('map')!.xMapType, 'atomic');
  assert.deepEqual(p.get('map')!.additionalProperties!.structural!.valueValidation!.enum, ['a']);
  assert.equal(p.get('any')!.xPreserveUnknownFields, true);
  assert.equal(p.get('any')!.xIntOrString, true);
  assert.equal(p.get('any')!.valueValidation!.anyOf!.length, 2);
  assert.equal(p.get('any')!.valueValidation!.anyOf![0]!.forbiddenGenerics.type, 'integer');
  assert.equal(p.get('res')!.xEmbeddedResource, true);
  const n = p.get('n')!;
  assert.deepEqual([n.valueValidation!.minimum, n.valueValidation!.exclusiveMinimum, n.default, n.nullable, n.valueValidation!.format], [1, true, 2, true, 'double']);
});

test('newStructural does not take the field names of the model for keywords', () => {
  // `xListType` and friends are how the structural model names the extensions, not JSON keywords.
  const s = newStructural({ type: 'array', xListType: 'set', xPreserveUnknownFields: false, valueValidation: {} } as unknown as JSONSchemaProps)!;
  assert.equal(s.xListType, undefined);
  assert.equal(s.xPreserveUnknownFields, false);
  assert.equal(s.valueValidation!.format, '');
});

test('newStructural reports unsupported keywords in upstream order', () => {
  const err = (s: unknown) => {
    try {
      newStructural(s as JSONSchemaProps);
    } catch (e) {
      assert.ok(e instanceof StructuralError);
      return e.message;
    }
    return undefined;
  };
  assert.equal(err({ $ref: '#/x', id: 'a' }), "OpenAPIV3Schema 'id' is not supported");
  assert.equal(err({ definitions: { a: {} }, $schema: 's' }), "OpenAPIV3Schema 'schema' is not supported");
  assert.equal(err({ additionalItems: false, patternProperties: { a: {} } }), "OpenAPIV3Schema 'patternProperties' is not supported");
  assert.equal(err({ properties: { a: { anyOf: [{ $ref: '#/y' }] } } }), "OpenAPIV3Schema '$ref' is not supported");
  assert.equal(err({ 'x-kubernetes-preserve-unknown-fields': false }), "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
  assert.equal(err({ items: [{}] }), "OpenAPIV3Schema 'items' must be a schema, but is an array");
  assert.equal(err({ patternProperties: {}, dependencies: {}, definitions: {}, items: [] }), undefined);
});
