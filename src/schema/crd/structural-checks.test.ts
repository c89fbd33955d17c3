// Structural-schema violations (NonStructuralSchema condition), from Kubernetes' integration test
// TestNonStructuralSchemaConditionForCRDV1Beta1MigratedData, plus unit cases for newStructural.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { nonStructuralCondition } from './nonstructural.ts';
import { validateStructural } from './structural-checks.ts';
import { newStructural, StructuralError } from '../structural.ts';
import { Path } from '../../apimachinery/index.ts';
import { errorString } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../types.ts';
import { loadVectors, Tally } from '../vectors.ts';

interface Case {
  name: string;
  preserveUnknownFields?: string;
  globalSchema?: JSONSchemaProps | null;
  v1beta1Schema?: JSONSchemaProps | null;
  v1Schema?: JSONSchemaProps | null;
  expectedViolations: string[];
  unexpectedViolations?: string[];
}

const file = loadVectors<Case>('structural-violations.json');
const tally = new Tally('structural-violations.json');
after(() => console.log(tally.summary()));

for (const c of file.cases) {
  test(`structural-violations: ${c.name}`, () => {
    // v1beta1 -> v1: an absent preserveUnknownFields defaults to true; the global schema is copied
    // into every version.
    const preserve = c.preserveUnknownFields !== 'false';
    const schemaFor = (perVersion: JSONSchemaProps | null | undefined) => {
      const s = perVersion ?? c.globalSchema;
      return s ? { openAPIV3Schema: s } : undefined;
    };
    const cond = nonStructuralCondition({
      preserveUnknownFields: preserve,
      versions: [
        { name: 'v1beta1', schema: schemaFor(c.v1beta1Schema) },
        { name: 'v1', schema: schemaFor(c.v1Schema) },
      ],
    });
    try {
      if (c.expectedViolations.length === 0) {
        assert.equal(cond, undefined, cond?.message);
      } else {
        assert.ok(cond, 'expected a NonStructuralSchema condition');
        assert.equal(cond.reason, 'Violations');
        for (const v of c.expectedViolations) assert.ok(cond.message.includes(v), `missing ${JSON.stringify(v)} in ${cond.message}`);
        for (const v of c.unexpectedViolations ?? []) assert.ok(!cond.message.includes(v), `unexpected ${JSON.stringify(v)}`);
      }
      tally.passed++;
    } catch (e) {
      tally.failed++;
      throw e;
    }
  });
}

test('newStructural rejects unsupported keywords with upstream messages', () => {
  const cases: [JSONSchemaProps, string][] = [
    [{ type: 'object', $ref: '#/x' }, "OpenAPIV3Schema '$ref' is not supported"],
    [{ type: 'object', id: 'x' }, "OpenAPIV3Schema 'id' is not supported"],
    [{ type: 'object', properties: { a: { type: 'string', definitions: { x: {} } } } }, "OpenAPIV3Schema 'definitions' is not supported"],
    [{ type: 'array', items: [{ type: 'string' }] }, "OpenAPIV3Schema 'items' must be a schema, but is an array"],
    [{ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }, "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"],
    [{ type: 'object', not: { additionalItems: true } }, "OpenAPIV3Schema 'additionalItems' is not supported"],
  ];
  for (const [schema, msg] of cases) {
    assert.throws(() => newStructural(schema), (e: unknown) => e instanceof StructuralError && e.message === msg);
  }
});

test('validateStructural accepts the int-or-string patterns and list/embedded rules', () => {
  const s = newStructural({
    type: 'object',
    properties: {
      port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      port2: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^a' }] },
      bad: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
      emb: { type: 'string', 'x-kubernetes-embedded-resource': true },
    },
  });
  const errs = validateStructural(Path.of('root'), s).map(errorString);
  assert.deepEqual(errs, [
    'root.properties[bad].anyOf[0].type: Forbidden: must be empty to be structural',
    'root.properties[bad].anyOf[1].type: Forbidden: must be empty to be structural',
    'root.properties[emb].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
    'root.properties[emb].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true',
  ]);
});

