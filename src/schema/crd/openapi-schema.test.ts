// CRD openAPIV3Schema validation, from Kubernetes' apiextensions validation_test.go
// (crd-validation.json: multiset of (type, field[, contains])). The cases that validate a whole
// CustomResourceDefinition object (names, versions, conversion, ...) belong to the CRD strategy.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { validateCustomResourceValidation, type SchemaValidationOptions } from './openapi-schema.ts';
import { schemaOptionsForCreate, schemaOptionsForUpdate, validateSpecSchemas, type CRDSpecSchemas } from './spec-schemas.ts';
import { Path } from '../../apimachinery/index.ts';
import { errorString, type FieldError } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../types.ts';
import { loadVectors, Tally } from '../vectors.ts';

interface Expect {
  type: string;
  field: string;
  contains?: string;
}
interface Case {
  name: string;
  source: string;
  validation?: { openAPIV3Schema?: JSONSchemaProps };
  statusEnabled?: boolean;
  opts?: SchemaValidationOptions & { celCompatibilityVersion?: string };
  crd?: { spec: CRDSpecSchemas };
  oldCRD?: { spec: CRDSpecSchemas };
  expectErrorDetails: Expect[];
}

/** An error this module produces: one inside a schema (not "schema missing", a spec-level rule). */
const isSchemaError = (e: Expect) =>
  /^spec\.(validation|versions\[\d+\]\.schema)\.openAPIV3Schema(\.|$)/.test(e.field) &&
  !(e.type === 'FieldValueRequired' && e.field.endsWith('openAPIV3Schema'));

const file = loadVectors<Case>('crd-validation.json');
const tally = new Tally('crd-validation.json');
after(() => console.log(tally.summary()));

const hasRules = (s: unknown) => JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? String(v) : v)).includes('"x-kubernetes-validations"');

/** Each produced error matched by exactly one expected entry and vice versa. */
function matches(got: FieldError[], want: Expect[]): boolean {
  if (got.length !== want.length) return false;
  const used = new Array(want.length).fill(false);
  for (const g of got) {
    const s = errorString(g);
    const i = want.findIndex((w, j) => !used[j] && w.type === g.type && w.field === g.field && (w.contains === undefined || s.includes(w.contains)));
    if (i < 0) return false;
    used[i] = true;
  }
  return true;
}

for (const c of file.cases) {
  test(`crd-validation: ${c.source}: ${c.name}`, (t) => {
    if (c.source !== 'TestValidateCustomResourceDefinitionValidation') {
      if (c.name.startsWith('suppress per-expression cost limit')) {
        const why = 'which versions kept their schema (and so skip per-expression cost limits) is decided by CRD validation: runs in src/registry/crd/validation.test.ts';
        tally.skip(c.name, why);
        t.skip(why);
        return;
      }
      if (!c.expectErrorDetails.every(isSchemaError)) {
        const why = 'expects errors of the CRD object itself (names, versions, conversion, status): runs in src/registry/crd/validation.test.ts';
        tally.skip(c.name, why);
        t.skip(why);
        return;
      }
      const opts = c.oldCRD ? schemaOptionsForUpdate(c.oldCRD.spec) : schemaOptionsForCreate();
      const got = validateSpecSchemas(c.crd!.spec, opts);
      try {
        assert.ok(matches(got, c.expectErrorDetails), `got:\n  ${got.map((e) => `${e.type} ${errorString(e)}`).join('\n  ')}`);
        tally.passed++;
      } catch (e) {
        tally.failed++;
        throw e;
      }
      return;
    }
    const got = validateCustomResourceValidation(c.validation, c.statusEnabled === true, c.opts ?? {}, Path.of('spec', 'validation'));
    try {
      assert.ok(
        matches(got, c.expectErrorDetails),
        `got:\n  ${got.map((e) => `${e.type} ${errorString(e)}`).join('\n  ')}\nwant:\n  ${c.expectErrorDetails.map((e) => `${e.type} ${e.field} ${e.contains ?? ''}`).join('\n  ')}`,
      );
      tally.passed++;
    } catch (e) {
      tally.failed++;
      throw e;
    }
  });
}
