// Compiling on first use and sharing by content (compile.ts, compile-cache.ts, deferred.ts), on
// the vendored CRD bundles: the lazy forms must answer exactly as eager compiling does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';
import { errorString } from '../apimachinery/index.ts';
import { compileSchema } from './compile.ts';
import { sharedCount } from './compile-cache.ts';
import { compileCELValidator } from './cel/index.ts';
import { deferredSource, deferStructural, hasRulesInJSON } from './deferred.ts';
import { newStructural, StructuralError, type Structural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';

const bundles = new URL('../../testdata/crds/bundles/', import.meta.url).pathname;

/**
 * Every version schema of the vendored bundles, named `crd/version`; but Argo Workflows', whose
 * 12 MB of YAML would double the time and which have no rules.
 */
function vendoredSchemas(): { name: string; schema: JSONSchemaProps }[] {
  const out: { name: string; schema: JSONSchemaProps }[] = [];
  for (const f of readdirSync(bundles)) {
    if (f.startsWith('argo-workflows')) continue;
    for (const d of parseAllDocuments(gunzipSync(readFileSync(bundles + f)).toString())) {
      const o = d.toJS() as { kind?: string; metadata: { name: string }; spec: { versions: { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }[] } } | null;
      if (o?.kind !== 'CustomResourceDefinition') continue;
      for (const v of o.spec.versions) if (v.schema?.openAPIV3Schema) out.push({ name: `${o.metadata.name}/${v.name}`, schema: v.schema.openAPIV3Schema });
    }
  }
  return out;
}

/** Rules anywhere on the structural spine, where compileCELValidator looks for them. */
function structuralHasRules(s: Structural | undefined): boolean {
  if (s === undefined) return false;
  if ((s.xValidations?.length ?? 0) > 0) return true;
  return structuralHasRules(s.items) || structuralHasRules(s.additionalProperties?.structural) || [...(s.properties?.values() ?? [])].some(structuralHasRules);
}

test('hasRulesInJSON agrees with the structural schema on every vendored CRD version', () => {
  const schemas = vendoredSchemas();
  assert.ok(schemas.length >= 190, `only ${schemas.length} schemas`);
  let withRules = 0;
  for (const { name, schema } of schemas) {
    const eager = structuralHasRules(newStructural(schema));
    assert.equal(hasRulesInJSON(schema), eager, name);
    if (eager) withRules++;
  }
  // Both answers occur, so the agreement says something.
  assert.ok(withRules >= 20 && withRules < schemas.length, `${withRules} of ${schemas.length} have rules`);
});

test('compileSchema builds nothing until used: a schema newStructural refuses fails at the first call', () => {
  const c = compileSchema({ type: 'object', properties: { a: { $ref: '#/x' } } } as JSONSchemaProps);
  assert.ok(c.structural !== undefined && deferredSource(c.structural) !== undefined);
  assert.throws(() => c.validate({ a: 1 }), StructuralError);
  // The same error every time, not a half-built validator.
  assert.throws(() => c.prune({ a: 1 }), StructuralError);
});

test('the deferred structural schema reads as the built one', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } }, required: ['spec'] };
  let builds = 0;
  const d = deferStructural(schema, () => (builds++, newStructural(schema)!));
  assert.equal(builds, 0);
  const real = newStructural(schema)!;
  assert.equal(d.type, 'object');
  assert.deepEqual(Object.keys(d), Object.keys(real));
  assert.deepEqual({ ...d }, { ...real });
  assert.ok(d.properties?.get('spec')?.properties?.has('n'));
  assert.equal(builds, 1);
});

test('equal schemas share one compiled form; a different one does not', () => {
  const make = (max: number): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer', maximum: max } } } } });
  const before = sharedCount();
  const a = compileSchema(make(3));
  const b = compileSchema(make(3));
  const c = compileSchema(make(4));
  assert.equal(sharedCount(), before, 'nothing is compiled before use');
  const obj = { spec: { n: 4 } };
  assert.deepEqual(a.validate(obj).map(errorString), ['spec.n: Invalid value: 4: spec.n in body should be less than or equal to 3']);
  assert.deepEqual(b.validate(obj).map(errorString), ['spec.n: Invalid value: 4: spec.n in body should be less than or equal to 3']);
  assert.equal(sharedCount(), before + 1);
  assert.deepEqual(c.validate(obj), []);
  assert.equal(sharedCount(), before + 2);
});

test('CEL rules of a lazily compiled schema run on first validation, and an invalid object is refused', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { min: { type: 'integer' }, max: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max' }] } },
  };
  const c = compileSchema(schema);
  const rules = compileCELValidator(c.structural, true);
  assert.ok(rules !== undefined);
  assert.deepEqual(rules.validate({ spec: { min: 1, max: 2 } }).errors, []);
  assert.deepEqual(rules.validate({ spec: { min: 3, max: 2 } }).errors.map(errorString), ['spec: Invalid value: min must not exceed max']);
  assert.equal(rules.rules().length, 1);
  // A schema without rules has no CEL validator, as when compiled eagerly.
  assert.equal(compileCELValidator(compileSchema({ type: 'object', properties: { a: { type: 'string' } } }).structural, true), undefined);
});
