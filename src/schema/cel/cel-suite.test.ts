/**
 * Kubernetes' CEL validation tables run as data (testdata/k8s/cel.json, converted from
 * apiextensions-apiserver pkg/apiserver/schema/cel/validation_test.go): each case compiles the
 * schema's rules, validates the object (against oldObject on update) and matches the errors,
 * warnings, remaining budget and runtime cost as the file's `conventions` say. Prints
 * passed/failed/skipped counts; every skip names its reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Path } from '../../apimachinery/index.ts';
import { errorString, type FieldError } from '../../apimachinery/index.ts';
import { GoFloat } from '../../apimachinery/index.ts';
import { parseGoJSON } from '../gojson.ts';
import { newStructural } from '../structural.ts';
import type { JSONSchemaProps } from '../types.ts';
import { compileCELValidator } from './validation.ts';

const file = fileURLToPath(new URL('../../../testdata/k8s/cel.json', import.meta.url));

interface Case {
  name: string;
  source: string;
  schema: unknown;
  object: unknown;
  oldObject?: unknown;
  isRoot: boolean;
  expectErrors?: string[];
  errorMatch?: string;
  expectErrorDetails?: { type: string; field: string }[];
  expectWarnings?: string[];
  ratcheting?: boolean;
  costBudget?: number | bigint;
  perCallLimit?: number | bigint;
  expectErrorCount?: number | bigint;
  expectedRemainingBudget?: number | bigint;
  expectSkipped?: boolean;
  expectedRuntimeCost?: number | bigint;
  expectLog?: string;
  /** Set on cases whose conversion slip was repaired from the upstream test (see README-cel.md). */
  patched?: string;
}

/** Cases that cannot pass here, by name, each with its reason. */
export const SKIP: Record<string, string> = {
};

/** Schemas hold no Go-typed numbers: unwrap GoFloat and bigint into plain numbers. */
function plain(v: unknown): unknown {
  if (v instanceof GoFloat) return v.value;
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

const num = (v: number | bigint | undefined): number | undefined => (v === undefined ? undefined : Number(v));

const ERROR_TYPE: Record<string, string> = {
  FieldValueInvalid: 'FieldValueInvalid',
  FieldValueForbidden: 'FieldValueForbidden',
  FieldValueRequired: 'FieldValueRequired',
  FieldValueDuplicate: 'FieldValueDuplicate',
};

/** Runs one case; undefined when it passes, else what went wrong. */
export function runCase(c: Case): string | undefined {
  const s = newStructural(plain(c.schema) as JSONSchemaProps);
  const budget = num(c.costBudget) ?? 10_000_000;
  // TestValidationExpressionsAtSchemaLevels builds its validators with validator() directly.
  const v = compileCELValidator(s, c.isRoot, { perCallLimit: num(c.perCallLimit), force: c.source === 'TestValidationExpressionsAtSchemaLevels' });
  const r = v === undefined ? { errors: [], warnings: [], remainingBudget: budget } : v.validate(c.object, c.oldObject, { path: Path.of('root'), budget, ratcheting: c.ratcheting === true });
  const errs = r.errors;
  const strs = errs.map(errorString);
  const show = () => JSON.stringify(strs);
  const expected = c.expectErrors ?? [];
  switch (c.errorMatch) {
    case undefined:
      if (errs.length > 0) return `unexpected errors ${show()}`;
      break;
    case 'all-contain': {
      if (errs.length === 0) return 'expected errors, got none';
      for (const e of errs) {
        if (!errorString(e).includes(expected[0]!)) return `error ${errorString(e)} does not contain ${expected[0]}`;
        if (e.type !== 'FieldValueInvalid') return `error type ${e.type}`;
      }
      break;
    }
    case 'one-to-one-contains': {
      if (errs.length !== expected.length) return `got ${errs.length} errors ${show()}, want ${expected.length}: ${JSON.stringify(expected)}`;
      const used = new Set<number>();
      for (const want of expected) {
        const i = strs.findIndex((s2, j) => !used.has(j) && s2.includes(want));
        if (i < 0) return `no error contains ${JSON.stringify(want)}: ${show()}`;
        used.add(i);
      }
      if (errs.some((e) => e.type !== 'FieldValueInvalid')) return `error types ${errs.map((e) => e.type)}`;
      break;
    }
    case 'count-equal-each-expected-contained': {
      if (errs.length !== expected.length) return `got ${errs.length} errors ${show()}, want ${expected.length}: ${JSON.stringify(expected)}`;
      for (const want of expected) if (!strs.some((s2) => s2.includes(want))) return `no error contains ${JSON.stringify(want)}: ${show()}`;
      const ww = c.expectWarnings ?? [];
      if (r.warnings.length !== ww.length) return `got warnings ${JSON.stringify(r.warnings)}, want ${JSON.stringify(ww)}`;
      for (const w of ww) if (!r.warnings.includes(w)) return `missing warning ${w}: ${JSON.stringify(r.warnings)}`;
      break;
    }
    case 'exact-type-and-field-unordered': {
      const got = errs.map((e: FieldError) => `${e.type} ${e.field}`).sort();
      const want = (c.expectErrorDetails ?? []).map((d) => `${ERROR_TYPE[d.type] ?? d.type} ${d.field}`).sort();
      if (JSON.stringify(got) !== JSON.stringify(want)) return `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
      break;
    }
    default:
      return `unknown errorMatch ${c.errorMatch}`;
  }
  if (c.expectErrorCount !== undefined && errs.length !== Number(c.expectErrorCount)) return `got ${errs.length} errors ${show()}, want ${c.expectErrorCount}`;
  if (c.expectedRemainingBudget !== undefined && r.remainingBudget !== Number(c.expectedRemainingBudget)) {
    return `remaining budget ${r.remainingBudget}, want ${c.expectedRemainingBudget}`;
  }
  if (c.expectSkipped && r.remainingBudget !== budget) return `rule ran (cost ${budget - r.remainingBudget})`;
  if (c.expectedRuntimeCost !== undefined && budget - r.remainingBudget !== Number(c.expectedRuntimeCost)) {
    return `runtime cost ${budget - r.remainingBudget}, want ${c.expectedRuntimeCost}`;
  }
  return undefined;
}

test('Kubernetes CEL validation tables (validation_test.go)', () => {
  const data = parseGoJSON(readFileSync(file, 'utf8'), { keepIntegralFloats: true }) as { cases: Case[] };
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  for (const c of data.cases) {
    const key = `${c.source}/${c.name}`;
    let f: string | undefined;
    try {
      f = runCase(c);
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
  console.log(`k8s cel.json: ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
  for (const [k, why] of Object.entries(SKIP)) console.log(`  skipped ${k}: ${why}`);
  assert.deepEqual(failures, []);
});
