/**
 * cel-go's static cost table (checker/cost_test.go TestCost), run as data from
 * testdata/cel-checker: each expression is parsed, checked and estimated with cel-go's test size
 * estimator, and the [min, max] figures must match exactly. Prints passed/failed/skipped counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from '../syntax/parser.ts';
import { check } from './checker.ts';
import { CheckEnv } from './env.ts';
import {
  STRING_TRAVERSAL_COST_FACTOR,
  add,
  estimateCost,
  fixed,
  multiply,
  multiplyByFactor,
  type AstNode,
  type CallCostEstimator,
  type SizeEstimate,
  type SizeEstimator,
} from './cost.ts';
import { standardLibrary } from '../lib/std/decls.ts';
import { BytesType, listOf, parseType, structType, typeParams, kindOf, type TypeProvider } from './types.ts';

const dataDir = fileURLToPath(new URL('../../../testdata/cel-checker/', import.meta.url));

interface Case {
  name?: string;
  expr: string;
  vars?: { name: string; type: string }[];
  hints?: Record<string, number>;
  options?: { presenceTestHasCost?: boolean; overloadEstimators?: string[] };
  wanted: [string, string];
}

const table = JSON.parse(readFileSync(dataDir + 'cost_cases.json', 'utf8')) as { cases: Case[] };
const protos = JSON.parse(readFileSync(dataDir + 'test_all_types.json', 'utf8')) as {
  messages: Record<string, Record<string, string>>;
};

const testTypes: TypeProvider = {
  findStructType: (name) => (protos.messages[name] ? structType(name) : undefined),
  findFieldType: (s, f) => {
    const t = protos.messages[s]?.[f];
    return t === undefined ? undefined : { type: parseType(t) };
  },
};

/** cel-go's testCostEstimator: hints by dotted path, else bytes are at most 12 long. */
function hintEstimator(hints: Record<string, number>): SizeEstimator {
  return (node) => {
    const key = (node.path ?? []).join('.');
    if (key in hints) return { min: 0n, max: BigInt(hints[key]!) };
    if (kindOf(node.type) === 'bytes') return { min: 0n, max: 12n };
    return undefined;
  };
}

/** cel-go's testCostEstimator.EstimateCallCost: getFullYear() costs 7. */
const testCallCost: CallCostEstimator = (_fn, id) => (id === 'timestamp_to_year' ? fixed(7n) : undefined);

/** The Go closures two cases pass as OverloadCostEstimate, written again. */
const overloadEstimators: Record<string, CallCostEstimator> = {
  contains_string: (_fn, _id, target, args, sizeOf) => {
    if (!target || args.length !== 1) return undefined;
    const strSize = multiplyByFactor(sizeOf(target), 0.2);
    const subSize = multiplyByFactor(sizeOf(args[0]!), 0.2);
    return multiply(strSize, subSize);
  },
  list_bytes_max: (_fn, _id, target, _args, sizeOf) => {
    if (!target) return undefined;
    let elCost = fixed(1n);
    const params = typeParams(target.type);
    if (params.length === 0) return undefined;
    const elNode: AstNode = {
      path: target.path ? [...target.path, '@items'] : undefined,
      type: params[0]!,
      expr: undefined,
      computedSize: undefined,
    };
    const k = kindOf(elNode.type);
    if (k === 'string' || k === 'bytes') {
      const sz: SizeEstimate = sizeOf(elNode);
      elCost = add(elCost, multiplyByFactor(sz, STRING_TRAVERSAL_COST_FACTOR));
    }
    return multiply(sizeOf(target), elCost);
  },
};

test('cel-go static cost table', () => {
  let passed = 0;
  const failed: string[] = [];
  const skipped: string[] = [];
  for (const c of table.cases) {
    const p = parse(c.expr);
    if (!p.parsed) {
      failed.push(`${c.expr}: parse errors ${p.issues.toString()}`);
      continue;
    }
    const env = new CheckEnv({ provider: testTypes, libraries: [standardLibrary] });
    env.addFunction({
      name: 'max',
      overloads: [{ id: 'list_bytes_max', receiver: true, params: [listOf(BytesType)], result: BytesType }],
    });
    for (const v of c.vars ?? []) env.addVariable(v.name, parseType(v.type));
    const r = check(p.parsed, env);
    if (!r.checked) {
      failed.push(`${c.expr}: check errors ${r.issues.toString()}`);
      continue;
    }
    const custom: Record<string, CallCostEstimator> = {};
    for (const id of c.options?.overloadEstimators ?? []) custom[id] = overloadEstimators[id]!;
    const est = estimateCost(r.checked, {
      sizeEstimator: hintEstimator(c.hints ?? {}),
      presenceTestHasCost: c.options?.presenceTestHasCost ?? true,
      overloadEstimators: custom,
      callCost: testCallCost,
    });
    const got = [est.min.toString(), est.max.toString()];
    if (got[0] !== c.wanted[0] || got[1] !== c.wanted[1]) {
      failed.push(`${c.name ?? ''} ${c.expr}: got [${got.join(', ')}], want [${c.wanted.join(', ')}]`);
    } else {
      passed++;
    }
  }
  console.log(`cel-go cost table: ${passed} passed, ${failed.length} failed, ${skipped.length} skipped`);
  assert.deepEqual(failed, []);
});
