/**
 * Kubernetes' CEL library tests run as data: the tables of k8s.io/apiserver pkg/cel/library
 * (quantity, ip, cidr, semver, format), upstream's documented examples of the lists and url
 * libraries, and the self-free rules of apiextensions' CEL validation tests
 * (testdata/cel-kubernetes/library_cases.json), evaluated through the public Env with
 * the libraries installed; and apimachinery's resource.Quantity parse/format tables
 * (quantity_model.json) against the Quantity port. Prints passed/failed/skipped counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Env, extensionLibraries, formatValue } from '../../index.ts';
import { equals } from '../../eval/values.ts';
import { Quantity, kubernetesLibraries, kubernetesTypeNames, parseQuantity, withKubernetesTypes } from './index.ts';

const dataDir = fileURLToPath(new URL('../../../../testdata/cel-kubernetes/', import.meta.url));
const load = (f: string) => JSON.parse(readFileSync(dataDir + f, 'utf8'));

interface Case {
  library: string;
  name: string;
  expr: string;
  expect?: string;
  runtimeError?: string;
  runtimeErrorPattern?: string;
  compileErrorPattern?: string;
}

/** Cases that cannot pass here, each with its reason. */
const SKIP: Record<string, string> = {};

const env = new Env({
  libraries: [extensionLibraries.strings, ...kubernetesLibraries],
  provider: withKubernetesTypes(),
  typeNames: kubernetesTypeNames,
});

function run(c: Case): string | undefined {
  const compiled = env.compile(c.expr);
  if (c.compileErrorPattern !== undefined) {
    if (!compiled.issues) return 'compiled, expected a compile error';
    return new RegExp(c.compileErrorPattern).test(compiled.issues) ? undefined : `issues ${compiled.issues}`;
  }
  if (!compiled.program) return `compile: ${compiled.issues}`;
  const r = compiled.program.eval({});
  if (c.runtimeError !== undefined || c.runtimeErrorPattern !== undefined) {
    if (!r.error) return `no error, value ${formatValue(r.value)}`;
    if (c.runtimeError !== undefined) return r.error.message === c.runtimeError ? undefined : `error ${r.error.message}`;
    return new RegExp(c.runtimeErrorPattern!).test(r.error.message) ? undefined : `error ${r.error.message}`;
  }
  if (r.error) return `error ${r.error.message}`;
  const want = env.compile(c.expect!);
  if (!want.program) return `expectation does not compile: ${want.issues}`;
  const w = want.program.eval({});
  if (w.error) return `expectation fails: ${w.error.message}`;
  return equals(r.value, w.value) ? undefined : `got ${formatValue(r.value)}, want ${formatValue(w.value)}`;
}

