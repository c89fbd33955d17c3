/**
 * CRD-write compilation of x-kubernetes-validations: the CEL cases of Kubernetes' CRD validation
 * tables (testdata/k8s/crd-validation.json, TestValidateCustomResourceDefinitionValidation and the
 * CEL cases of TestValidateCustomResourceDefinition), matched on the errors this layer owns
 * (compile errors, cost limits, oldSelf and optionalOldSelf misuse, total cost); the schema errors
 * the case expects tell which nodes upstream leaves uncompiled. Plus cost-message and cardinality
 * checks. Prints passed/failed/skipped counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errorString } from '../../apimachinery/index.ts';
import { Path } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../types.ts';
import { costErrorMessage, validateRulesAtCRDWrite } from './crd-rules.ts';

const file = fileURLToPath(new URL('../../../testdata/k8s/crd-validation.json', import.meta.url));

interface Expected {
  type: string;
  field: string;
  contains?: string;
}
interface Case {
  name: string;
  source: string;
  validation?: { openAPIV3Schema?: JSONSchemaProps };
  crd?: { spec?: { validation?: { openAPIV3Schema?: JSONSchemaProps } } };
  oldCRD?: unknown;
  opts?: Record<string, boolean | string>;
  expectErrorDetails: Expected[];
}

/** Cases that cannot pass here, by name, each with its reason. */
const SKIP: Record<string, string> = {};

/** Whether an expected error is one validateRulesAtCRDWrite produces. */
function celOwned(e: Expected): boolean {
  if (/x-kubernetes-validations\[\d+\]\.(rule|messageExpression)$/.test(e.field)) return e.type !== 'FieldValueRequired';
  if (/x-kubernetes-validations\[\d+\]\.optionalOldSelf$/.test(e.field)) return true;
  if (e.type === 'InternalError' && e.field.endsWith('x-kubernetes-validations')) return true;
  if (e.type === 'FieldValueForbidden' && e.field.endsWith('openAPIV3Schema')) return true;
  return false;
}

