/**
 * Runtime cost, pinned against Kubernetes' TestCelCostStability figures
 * (testdata/cel-runtime-cost/): each rule, evaluated with `self` bound to its object under the
 * options Kubernetes uses (has() free, OptOptimize), must consume exactly the recorded cost. Also
 * checks the cost limit and the iteration limit cancel evaluation with cel-go's message.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DynType } from '../check/types.ts';
import { Env, allExtensionLibraries } from '../index.ts';
import { CelMap, type Val } from './values.ts';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
}

interface Case {
  rule: string;
  schema: Schema;
  object: unknown;
  cost: number;
}

/** JSON object -> CEL value following the schema's types (integer -> int, number -> double). */
function fromSchema(s: Schema | undefined, v: unknown): Val {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map((e) => fromSchema(s?.items, e));
  if (typeof v === 'object') {
    const m = new CelMap();
    const ap = typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined;
    for (const [k, x] of Object.entries(v)) m.m.set(k, fromSchema(s?.properties?.[k] ?? ap, x));
    return m;
  }
  if (typeof v === 'number') return s?.type === 'number' ? v : BigInt(v);
  return v as Val;
}

const cases = JSON.parse(readFileSync(new URL('../../../testdata/cel-runtime-cost/cases.json', import.meta.url), 'utf8')) as Case[];

const k8sEnv = (costLimit?: number) =>
  new Env({
    variables: { self: DynType },
    libraries: [...allExtensionLibraries],
    crossTypeNumericComparisons: true,
    presenceTestHasCost: false,
    costLimit,
  });

test('runtime cost matches Kubernetes TestCelCostStability', () => {
  const env = k8sEnv();
  const wrong: string[] = [];
  for (const c of cases) {
    const compiled = env.compile(c.rule);
    assert.ok(compiled.program, `${c.rule}: ${compiled.issues}`);
    const r = compiled.program.eval({ self: fromSchema(c.schema, c.object) });
    // (Some rules rely on list-type map/set equality, which the schema layer supplies; only the cost matters here.)
    assert.equal(r.error, undefined, `${c.rule}: ${r.error?.message}`);
    if (r.cost !== c.cost) wrong.push(`${c.rule}: ${r.cost}, want ${c.cost}`);
  }
  assert.deepEqual(wrong, []);
  assert.ok(cases.length > 150);
});

test('cost table: literals, calls, selects and has()', () => {
  const table: [string, number, boolean?][] = [
    ['1', 0],
    ['[1, 2]', 0], // folded by the optimizer
    ['[self.a]', 12], // self, .a, list creation
    ['{"a": self.a}', 32],
    ['self.a + 1', 3],
    ["'abc' == 'abc'", 1],
    ["'' == ''", 0], // ceil(0 * 0.1)
    ['self.s.startsWith("ab")', 3], // ceil(5 * 0.1) + self + .s
    ["self.s.matches('^a')", 3], // ceil((1 + 5) * 0.1) * ceil(2 * 0.25) + self + .s
    ["self.s.matches('^abc+d*e?f')", 5], // ceil(0.6) * ceil(11 * 0.25) + 2
    ['has(self.a)', 1, false],
    ['has(self.a)', 2, true],
    ['true ? self.a : self.b', 1], // a ternary branch's root identifier is not observed
    ["self.s in ['a', 'abcde']", 2], // set membership on a constant list: no call cost
    ['self.s in [self.s]', 15], // 2 + list 10 + 2 + in_list size 1
    ["int('12') + 1", 1], // the conversion of a constant is folded
    ["['a', 'b'][1] == 'b'", 3], // index of a non-attribute: relative attribute 1 + qualifier 1, == 1
    ["{'k': 1}.k", 2], // select on a literal: relative attribute 1 + qualifier 1
  ];
  for (const [expr, want, presence] of table) {
    const env = new Env({ variables: { self: DynType }, presenceTestHasCost: presence ?? false });
    const c = env.compile(expr);
    assert.ok(c.program, `${expr}: ${c.issues}`);
    const r = c.program.eval({ self: fromSchema(undefined, { a: 1, b: 2, s: 'abcde' }) });
    assert.equal(r.error, undefined, expr);
    assert.equal(r.cost, want, expr);
  }
});

test('a failing index still costs its attribute (Kubernetes TestMessageExpression)', () => {
  const c = new Env({}).compile('"str1 " + ["a", "b", "c", "d"][4]');
  assert.ok(c.program);
  const r = c.program.eval({});
  assert.equal(r.error?.message, 'index out of bounds: 4');
  assert.equal(r.cost, 3);
});

test('a qualified variable costs 1 when checked, 1 per part when resolved at run time', () => {
  const checked = new Env({ variables: { 'a.b.c': DynType } }).compile('a.b.c');
  assert.equal(checked.program?.eval({ 'a.b.c': 1n }).cost, 1);
  const unchecked = new Env({ disableCheck: true }).compile('a.b.c');
  assert.equal(unchecked.program?.eval({ 'a.b.c': 1n }).cost, 3);
});

test('exceeding the cost limit cancels evaluation', () => {
  const c = k8sEnv(100).compile('self.all(x, x > 0)');
  assert.ok(c.program);
  const small = c.program.eval({ self: Array.from({ length: 5 }, () => 1n) });
  assert.equal(small.value, true);
  const big = c.program.eval({ self: Array.from({ length: 1000 }, () => 1n) });
  assert.equal(big.error?.message, 'operation cancelled: actual cost limit exceeded');
  assert.ok(big.cost > 100 && big.cost < 200, `stops soon after the limit, at ${big.cost}`);
});

test('the iteration limit cancels long comprehensions', () => {
  const env = new Env({ variables: { self: DynType }, iterationLimit: 10 });
  const c = env.compile('self.map(x, x).size()');
  assert.ok(c.program);
  assert.equal(c.program.eval({ self: [1n, 2n] }).value, 2n);
  const r = c.program.eval({ self: Array.from({ length: 11 }, () => 1n) });
  assert.match(r.error!.message, /^operation cancelled/);
});
