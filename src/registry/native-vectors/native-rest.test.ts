/**
 * Kubernetes' validation tables for PersistentVolume, the PVC data source and status rules, the
 * PodDisruptionBudget and Ingress status rules and the resource.k8s.io kinds
 * and Events written through events.k8s.io (testdata/k8s-native/native-rest/), run through each
 * kind's real strategy — its status strategy where a file names the `status` subresource, the
 * request's group in its context where a file names one — and the claim strategy's data source
 * handling (persistentvolumeclaim-datasource-prepare.json) as data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorString } from '../../apimachinery/index.ts';
import { builtinResources } from '../builtin/catalog.ts';
import { BuiltinStrategy } from '../builtin/strategy.ts';
import { prepareDataSources } from '../core/persistentvolumeclaim/validation.ts';
import type { Obj } from '../rest.ts';
import type { RequestContext, Strategy } from '../strategy.ts';
import { expand, vectorFiles, type VectorFile } from './vectors.ts';
import { loadAllKindSemantics } from '../builtin/native-index.ts';

// The kind folders load on first use of a kind's store; these tables run the strategies directly.
await loadAllKindSemantics();

type File = VectorFile & { subresource?: 'status' };

const prepareFile = 'persistentvolumeclaim-datasource-prepare.json';
const files = vectorFiles('native-rest').filter((f) => f.file !== prepareFile) as { file: string; vectors: File }[];

/** The kind's strategy for the file's endpoint (its schema is never compiled: native rules stand in for it). */
function strategyFor(v: File): Strategy {
  const r = builtinResources().find((x) => `${x.group}/${x.resource}` === v.resource);
  assert.ok(r, `no built-in resource ${v.resource}`);
  const s = new BuiltinStrategy(r, () => {
    throw new Error(`${v.resource} fell back to its OpenAPI schema: it has no native rules`);
  });
  if (v.subresource === undefined) return s;
  const sub = s.subresourceStrategy('status');
  assert.ok(sub, `${v.resource} has no status subresource`);
  return sub;
}

test('native-rest vectors: every file is there', () => {
  assert.ok(files.length >= 14, `only ${files.length} vector files`);
  const total = files.reduce((n, f) => n + f.vectors.cases.length, 0);
  const skipped = files.flatMap((f) => f.vectors.skipped.map((s) => `${f.file} ${s.name}: ${s.reason}`));
  assert.ok(total >= 210, `only ${total} cases`);
  console.log(`native-rest: ${total} cases in ${files.length} files, ${skipped.length} skipped${skipped.length ? `\n  ${skipped.join('\n  ')}` : ''}`);
});

for (const { file, vectors } of files) {
  test(`native-rest ${file} (${vectors.source})`, () => {
    assert.ok(vectors.cases.length >= vectors.minCases, `${file}: ${vectors.cases.length} cases, at least ${vectors.minCases} expected`);
    for (const s of vectors.skipped) assert.ok(s.reason.trim().length > 0, `${file}: ${s.name} is skipped without a reason`);
    const s = strategyFor(vectors);
    for (const c of vectors.cases) {
      const ctx: RequestContext = { warnings: [], fieldValidation: 'Strict', dryRun: false, subresource: vectors.subresource, requestGroup: vectors.requestGroup };
      const obj = expand(c.object) as Obj;
      const old = c.old === undefined ? undefined : (expand(c.old) as Obj);
      const errors = (old === undefined ? s.validate(ctx, obj) : s.validateUpdate(ctx, obj, old)).map(errorString);
      assert.deepEqual(errors, c.errors, `${file}: ${c.name}`);
      if (c.warnings !== undefined) assert.deepEqual(old === undefined ? s.warningsOnCreate(ctx, obj) : s.warningsOnUpdate(ctx, obj, old), c.warnings, `${file}: ${c.name} (warnings)`);
    }
  });
}

interface PrepareCase {
  name: string;
  spec: Record<string, unknown>;
  oldSpec?: Record<string, unknown>;
  expected: Record<string, unknown>;
}

test(`native-rest ${prepareFile}: the claim strategy's data sources before validation`, () => {
  const v = JSON.parse(readFileSync(new URL(`../../../testdata/k8s-native/native-rest/${prepareFile}`, import.meta.url), 'utf8')) as { minCases: number; cases: PrepareCase[] };
  assert.ok(v.cases.length >= v.minCases && v.minCases >= 9, `${v.cases.length} cases`);
  for (const c of v.cases) {
    const spec = structuredClone(c.spec);
    prepareDataSources(spec, c.oldSpec);
    assert.deepEqual(spec, c.expected, c.name);
  }
});