test('Kubernetes library tables', () => {
  const data = load('library_cases.json') as { cases: Case[] };
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  for (const c of data.cases) {
    const key = `${c.library}/${c.name}: ${c.expr}`;
    if (SKIP[key]) {
      skipped++;
      continue;
    }
    const f = run(c);
    if (f === undefined) passed++;
    else failures.push(`${key}: ${f}`);
  }
  console.log(`kubernetes library cases: ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
  assert.deepEqual(failures, []);
});

test('resource.Quantity parse table (apimachinery TestQuantityParse)', () => {
  const data = load('quantity_model.json');
  let n = 0;
  for (const c of data.parse as { input: string; unscaled: string; exponent: number; format: string }[]) {
    const want = Quantity.fromDecimal(BigInt(c.unscaled), c.exponent, c.format as never);
    for (const [sign, input] of [
      [1n, c.input],
      [-1n, '-' + c.input],
      [1n, '+' + c.input],
    ] as const) {
      const got = parseQuantity(input);
      assert.ok(got instanceof Quantity, `${input}: ${got}`);
      const expected = Quantity.fromDecimal(BigInt(c.unscaled) * sign, c.exponent, c.format as never);
      assert.equal(expected.cmp(got), 0, `${input}: got ${got.toString()}, want ${want.toString()}`);
      assert.equal(got.format, c.format, input);
      n++;
    }
    // Once in decimal form (as after upstream's AsDec), a quantity never converts to int64.
    const asDec = (parseQuantity(c.input) as Quantity).copy();
    asDec.asDec();
    assert.equal(asDec.asInt64(), undefined, `${c.input}: a decimal never converts to int64`);
  }
  for (const s of data.invalid as string[]) assert.ok(!(parseQuantity(s) instanceof Quantity), `${JSON.stringify(s)} parsed`);
  assert.ok(!(parseQuantity('') instanceof Quantity));
  console.log(`resource.Quantity parse: ${n} passed, ${data.invalid.length} invalid rejected`);
});

test('resource.Quantity canonical strings (apimachinery TestQuantityString, TestQuantityParseEmit)', () => {
  const data = load('quantity_model.json');
  let n = 0;
  for (const c of data.string as { unscaled: string; exponent: number; format: string; expect: string; alternate: string }[]) {
    const q = Quantity.fromDecimal(BigInt(c.unscaled), c.exponent, c.format as never);
    assert.equal(q.toString(), c.expect);
    const parsed = parseQuantity(c.expect) as Quantity;
    assert.equal(parsed.s, c.expect, `${c.expect}: canonical input is kept`);
    if (c.alternate) {
      const alt = parseQuantity(c.alternate) as Quantity;
      assert.equal(alt.s, '', `${c.alternate}: non-canonical input is not kept`);
      assert.equal(alt.toString(), c.expect, c.alternate);
    }
    if (q.sign() !== 0) assert.equal(Quantity.fromDecimal(-BigInt(c.unscaled), c.exponent, c.format as never).toString(), '-' + c.expect);
    n++;
  }
  for (const c of data.parseEmit as { input: string; expect: string }[]) {
    assert.equal((parseQuantity(c.input) as Quantity).toString(), c.expect, c.input);
    assert.equal((parseQuantity('-' + c.input) as Quantity).toString(), '-' + c.expect, '-' + c.input);
    n++;
  }
  console.log(`resource.Quantity strings: ${n} passed`);
});

/** Runtime cost cases that differ here, each with its reason. */
const COST_SKIP: Record<string, string> = {
  "'01234567890123456789012345678901234567890123456789'.indexOf('123')":
    "Kubernetes' CallCost charges every `indexOf` one traversal of its receiver, including the strings extension's string overload; that overload's cost is declared by lib/strings.ts, not by this library",
  "'01234567890123456789012345678901234567890123456789'.lastIndexOf('123')":
    "as indexOf: the strings extension's lastIndexOf cost is declared by lib/strings.ts",
  "size('abc 123 def 123'.split(' ')) > 0":
    "Kubernetes charges split one traversal per result as well (ceil(size x 2 x 0.1)); the strings extension's split cost is declared by lib/strings.ts",
  "size(['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')) > 0":
    "Kubernetes charges join by its result size (ceil(size x 2 x 0.1)); the strings extension's join cost is declared by lib/strings.ts",
};

test('runtime costs (apiserver library cost_test.go)', () => {
  const data = load('runtime_cost_cases.json') as { cases: { suite: string; expr: string; runtimeCost: number }[] };
  const plain = new Env({ libraries: [extensionLibraries.strings, ...kubernetesLibraries], presenceTestHasCost: false, optimize: false });
  const optimized = new Env({ libraries: [extensionLibraries.strings, ...kubernetesLibraries], presenceTestHasCost: false, optimize: true });
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  const all = [...data.cases.map((c) => ({ ...c, env: plain })), ...(data as unknown as { optimizedCases: typeof data.cases }).optimizedCases.map((c) => ({ ...c, env: optimized }))];
  for (const c of all) {
    const costEnv = c.env;
    if (COST_SKIP[c.expr]) {
      skipped++;
      continue;
    }
    const compiled = costEnv.compile(c.expr);
    if (!compiled.program) {
      failures.push(`${c.expr}: ${compiled.issues}`);
      continue;
    }
    const r = compiled.program.eval({});
    if (r.cost === c.runtimeCost) passed++;
    else failures.push(`${c.suite} ${c.expr}: cost ${r.cost}, want ${c.runtimeCost}`);
  }
  console.log(`kubernetes runtime costs: ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
  assert.deepEqual(failures, []);
});

test('authorizer library: checks reach the Authorizer with upstream attributes', async () => {
  const { AuthorizerType, denyAllAuthorizer, newAuthorizerValue } = await import('./authz.ts');
  const seen: unknown[] = [];
  const recording = {
    authorize: (a: unknown) => {
      seen.push(a);
      return { decision: 'Allow' as const, reason: 'because', error: undefined };
    },
  };
  const authzEnv = new Env({ libraries: kubernetesLibraries, variables: { authorizer: AuthorizerType } });
  const evalWith = (expr: string, authorizer: typeof recording | typeof denyAllAuthorizer) => {
    const c = authzEnv.compile(expr);
    assert.ok(c.program, c.issues);
    return c.program.eval({ authorizer: newAuthorizerValue({ name: 'alice', groups: ['devs'] }, authorizer) });
  };
  const check = "authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('web').check('update')";
  assert.equal(evalWith(`${check}.allowed()`, denyAllAuthorizer).value, false);
  const r = evalWith(`${check}.allowed() && ${check}.reason() == 'because' && !${check}.errored()`, recording);
  assert.equal(r.value, true);
  assert.deepEqual(seen[0], {
    user: { name: 'alice', groups: ['devs'] },
    verb: 'update',
    resourceRequest: true,
    apiGroup: 'apps',
    apiVersion: '*',
    resource: 'deployments',
    subresource: 'scale',
    namespace: 'ns',
    name: 'web',
  });
  // Each check costs 350000, as upstream.
  assert.ok(evalWith(`${check}.allowed()`, recording).cost >= 350000);
  seen.length = 0;
  assert.equal(evalWith("authorizer.serviceAccount('kube-system', 'builder').path('/healthz').check('get').allowed()", recording).value, true);
  assert.deepEqual(seen[0], {
    user: { name: 'system:serviceaccount:kube-system:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'] },
    verb: 'get',
    resourceRequest: false,
    path: '/healthz',
  });
  assert.equal(evalWith("authorizer.path(' ').check('get')", recording).error?.message, 'path must not be empty');
  assert.equal(evalWith("authorizer.group('').resource('').check('get')", recording).error?.message, 'resource must not be empty');
  assert.equal(evalWith("authorizer.serviceAccount('ns', 'Bad_Name')", recording).error?.message, 'Invalid service account name');
  assert.equal(evalWith("authorizer.serviceAccount('a.b', 'ok')", recording).error?.message, 'Invalid service account namespace');
});

