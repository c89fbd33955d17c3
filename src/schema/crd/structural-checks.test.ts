// Structural-schema violations (NonStructuralSchema condition), from Kubernetes' integration test
// TestNonStructuralSchemaConditionForCRDV1Beta1MigratedData, plus unit cases for newStructural.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { nonStructuralCondition } from './nonstructural.ts';
import { validateStructural } from './structural-checks.ts';
import { newStructural, StructuralError } from '../structural.ts';
import { Path } from '../../apimachinery/field/path.ts';
import { errorString } from '../../apimachinery/field/errors.ts';
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
