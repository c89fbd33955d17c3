/**
 * Hostile expressions through Env: deep nesting, huge literals, exponential comprehensions,
 * doubling bindings, huge allocations and catastrophic regular expressions end in a clear error
 * (or a result) within the cost limit, quickly: never a hang, an uncaught exception or a crash.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Env, KUBERNETES_PER_CALL_LIMIT, allExtensionLibraries } from './index.ts';

const env = new Env({ libraries: [...allExtensionLibraries], costLimit: KUBERNETES_PER_CALL_LIMIT, variables: {} });

/** Compiles and evaluates; returns the issues' first line, the error or the value, and the time taken. */
function outcome(expr: string, e = env): { compile?: string; error?: string; value?: unknown; ms: number } {
  const t0 = performance.now();
  const c = e.compile(expr);
  if (!c.program) return { compile: c.issues.split('\n')[0], ms: performance.now() - t0 };
  const r = c.program.eval({});
  const ms = performance.now() - t0;
  return r.error ? { error: r.error.message, ms } : { value: r.value, ms };
}

const nest = (n: number, inner: string, wrap: (s: string, i: number) => string) => {
  let s = inner;
  for (let i = 0; i < n; i++) s = wrap(s, i);
  return s;
};

test('deep nesting is a parse error (recursion limits), not a stack overflow', () => {
  for (const expr of [
    nest(5000, '1', (s) => `(${s})`),
    nest(5000, '1', (s) => `[${s}]`),
    nest(5000, '1', (s) => `{1: ${s}}`),
    nest(3000, 'x', (s, i) => `[1].map(v${i}, ${s})`),
    'a' + '.b'.repeat(20000),
    Array(12000).fill('1').join(' + '),
  ]) {
    const o = outcome(expr);
    assert.match(o.compile ?? '', /recursion limit exceeded|max recursion depth exceeded/, expr.slice(0, 60));
    assert.ok(o.ms < 5000, `${o.ms}ms`);
  }
  // Long unary chains and logical chains (balanced by the parser, as cel-go does) evaluate.
  assert.equal(outcome('!'.repeat(50000) + 'true').value, true);
  assert.equal(outcome(Array(10000).fill('true').join(' && ')).value, true);
});

test('huge literals: over the size limit a parse error, under it a value', () => {
  assert.match(outcome(`'${'a'.repeat(200_000)}'`).compile ?? '', /expression code point size exceeds limit: size: 200002, limit 100000/);
  assert.equal(outcome(`size('${'a'.repeat(99_000)}')`).value, 99_000n);
  assert.equal(outcome(`[${Array(30_000).fill('1').join(',')}].size()`).value, 30_000n);
});

test('exponential comprehensions stop at the cost limit', () => {
  // 2^30 innermost evaluations without the limit.
  const expr = nest(30, '[1, 2]', (s, i) => `[1, 2].map(v${i}, ${s})`);
  const o = outcome(expr);
  assert.equal(o.error, 'operation cancelled: actual cost limit exceeded');
  assert.ok(o.ms < 5000, `${o.ms}ms`);
  const all = outcome(nest(25, 'true', (s, i) => `[1, 2, 3].all(v${i}, ${s})`));
  assert.equal(all.error, 'operation cancelled: actual cost limit exceeded');
});

test('bindings that double a value per level stop at the cost limit', () => {
  let s = 'a60.size()';
  for (let i = 60; i > 0; i--) s = `cel.bind(a${i}, a${i - 1} + a${i - 1}, ${s})`;
  const o = outcome(`cel.bind(a0, 'ab', ${s})`);
  assert.equal(o.error, 'operation cancelled: actual cost limit exceeded');
  // cel-go concatenates lists lazily, at cost 1 and no memory; here lists are arrays, so a list
  // past MAX_ALLOCATED_LIST elements cancels the evaluation instead of aborting the process.
  const lists = outcome(`cel.bind(a0, [1], ${nest(60, 'size(a60)', (b, i) => `cel.bind(a${60 - i}, a${59 - i} + a${59 - i}, ${b})`)})`);
  assert.equal(lists.error, 'operation cancelled: a list of 33554432 elements exceeds the maximum of 16777216');
  assert.ok(lists.ms < 10000, `${lists.ms}ms`);
});

