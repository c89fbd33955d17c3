/**
 * kubernetesEnvOptions: the environment of k8s.io/apiserver pkg/cel/environment/base.go. The cost
 * figures are Kubernetes' own (pkg/cel/library/cost_test.go TestStringLibrary, whose environment
 * does not optimise, hence `optimize: false` there), plus the base environment's libraries,
 * validators and macros by compatibility version.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listOf, IntType } from './check/types.ts';
import { Env, kubernetesEnvOptions, toJSON } from './index.ts';

function costs(env: Env, expr: string): { min: bigint; max: bigint; actual: number } {
  const c = env.compile(expr);
  assert.ok(c.program, `${expr}: ${c.issues}`);
  const r = c.program.eval({});
  assert.equal(r.error, undefined, `${expr}: ${r.error?.message}`);
  // cost_test.go's testCostEstimator: every string or bytes value is 0..12 long.
  const est = env.estimateCost(c.program.checked!, {
    sizeEstimator: (n) => (n.type.kind === 'string' || n.type.kind === 'bytes' ? { min: 0n, max: 12n } : undefined),
  });
  return { min: est.min, max: est.max, actual: r.cost };
}

test("Kubernetes' string library costs (cost_test.go TestStringLibrary)", () => {
  const env = new Env({ ...kubernetesEnvOptions(), optimize: false });
  const cases: [string, number, number, number][] = [
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3, 3, 3],
    ["'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", 7, 9, 9],
    ["'abc 123 def 123'.replace('123', '456')", 3, 3, 3],
    ["'abc 123 def 123'.split(' ')", 3, 3, 3],
    ["'abc 123 def 123'.split(' ', 1)", 3, 3, 3],
    ["'abc 123 def 123'.substring(5, 8)", 2, 2, 2],
    ["'  abc 123 def 123  '.trim()", 2, 2, 2],
    ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", 11, 23, 15],
    ["['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", 10, 22, 13],
    ["'abc 123 def 123'.find('123')", 2, 2, 2],
    ["'abc 123 def 123'.findAll('123', 1)", 2, 2, 2],
  ];
  for (const [expr, min, max, actual] of cases) {
    assert.deepEqual(costs(env, expr), { min: BigInt(min), max: BigInt(max), actual }, expr);
  }
});

test('without the Kubernetes runtime costs, split and join cost 1 per call', () => {
  const opts = kubernetesEnvOptions();
  const plain = new Env({ ...opts, overloads: undefined, optimize: false });
  assert.equal(costs(plain, "'abc 123 def 123'.split(' ')").actual, 1);
  // string indexOf costs Kubernetes' truncated traversal: 15 bytes -> 1; 5 bytes -> 0.
  const env = new Env({ ...opts, optimize: false });
  assert.equal(costs(env, "'abc 123 def 123'.indexOf('d')").actual, 1);
  assert.equal(costs(env, "'abcde'.lastIndexOf('d')").actual, 0);
});

test('the validators reject bad duration, timestamp and regex literals and mixed literals', () => {
  const env = new Env(kubernetesEnvOptions());
  for (const [expr, msg] of [
    ["duration('1x')", 'invalid duration argument'],
    ["timestamp('yesterday')", 'invalid timestamp argument'],
    ["'a'.matches('(')", 'invalid matches argument'],
    ["[1, 'a']", 'expected type'],
  ]) {
    const c = env.compile(expr!);
    assert.match(c.issues ?? '', new RegExp(msg!), expr);
  }
  // format's argument list may mix types.
  assert.equal(env.compile("'%s %d'.format(['a', 1])").issues, undefined);
});

test("ext.Strings version 2's validator checks constant format calls against their argument types", () => {
  const env = new Env(kubernetesEnvOptions());
  const first = (expr: string) => env.compile(expr).issues?.split('\n')[0];
  assert.equal(first("'%d'.format(['a'])"), 'ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given string');
  assert.equal(first("'%q'.format([1])"), 'ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause "q"');
  assert.equal(first("'%d %d'.format([1])"), 'ERROR: <input>:1:15: index 1 out of range');
  assert.equal(first("'%d'.format([1, 2])"), 'ERROR: <input>:1:12: too many arguments supplied to string.format (expected 1, got 2)');
  assert.equal(
    first("'%s'.format([[optional.of(1)]])"),
    'ERROR: <input>:1:26: error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type',
  );
  assert.equal(env.compile("'%.3f %e %x %o %b %s'.format([1.5, 'NaN', b'a', 7u, true, dyn(1)])").program?.eval({}).value, '1.500 NaN 61 7 1 1');
});

test('sort and sortBy: per-type overloads, macros enabled by the lists library, estimated costs', () => {
  const env = new Env({ ...kubernetesEnvOptions(), variables: { x: listOf(IntType) } });
  const c = env.compile('x.sort()');
  assert.ok(c.program);
  assert.deepEqual(c.program.checked!.referenceMap.get(c.program.checked!.expr.id)?.overloadIds, ['list_int_sort']);
  // Sizes bounded at 10: sort is O(n^2) comparisons, an allocating call.
  const est = env.estimateCost(c.program.checked!, { sizeEstimator: (n) => (n.path?.[0] === 'x' ? { min: 0n, max: 10n } : undefined) });
  assert.deepEqual(est, { min: 12n, max: 212n });
  assert.deepEqual(env.compile('[3, 1, 2].sortBy(e, -e)').program?.eval({}).value, [3n, 2n, 1n]);
  assert.match(env.compile("[{}, {}].sort()").issues ?? '', /found no matching overload for 'sort'/);
  // No ext.Bindings in Kubernetes: cel.bind stays an (undeclared) call.
  assert.match(env.compile('cel.bind(a, 1, a)').issues ?? '', /undeclared reference to 'cel'/);
  // At 1.33, before ext.Lists: no sortBy macro and no sort.
  assert.match(new Env(kubernetesEnvOptions({ compatibilityVersion: '1.33' })).compile('[2, 1].sort()').issues ?? '', /undeclared reference to 'sort'/);
});

test('compatibility versions gate libraries and options', () => {
  const at = (v: string, expr: string) => new Env(kubernetesEnvOptions({ compatibilityVersion: v })).compile(expr).issues;
  assert.equal(at('1.30', "ip('1.2.3.4').family() == 4"), undefined);
  assert.match(at('1.29', "ip('1.2.3.4').family() == 4") ?? '', /undeclared reference to 'ip'/);
  assert.match(at('1.27', '1 < 2.0') ?? '', /found no matching overload for '_<_'/);
  assert.equal(at('1.28', '1 < 2.0'), undefined);
  assert.match(at('1.31', '[1].all(i, v, v > 0)') ?? '', /undeclared reference to 'all'/);
  assert.equal(at('1.32', '[1].all(i, v, v > 0)'), undefined);
  assert.match(at('1.36', '[1].includes(1)') ?? '', /undeclared reference to 'includes'/);
  assert.match(at('1.28', "['a'].join('-')") ?? '', /undeclared reference to 'join'/);
  assert.equal(at('1.29', "['a'].join('-')"), undefined);
  assert.match(at('1.27', '{}.?a') ?? '', /unsupported syntax '\.\?'/);
  assert.equal(at('1.28', '{}.?a'), undefined);
  // ext.Strings version 2 has no string reverse (version 3 added it); ext.Lists' list reverse stays.
  assert.match(at('1.34', "'abc'.reverse()") ?? '', /found no matching overload for 'reverse' applied to 'string\.\(\)'/);
  assert.equal(at('1.34', '[1, 2].reverse()'), undefined);
  assert.equal(at('1.37', '[1].includes(1)'), undefined);
});

test('library object values dispatch by type name and are not maps', () => {
  const env = new Env(kubernetesEnvOptions());
  const run = (expr: string) => {
    const c = env.compile(expr);
    assert.ok(c.program, `${expr}: ${c.issues}`);
    return c.program.eval({});
  };
  assert.equal(run("size(dyn(quantity('1')))").error?.message, 'no such overload: size(kubernetes.Quantity)');
  assert.equal(run("dyn(quantity('1k')).isGreaterThan(quantity('999'))").value, true);
  assert.equal(run("type(quantity('1')) == kubernetes.Quantity").value, true);
  assert.equal(run("[quantity('1k')] == [quantity('1000')] && {'a': url('https://x')} == {'a': url('https://x')}").value, true);
  // Upstream's Equal of every library type refuses an operand of another type; `!=` is then true.
  assert.equal(run("dyn(semver('1.2.3')) == dyn(quantity('1'))").error?.message, 'no such overload');
  assert.equal(run("dyn(semver('1.2.3')) != dyn(quantity('1'))").value, true);
  assert.equal(run("string(dyn(quantity('1.5')).asApproximateFloat())").value, '1.5');
});

test("quantity equality as Quantity.Equal answers it: add and sub results are refused as the operand", () => {
  const env = new Env(kubernetesEnvOptions());
  const run = (expr: string) => {
    const c = env.compile(expr);
    assert.ok(c.program, `${expr}: ${c.issues}`);
    const r = c.program.eval({});
    return r.error ? `error: ${r.error.message}` : r.value;
  };
  // quantity() makes a value, add/sub a pointer; Equal takes only a value as its operand.
  assert.equal(run("quantity('1k') == quantity('999').add(1)"), 'error: no such overload');
  assert.equal(run("quantity('999').add(1) == quantity('1k')"), true);
  assert.equal(run("quantity('1k').sub(1) == quantity('999').add(1)"), 'error: no such overload');
  // cel-go's != is true unless Equal said true.
  assert.equal(run("quantity('1k') != quantity('999').add(1)"), true);
  assert.equal(run("quantity('1k') != quantity('1k')"), false);
  // Literal lists and maps stop only at a false element (baseList/baseMap.Equal); `in` counts only true.
  assert.equal(run("[quantity('5')] == [quantity('1').add(0)]"), true);
  assert.equal(run("[quantity('5')] == [quantity('1')]"), false);
  assert.equal(run("quantity('1') in [quantity('1').add(0)]"), false);
  assert.equal(run("quantity('1').add(0) in [quantity('1')]"), true);
  // null is settled before Equal is asked.
  assert.equal(run("quantity('1') == null"), false);
  // Printed (CLI output, JSON) in canonical form, as upstream's ConvertToNative(string) gives it.
  const shown = env.compile("[quantity('1.5Gi'), quantity('100m'), quantity('1k').add(1), quantity('1e3')]").program!.eval({});
  assert.deepEqual(toJSON(shown.value!), ['1536Mi', '100m', '1001', '1e3']);
  // sign is a global function upstream, not a member.
  assert.equal(run("sign(quantity('-1.5Gi'))"), -1n);
  const member = env.compile("quantity('1').sign()");
  assert.match(member.issues ?? '', /found no matching overload for 'sign' applied to 'kubernetes\.Quantity\.\(\)'/);
});
