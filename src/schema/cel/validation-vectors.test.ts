/**
 * The CEL-rule cases of Kubernetes' object-validation table (validation.json, from
 * pkg/apiserver/validation): the schema validator's errors and the CEL validator's (isRoot=false)
 * together must equal the expected set exactly. The table's other cases run in
 * src/schema/validate/validator.test.ts.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { errorString } from '../../apimachinery/index.ts';
import { newStructural } from '../structural.ts';
import type { JSONSchemaProps } from '../types.ts';
import { compileValidator } from '../validate/validator.ts';
import { loadVectors, Tally } from '../vectors.ts';
import { compileCELValidator } from './validation.ts';

interface Case {
  name: string;
  schema: JSONSchemaProps;
  object: unknown;
  oldObject?: unknown;
  compatibilityVersion?: string;
  expectErrors: string[];
}

const hasRules = (s: unknown) => JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? String(v) : v)).includes('"x-kubernetes-validations"');
const file = loadVectors<Case>('validation.json');
const tally = new Tally('validation.json (CEL rule cases)');
after(() => console.log(tally.summary()));

const cases = file.cases.filter((c) => hasRules(c.schema));

test('validation.json has CEL rule cases', () => assert.ok(cases.length >= 6));

for (const c of cases) {
  test(`validation (rules): ${c.name}`, () => {
    const schemaErrs = compileValidator(c.schema, { compatibilityVersion: c.compatibilityVersion }).validate(c.object);
    const cel = compileCELValidator(newStructural(c.schema), false);
    assert.ok(cel, 'the schema has rules, so a CEL validator is compiled');
    const celErrs = cel.validate(c.object, c.oldObject).errors;
    const got = [...new Set([...schemaErrs, ...celErrs].map(errorString))].sort();
    try {
      assert.deepEqual(got, [...new Set(c.expectErrors)].sort());
      tally.passed++;
    } catch (e) {
      tally.failed++;
      throw e;
    }
  });
}