// Ported from Kubernetes' schema/validation_test.go TestValidateStructuralCompleteness.
test('validateStructuralCompleteness (TestValidateStructuralCompleteness)', async () => {
  const { validateStructuralCompleteness } = await import('./structural-checks.ts');
  const cases: { name: string; schema: JSONSchemaProps; opts: Record<string, boolean>; error?: string }[] = [
    {
      name: 'allowed properties valuevalidation, additional properties structure',
      schema: { additionalProperties: { type: 'object', properties: { bar: { type: 'string' } } }, allOf: [{ properties: { foo: { minLength: 2 } } }] },
      opts: { allowValidationPropertiesWithAdditionalProperties: true },
    },
    {
      name: 'disallowed properties valuevalidation, additional properties structure',
      schema: { additionalProperties: { type: 'object', properties: { bar: { type: 'string' } } }, allOf: [{ properties: { foo: { minLength: 2 } } }] },
      opts: {},
      error: 'properties[foo]: Required value: because it is defined in allOf[0].properties[foo]',
    },
    {
      name: 'disallowed additionalproperties valuevalidation, properties structure',
      schema: { properties: { bar: { type: 'string' } }, allOf: [{ additionalProperties: { minLength: 2 } }] },
      opts: { allowNestedAdditionalProperties: true },
      error: 'additionalProperties: Required value: because it is defined in allOf[0].additionalProperties',
    },
    {
      name: 'allowed property in valuevalidation, and in structure',
      schema: { properties: { foo: { type: 'string' } }, allOf: [{ properties: { foo: { minLength: 2 } } }] },
      opts: {},
    },
    {
      name: 'disallowed property in valuevalidation, and in structure',
      schema: { properties: { foo: { type: 'string' } }, allOf: [{ properties: { notfoo: { minLength: 2 } } }] },
      opts: {},
      error: 'properties[notfoo]: Required value: because it is defined in allOf[0].properties[notfoo]',
    },
    {
      name: 'allowed items in valuevalidation, and in structure',
      schema: { type: 'array', items: { type: 'string' }, allOf: [{ items: { minLength: 2 } }] },
      opts: {},
    },
    {
      name: 'disallowed items in valuevalidation, and not in structure',
      schema: { type: 'object', properties: { foo: { type: 'string' } }, allOf: [{ items: { minLength: 2 } }] },
      opts: {},
      error: 'items: Required value: because it is defined in allOf[0].items',
    },
  ];
  for (const c of cases) {
    const errs = validateStructuralCompleteness(Path.root(), newStructural(c.schema), c.opts).map(errorString);
    if (c.error === undefined) assert.deepEqual(errs, [], c.name);
    else assert.ok(errs.some((e) => e.includes(c.error!)), `${c.name}: ${errs.join('; ')}`);
  }
});

test('metadata at the root: only name and generateName may be constrained (TestValidateStructuralMetadataInvariants)', () => {
  for (const t of ['object', 'array', 'number', 'integer', 'boolean', 'string']) {
    const errs = validateStructural(Path.root(), newStructural({ type: 'object', properties: { metadata: { type: t } } }));
    assert.equal(errs.some((e) => e.field === 'properties[metadata].type'), t !== 'object', t);
  }
  const objectMetaFields = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];
  for (const f of objectMetaFields) {
    const errs = validateStructural(Path.root(), newStructural({ type: 'object', properties: { metadata: { type: 'object', properties: { [f]: { type: 'string' } } } } }));
    assert.equal(errs.some((e) => e.field === 'properties[metadata]' && e.type === 'FieldValueForbidden'), f !== 'name' && f !== 'generateName', f);
  }
  const extras: JSONSchemaProps[] = [{ description: 'x' }, { title: 'x' }, { nullable: true }, { maxProperties: 3 }, { 'x-kubernetes-map-type': 'atomic' }, { 'x-kubernetes-validations': [{ rule: 'true' }] }];
  for (const x of extras) {
    const errs = validateStructural(Path.root(), newStructural({ type: 'object', properties: { metadata: { type: 'object', ...x, properties: { name: { type: 'string' } } } } }));
    assert.ok(errs.some((e) => e.field === 'properties[metadata]' && e.type === 'FieldValueForbidden'), JSON.stringify(x));
  }
});