test('allocations sized by an argument are refused before they are made', () => {
  assert.equal(outcome('lists.range(3000000000).size()').error, 'operation cancelled: actual cost limit exceeded');
  assert.equal(outcome('lists.range(100000000).size()').error, 'operation cancelled: actual cost limit exceeded');
  const unlimited = new Env({ libraries: [...allExtensionLibraries] });
  assert.equal(outcome('lists.range(3000000000).size()', unlimited).error, 'operation cancelled: a list of 3000000000 elements exceeds the maximum of 16777216');
  assert.equal(outcome('lists.range(1000).size()').value, 1000n);
  // A string beyond what the JS engine can hold is a cancellation, not a crash.
  let s = 'a12.size()';
  for (let i = 12; i > 0; i--) s = `cel.bind(a${i}, a${i - 1}.replace('', a${i - 1}), ${s})`;
  assert.match(outcome(`cel.bind(a0, 'abcdefgh', ${s})`, unlimited).error ?? '', /^operation cancelled: (value too large \(Invalid string length\)|actual cost limit exceeded)$/);
});

test('catastrophic regular expressions run in linear time (RE2)', () => {
  const o = outcome(`'${'a'.repeat(30)}!'.matches('(a+)+$')`);
  assert.equal(o.value, false);
  const big = outcome(`'${'a'.repeat(50_000)}!'.matches('(a+)+$') || '${'a'.repeat(40_000)}'.matches('(a|aa)*c')`);
  assert.equal(big.value, false);
  assert.ok(big.ms < 5000, `${big.ms}ms`);
  // The textbook exponential case for backtracking engines.
  const opt = outcome(`'${'a'.repeat(200)}'.matches('^${'a?'.repeat(200)}${'a'.repeat(200)}$')`);
  assert.equal(opt.value, true);
  assert.ok(opt.ms < 5000, `${opt.ms}ms`);
  // Long data against an unanchored pattern: linear too (no quadratic backtracking).
  const dataEnv = new Env({ libraries: [...allExtensionLibraries], costLimit: KUBERNETES_PER_CALL_LIMIT, variables: { x: { kind: 'string' } } });
  const c = dataEnv.compile("x.matches('[a-z]+0') || x.matches('a*b')");
  assert.ok(c.program);
  const t0 = performance.now();
  assert.equal(c.program.eval({ x: 'a'.repeat(200_000) }).value, false);
  assert.ok(performance.now() - t0 < 2000, `${performance.now() - t0}ms`);
  assert.equal(outcome(`'a'.matches('a{1000}{1000}')`).error, 'error parsing regexp: invalid nested repetition operator: `{1000}{1000}`');
});

test('quantities whose exact decimal arithmetic would need a billion digits are cancelled, quickly', async () => {
  const { kubernetesEnvOptions } = await import('./index.ts');
  const k8s = new Env(kubernetesEnvOptions());
  for (const expr of [
    "quantity('1e999999999').add(quantity('1')).isInteger()",
    "sign(quantity('1e-999999999')) == 1",
    "isQuantity('1.0000000000000000001e999999999')",
    "quantity('1e-2147483648').sub(quantity('1')).isInteger()",
  ]) {
    const o = outcome(expr, k8s);
    assert.match(o.error ?? '', /^operation cancelled: value too large \(quantity needs more than 100000 decimal digits\)$/, expr);
    assert.ok(o.ms < 2000, `${expr}: ${o.ms}ms`);
  }
  // Large exponents that need no alignment still compute, as upstream.
  assert.equal(outcome("quantity('1e999999999').compareTo(quantity('1')) == 1 && quantity('1e999999999') == quantity('1000e999999996')", k8s).value, true);
  assert.equal(outcome("quantity('1e99999').add(quantity('1')).isGreaterThan(quantity('1e99999'))", k8s).value, true);
});