test('CRD validation tables: x-kubernetes-validations compilation at CRD write', () => {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { cases: Case[] };
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  for (const c of data.cases) {
    const schema = c.validation?.openAPIV3Schema ?? c.crd?.spec?.validation?.openAPIV3Schema;
    if (schema === undefined || !JSON.stringify(schema).includes('x-kubernetes-validations')) continue;
    if (c.oldCRD !== undefined) continue; // update ratcheting of stored expressions is the CRD strategy's
    if (c.opts !== undefined && c.opts.requireStructuralSchema !== true) continue; // no CEL context upstream
    if (SKIP[c.name] !== undefined) {
      skipped++;
      continue;
    }
    const root = 'spec.validation.openAPIV3Schema';
    const others = c.expectErrorDetails.filter((e) => !celOwned(e));
    const want = c.expectErrorDetails.filter(celOwned);
    const r = validateRulesAtCRDWrite(schema, Path.of('spec', 'validation', 'openAPIV3Schema'), {
      compatibilityVersion: typeof c.opts?.celCompatibilityVersion === 'string' ? c.opts.celCompatibilityVersion : undefined,
      hasSchemaErrors: (node) => others.some((e) => e.field === node || e.field.startsWith(node + '.') || e.field.startsWith(node + '[')),
    });
    // With structural or schema errors upstream builds no CEL context: no CEL errors at all.
    const structuralBroken = others.some((e) => e.field === root || /\.(type|items|properties|nullable|default)$/.test(e.field) && e.type === 'FieldValueRequired');
    const got = structuralBroken ? [] : r.errors;
    const unmatched = [...want];
    const extra: string[] = [];
    for (const e of got) {
      const i = unmatched.findIndex((w) => w.type === e.type && w.field === e.field && (w.contains === undefined || errorString(e).includes(w.contains)));
      if (i >= 0) unmatched.splice(i, 1);
      else extra.push(errorString(e));
    }
    if (unmatched.length === 0 && extra.length === 0) passed++;
    else failures.push(`${c.name}: missing ${JSON.stringify(unmatched)} extra ${JSON.stringify(extra).slice(0, 600)}`);
  }
  console.log(`k8s crd-validation.json (CEL cases): ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
  assert.deepEqual(failures, []);
});

interface VersionedCRD {
  spec: { validation?: { openAPIV3Schema?: JSONSchemaProps }; versions?: { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }[] };
}

/** GetSchemaForVersion: a version's own schema, else the top-level one. */
function schemaFor(crd: VersionedCRD, version: string): JSONSchemaProps | undefined {
  return crd.spec.versions?.find((v) => v.name === version)?.schema?.openAPIV3Schema ?? crd.spec.validation?.openAPIV3Schema;
}

test('CRD updates: per-expression cost limits are suppressed for versions whose schema is unchanged', () => {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { cases: (Case & { crd: VersionedCRD; oldCRD?: VersionedCRD })[] };
  let n = 0;
  for (const c of data.cases) {
    if (c.source !== 'TestValidateCustomResourceDefinitionUpdate' || !JSON.stringify(c.crd).includes('x-kubernetes-validations')) continue;
    const got: string[] = [];
    (c.crd.spec.versions ?? []).forEach((v, i) => {
      const schema = v.schema?.openAPIV3Schema;
      if (schema === undefined) return;
      const old = c.oldCRD === undefined ? undefined : schemaFor(c.oldCRD, v.name);
      const unchanged = old !== undefined && JSON.stringify(old) === JSON.stringify(schema);
      const r = validateRulesAtCRDWrite(schema, Path.of('spec').child('versions').index(i).child('schema', 'openAPIV3Schema'), { suppressPerExpressionCost: unchanged });
      for (const e of r.errors) got.push(`${e.type} ${e.field}`);
    });
    const want = c.expectErrorDetails.filter(celOwned).map((e) => `${e.type} ${e.field}`);
    assert.deepEqual(got.sort(), want.sort(), c.name);
    n++;
  }
  assert.equal(n, 2);
});

test('cost error message as getCostErrorMessage prints it', () => {
  assert.equal(
    costErrorMessage('estimated rule cost', 12_000_000n, 10_000_000n),
    'estimated rule cost exceeds budget by factor of 1.200000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
  );
  assert.match(costErrorMessage('estimated rule cost', 25_000_000n, 10_000_000n), /factor of 2\.5x/);
  assert.match(costErrorMessage('estimated rule cost', 2_000_000_000n, 10_000_000n), /factor of more than 100x/);
});

test('maxItems bounds the cardinality of rules below a list', () => {
  const item: JSONSchemaProps = { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: "self.startsWith('a')" }] };
  const bounded = validateRulesAtCRDWrite({ type: 'object', properties: { l: { type: 'array', maxItems: 7, items: item } } }, Path.of('s'));
  const unbounded = validateRulesAtCRDWrite({ type: 'object', properties: { l: { type: 'array', items: item } } }, Path.of('s'));
  assert.equal(bounded.costs.length, 1);
  assert.equal(bounded.costs[0]!.cardinality, 7n);
  assert.equal(bounded.costs[0]!.cost, bounded.costs[0]!.compiled.maxCost * 7n);
  assert.equal(unbounded.costs[0]!.cardinality, undefined);
  // unbounded: the request-size estimate for a string (3 MiB / (2 + 1))
  assert.equal(unbounded.costs[0]!.cost, unbounded.costs[0]!.compiled.maxCost * 1048576n);
});

test('an expensive rule is forbidden with the maxItems/maxLength hint', () => {
  const r = validateRulesAtCRDWrite(
    { type: 'object', properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x != y || true))' }] } } },
    Path.of('spec', 'validation', 'openAPIV3Schema'),
  );
  const e = r.errors.find((x) => x.field === 'spec.validation.openAPIV3Schema.properties[l].x-kubernetes-validations[0].rule');
  assert.ok(e, JSON.stringify(r.errors.map(errorString)));
  assert.equal(e.type, 'FieldValueForbidden');
  assert.match(e.detail, /^estimated rule cost exceeds budget by factor of more than 100x \(try simplifying the rule, or adding maxItems/);
});
