/**
 * Kubernetes' CEL cost stability tables run as data (testdata/k8s/cel-cost.json, converted from
 * apiextensions-apiserver pkg/apiserver/schema/cel/celcoststability_test.go): the runtime cost a
 * passing rule consumes while validating its object, and the estimated max cost of a compiled rule
 * (with the schema's maxLength / maxItems / maxProperties and request-size bounds). Exact figures.
 * Prints passed/failed/skipped counts; every skip names its reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errorString } from '../../apimachinery/index.ts';
import { GoFloat } from '../../apimachinery/index.ts';
import { parseGoJSON } from '../gojson.ts';
import { newStructural } from '../structural.ts';
import type { JSONSchemaProps } from '../types.ts';
import { compileRules } from './compile.ts';
import { schemaDeclType } from './types.ts';
import { compileCELValidator } from './validation.ts';

const file = fileURLToPath(new URL('../../../testdata/k8s/cel-cost.json', import.meta.url));

interface Case {
  name: string;
  source: string;
  kind: 'runtime' | 'estimated';
  schema: unknown;
  object?: unknown;
  isRoot: boolean;
  expectRuntimeCost?: number | bigint;
  expectEstimatedMaxCost?: number | bigint;
}

/** Cases that cannot pass here, by `source/name`, each with its reason. */
export const SKIP: Record<string, string> = {
};

function plain(v: unknown): unknown {
  if (v instanceof GoFloat) return v.value;
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

const BUDGET = 10_000_000;

/** Runs one case; undefined when it passes. */
export function runCostCase(c: Case): string | undefined {
  const s = newStructural(plain(c.schema) as JSONSchemaProps)!;
  if (c.kind === 'runtime') {
    const v = compileCELValidator(s, c.isRoot);
    if (v === undefined) return 'no validator';
    const r = v.validate(c.object, undefined, { budget: BUDGET });
    if (r.errors.length > 0) return `errors ${JSON.stringify(r.errors.map(errorString))}`;
    const cost = BUDGET - r.remainingBudget;
    return cost === Number(c.expectRuntimeCost) ? undefined : `runtime cost ${cost}, want ${c.expectRuntimeCost}`;
  }
  const compiled = compileRules(s, schemaDeclType(s, c.isRoot));
  const r = compiled[0];
  if (r === undefined) return 'no rule';
  if (r.error) return `compile error ${r.error.detail}`;
  return r.maxCost === BigInt(c.expectEstimatedMaxCost!) ? undefined : `estimated max cost ${r.maxCost}, want ${c.expectEstimatedMaxCost}`;
}

test('Kubernetes CEL cost stability tables (celcoststability_test.go)', () => {
  const data = parseGoJSON(readFileSync(file, 'utf8'), { keepIntegralFloats: true }) as { cases: Case[] };
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  for (const c of data.cases) {
    const key = `${c.source}/${c.name}`;
    let f: string | undefined;
    try {
      f = runCostCase(c);
    } catch (e) {
      f = `threw ${(e as Error).stack}`;
    }
    if (SKIP[key] !== undefined) {
      // a skipped case that passes has outlived its reason
      if (f === undefined) failures.push(`${key}: passes now, remove it from SKIP`);
      else skipped++;
      continue;
    }
    if (f === undefined) passed++;
    else failures.push(`${key}: ${f}`);
  }
  console.log(`k8s cel-cost.json: ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
  for (const [k, why] of Object.entries(SKIP)) console.log(`  skipped ${k}: ${why}`);
  assert.deepEqual(failures, []);
});