/** Estimated-cost cases that cannot run with these declarations, each with its reason. */
const ESTIMATE_SKIP: Record<string, string> = {};

test("estimated costs with these libraries' declarations (testdata/cel-checker/k8s_cost_cases.json)", async () => {
  const { kubernetesCallCost } = await import('../../check/kubernetes-cost.ts');
  const { kindOf } = await import('../../check/types.ts');
  const { AuthorizerType } = await import('./authz.ts');
  const table = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../testdata/cel-checker/k8s_cost_cases.json', import.meta.url)), 'utf8')) as {
    cases: { suite: string; expr: string; wanted: [string, string] }[];
  };
  const estEnv = new Env({
    libraries: [...Object.values(extensionLibraries), ...kubernetesLibraries],
    variables: { authorizer: AuthorizerType },
    crossTypeNumericComparisons: true,
    presenceTestHasCost: false,
  });
  // Kubernetes' testCostEstimator: strings and bytes are at most 12 long.
  const sizeEstimator = (node: { type: Parameters<typeof kindOf>[0] }) => {
    const k = kindOf(node.type);
    return k === 'string' || k === 'bytes' ? { min: 0n, max: 12n } : undefined;
  };
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  for (const c of table.cases) {
    if (ESTIMATE_SKIP[c.expr]) {
      skipped++;
      continue;
    }
    const r = estEnv.check(c.expr);
    if (!r.checked) {
      failures.push(`${c.suite} ${c.expr}: ${r.issues}`);
      continue;
    }
    const est = estEnv.estimateCost(r.checked, { sizeEstimator, callCost: kubernetesCallCost, presenceTestHasCost: false } as never);
    const got = [String(est.min), String(est.max)];
    if (got[0] === c.wanted[0] && got[1] === c.wanted[1]) passed++;
    else failures.push(`${c.suite} ${c.expr}: got [${got.join(', ')}], want [${c.wanted.join(', ')}]`);
  }
  console.log(`kubernetes estimated costs: ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
  assert.deepEqual(failures, []);
});

test('resource.Quantity arithmetic, comparison and floats (apimachinery TestAdd, TestSub, TestQuantityCmp, AsApproximateFloat64)', () => {
  const data = load('quantity_model.json');
  type D = { unscaled: string; exponent: number; format: string } | null;
  const q = (d: D) => (d ? Quantity.fromDecimal(BigInt(d.unscaled), d.exponent, d.format as never) : new Quantity('DecimalSI'));
  const num = (s: string) => (s === '+Inf' ? Infinity : s === '-Inf' ? -Infinity : Number(s));
  let n = 0;
  for (const [a, b, want] of data.add as [D, D, D][]) {
    const x = q(a);
    x.add(q(b));
    assert.equal(x.cmp(q(want)), 0, `${JSON.stringify(a)} + ${JSON.stringify(b)} = ${x.toString()}`);
    n++;
  }
  for (const [a, b, want] of data.sub as [D, D, D][]) {
    const x = q(a);
    x.sub(q(b));
    assert.equal(x.cmp(q(want)), 0, `${JSON.stringify(a)} - ${JSON.stringify(b)} = ${x.toString()}`);
    n++;
  }
  for (const [x, y, want] of data.cmp as [string, string, number][]) {
    assert.equal((parseQuantity(x) as Quantity).cmp(parseQuantity(y) as Quantity), want, `${x} cmp ${y}`);
    n++;
  }
  for (const c of data.approximateFloat as (NonNullable<D> & { out: string })[]) {
    assert.equal(q(c).asApproximateFloat64(), num(c.out), `${c.unscaled}e${c.exponent} ${c.format}`);
    n++;
  }
  for (const c of data.stringApproximateFloat as { in: string; out: string }[]) {
    assert.equal((parseQuantity(c.in) as Quantity).asApproximateFloat64(), num(c.out), c.in);
    n++;
  }
  for (const s of data.addZeroPreservesSuffix as string[]) {
    const v1 = parseQuantity(s) as Quantity;
    v1.add(parseQuantity('0') as Quantity);
    const v2 = parseQuantity('0') as Quantity;
    v2.add(parseQuantity(s) as Quantity);
    assert.equal(v1.toString(), s);
    assert.equal(v2.toString(), s);
    n++;
  }
  console.log(`resource.Quantity arithmetic/floats: ${n} passed`);
});
