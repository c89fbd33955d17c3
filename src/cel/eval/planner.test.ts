/**
 * The planner: hand-built ASTs (no parser involved) and compiled expressions exercising the
 * non-strict operators with errors and unknowns, comprehensions, optional selection, presence
 * tests, name resolution in containers, and the guarantee that evaluation never throws.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DynType, IntType } from '../check/types.ts';
import { Env, allExtensionLibraries } from '../index.ts';
import { stdOverloads } from '../lib/std/impl.ts';
import type { Expr } from '../syntax/ast.ts';
import { addOverloads, type Registry } from './dispatch.ts';
import { Frame, activationOf, plan } from './planner.ts';
import { CelError, Optional, Unknown, type Val, formatValue, fromJSON } from './values.ts';

let nextId = 1;
const id = () => nextId++;
const int = (v: bigint): Expr => ({ id: id(), kind: 'const', value: { kind: 'int', value: v } });
const bool = (v: boolean): Expr => ({ id: id(), kind: 'const', value: { kind: 'bool', value: v } });
const ident = (name: string): Expr => ({ id: id(), kind: 'ident', name });
const call = (fn: string, ...args: Expr[]): Expr => ({ id: id(), kind: 'call', fn, args });
const list = (...elements: Expr[]): Expr => ({ id: id(), kind: 'list', elements, optionalIndices: [] });

const registry: Registry = new Map();
addOverloads(registry, stdOverloads);

function run(e: Expr, vars: Record<string, Val> = {}): Val {
  const p = plan(e, { registry });
  return p.root(new Frame(activationOf(vars), p.nslots, Infinity, Infinity));
}

test('hand-built AST: arithmetic, comparison and a comprehension', () => {
  assert.equal(run(call('_+_', int(2n), call('_*_', int(3n), int(4n)))), 14n);
  assert.equal(run(call('_<_', ident('x'), int(10n)), { x: 3n }), true);
  // [1, 2, 3].all(v, v > 0) as the parser expands it.
  const all: Expr = {
    id: id(),
    kind: 'comprehension',
    iterRange: list(int(1n), int(2n), int(3n)),
    iterVar: 'v',
    iterVar2: '',
    accuVar: '@result',
    accuInit: bool(true),
    loopCondition: call('@not_strictly_false', ident('@result')),
    loopStep: call('_&&_', ident('@result'), call('_>_', ident('v'), int(0n))),
    result: ident('@result'),
  };
  assert.equal(run(all), true);
  assert.equal((run(call('_/_', int(1n), int(0n))) as CelError).message, 'division by zero');
  assert.equal((run(call('_+_', int(2n ** 62n), int(2n ** 62n))) as CelError).message, 'integer overflow');
  assert.match((run(ident('missing')) as CelError).message, /^no such attribute\(s\): id: \d+, names: \[missing\]$/);
});

test('&& and || are commutative over errors and unknowns', () => {
  const err = call('_/_', int(1n), int(0n));
  assert.equal(run(call('_&&_', err, bool(false))), false);
  assert.equal(run(call('_&&_', bool(false), err)), false);
  assert.equal(run(call('_||_', err, bool(true))), true);
  assert.equal(run(call('_||_', bool(true), err)), true);
  assert.ok(run(call('_&&_', err, bool(true))) instanceof CelError);
  const u = new Unknown([7]);
  assert.ok(run(call('_&&_', ident('u'), call('_/_', int(1n), int(0n))), { u }) instanceof Unknown, 'unknown wins over error');
  assert.equal(run(call('_||_', ident('u'), bool(true)), { u }), true);
  assert.equal((run(call('_&&_', int(1n), bool(true))) as CelError).message, 'no such overload');
});

const env = new Env({ variables: { self: DynType, n: IntType }, libraries: [...allExtensionLibraries] });
function ev(src: string, self: unknown = {}): string {
  const c = env.compile(src);
  if (!c.program) return `compile: ${c.issues}`;
  const r = c.program.eval({ self: fromJSON(self), n: 3n });
  return r.error ? `error: ${r.error.message}` : formatValue(r.value);
}

test('compiled expressions', () => {
  const table: [string, unknown, string][] = [
    ['self.replicas >= 0 && self.replicas <= self.maxReplicas', { replicas: 3, maxReplicas: 5 }, 'true'],
    ["has(self.spec.foo) ? self.spec.foo.bar == 'x' : true", { spec: {} }, 'true'],
    ["has(self.spec.foo) ? self.spec.foo.bar == 'x' : true", { spec: { foo: { bar: 'y' } } }, 'false'],
    ["self.items.map(x, x.name).exists(n, n == 'target')", { items: [{ name: 'a' }, { name: 'target' }] }, 'true'],
    ['self.values.filter(v, v % 2 == 0)', { values: [1, 2, 3, 4] }, '[2, 4]'],
    ['self.values.exists_one(v, v > 3)', { values: [1, 2, 3, 4] }, 'true'],
    ['self.m.all(k, v, v > 0)', { m: { a: 1, b: 2 } }, 'true'],
    ["self.?missing.orValue('d')", {}, '"d"'],
    ["self.?a.?b.orValue('d')", { a: { b: 'x' } }, '"x"'],
    ['self.l[?5].hasValue()', { l: [1] }, 'false'],
    ['self.nope', {}, 'error: no such key: nope'],
    ['self.l[3]', { l: [1] }, 'error: index out of bounds: 3'],
    // Selection on values that have no fields, as cel-go's attribute qualifiers answer it.
    ['self.p.metadata', { p: null }, 'error: no such key: metadata'],
    ['self.s.x', { s: 'str' }, 'error: no such key: x'],
    ['self.l.x', { l: [1] }, "error: unsupported index type 'string' in list"],
    ['has(self.p.metadata)', { p: null }, 'false'],
    ['has(self.n.x)', { n: 1 }, 'false'],
    ['has(self.l.x)', { l: [1] }, "error: unsupported index type 'string' in list"],
    ['n * 2', {}, '6'],
    ["'x must be less than max (' + string(self.max) + ')'", { max: 10 }, '"x must be less than max (10)"'],
    ["[1, 2] + [3]", {}, '[1, 2, 3]'],
    ["{'a': 1, 'a': 2}", {}, 'error: Failed with repeated key: a'],
    ['cel.bind(x, n + 1, x * x)', {}, '16'],
    ['type(self) == map', {}, 'true'],
    ['self.values.map(v, v * 2).map(v, v + 1)', { values: [1, 2] }, '[3, 5]'],
  ];
  for (const [src, self, want] of table) assert.equal(ev(src, self), want, src);
});

test('comprehension results are fresh lists (no sharing between evaluations)', () => {
  const c = env.compile('self.values.map(v, v + 1)');
  assert.ok(c.program);
  const a = c.program.eval({ self: fromJSON({ values: [1] }) });
  const b = c.program.eval({ self: fromJSON({ values: [5, 6] }) });
  assert.equal(formatValue(a.value!), '[2]');
  assert.equal(formatValue(b.value!), '[6, 7]');
});

test('names resolve in the container, most qualified first', () => {
  const e = new Env({ container: 'a.b', disableCheck: true });
  const c = e.compile('x.y + c');
  assert.ok(c.program);
  assert.equal(c.program.eval({ 'a.b.x.y': 1n, c: 2n, 'a.c': 10n }).value, 11n);
});

test('evaluation never throws, even on deep recursion', () => {
  const deep = new Env({ variables: { self: DynType }, parse: { maxRecursionDepth: -1 } });
  const c = deep.compile('[' + '1,'.repeat(10) + '1].all(x, x > 0)');
  assert.ok(c.program);
  assert.equal(c.program.eval({ self: null }).value, true);
  const opt = env.compile('optional.none().value()');
  assert.ok(opt.program);
  assert.equal(opt.program.eval({}).error?.message, 'optional.none() dereference');
  assert.ok(new Optional(1n).hasValue());
});

test('string concatenation chains cost what the binary additions cost', () => {
  // Unchecked planning of the same text gives the generic per-call path for comparison.
  const chained = new Env({ variables: { self: DynType } }).compile("'ab' + self.s + 'c' + self.s");
  assert.ok(chained.program);
  const self = fromJSON({ s: 'x'.repeat(25) + '\u{1F600}' });
  const r = chained.program.eval({ self });
  // add 1: ceil((2 + 26) * 0.1) = 3; add 2: ceil((28 + 1) * 0.1) = 3; add 3: ceil((29 + 26) * 0.1) = 6; two selects of self.s: 4.
  assert.equal(r.cost, 3 + 3 + 6 + 4);
  assert.equal(r.value, 'ab' + 'x'.repeat(25) + '\u{1F600}c' + 'x'.repeat(25) + '\u{1F600}');
  const lists = env.compile('[1] + [n] + [3]');
  assert.ok(lists.program);
  assert.equal(formatValue(lists.program.eval({ n: 2n }).value!), '[1, 2, 3]');
});

test('a program evaluated from inside its own evaluation gets its own frame', () => {
  const inner = new Env({ variables: { x: IntType } }).compile('x * 2');
  assert.ok(inner.program);
  const p = inner.program;
  const act = {
    get(name: string): Val | undefined {
      // Re-enter the same program while it is evaluating.
      return name === 'x' ? (p.eval({ x: 5n }).value === 10n ? 7n : 0n) : undefined;
    },
  };
  assert.equal(p.eval(act).value, 14n);
  assert.equal(p.eval({ x: 1n }).value, 2n);
});

test('library-defined opaque values dispatch by type name and compare with their own equality', async () => {
  const { opaque, BoolType } = await import('../check/types.ts');
  const { CelType, OpaqueValue } = await import('./values.ts');
  const PointType = new CelType('test.Point');
  class Point extends OpaqueValue {
    readonly celType = PointType;
    constructor(readonly x: bigint, readonly y: bigint) {
      super();
    }
    override equal(o: Val): boolean {
      return o instanceof Point && o.x === this.x && o.y === this.y;
    }
    toString(): string {
      return `point(${this.x}, ${this.y})`;
    }
  }
  const P = opaque('test.Point');
  const lib = {
    name: 'test.points',
    functions: [
      { name: 'point', overloads: [{ id: 'point_int_int', params: [IntType, IntType], result: P, impl: (x: bigint, y: bigint) => new Point(x, y) }] },
      { name: 'x', overloads: [{ id: 'point_x', receiver: true, params: [P], result: IntType, impl: (p: Point) => p.x }] },
      { name: 'isOrigin', overloads: [{ id: 'point_is_origin', receiver: true, params: [P], result: BoolType, impl: (p: Point) => p.x === 0n && p.y === 0n }] },
    ],
  };
  const e = new Env({ libraries: [lib], typeNames: ['test.Point'] });
  const ok = (src: string) => {
    const c = e.compile(src);
    assert.ok(c.program, `${src}: ${c.issues}`);
    return c.program.eval({});
  };
  assert.equal(ok('point(3, 4).x()').value, 3n);
  assert.equal(ok('point(1, 2) == point(1, 2)').value, true);
  assert.equal(ok('point(0, 0).isOrigin() && !point(1, 0).isOrigin()').value, true);
  assert.equal(ok('[point(1, 2)][0].x() + 1').value, 2n);
});

test('all(), exists() and map() cost and answer what the general comprehension loop does', () => {
  // The one-variable macros run inline loops; their two-variable forms (the index or key as a
  // second, unused variable, which costs nothing) take the general loop. Errors in the predicate,
  // accumulators that become errors, early exits, lists and maps' keys, and the cost limit.
  const e = new Env({ variables: { l: DynType, m: DynType }, libraries: [...allExtensionLibraries] });
  const vars = { l: fromJSON([3, 'a', 0, 5, 'b']), m: fromJSON({ a: 1, bb: 2, c: 'x' }) };
  const pairs: [string, string][] = [
    ['l.exists(x, x > 4)', 'l.exists(i, x, x > 4)'],
    ['l.exists(x, x > 9)', 'l.exists(i, x, x > 9)'],
    ['l.exists(x, x == 3)', 'l.exists(i, x, x == 3)'],
    ["l.exists(x, x == 'b')", "l.exists(i, x, x == 'b')"],
    ['l.all(x, x > 1)', 'l.all(i, x, x > 1)'],
    ['l.all(x, x >= 0)', 'l.all(i, x, x >= 0)'],
    ["l.all(x, x != 'z')", "l.all(i, x, x != 'z')"],
    ['l.all(x, !(x > 1))', 'l.all(i, x, !(x > 1))'],
    ["m.all(k, k.matches('^[a-z]$'))", "m.all(k, v, k.matches('^[a-z]$'))"],
    ["m.exists(k, k.startsWith('b'))", "m.exists(k, v, k.startsWith('b'))"],
    ['m.all(k, m[k] > 0)', 'm.all(k, v, m[k] > 0)'],
    // A predicate that is not a bool (dyn): `||` and `&&` make it an error.
    ['l.exists(x, x)', 'l.exists(i, x, x)'],
    ['l.all(x, x)', 'l.all(i, x, x)'],
    ['l.map(x, x * 2)', 'l.transformList(i, x, x * 2)'],
    ["l.map(x, string(x) + '!')", "l.transformList(i, x, string(x) + '!')"],
    ["[{'n': 'a'}, {'n': 'b'}].map(x, x.n)", "[{'n': 'a'}, {'n': 'b'}].transformList(i, x, x.n)"],
    ['[1, 2, 3].map(x, x * 2).exists(y, y == 4)', '[1, 2, 3].transformList(i, x, x * 2).exists(j, y, y == 4)'],
  ];
  for (const [fast, general] of pairs) {
    const a = e.compile(fast);
    const b = e.compile(general);
    assert.ok(a.program && b.program, `${fast}: ${a.issues ?? b.issues}`);
    const ra = a.program.eval(vars);
    const rb = b.program.eval(vars);
    const show = (r: typeof ra) => (r.error ? `error ${r.error.message}` : formatValue(r.value!));
    assert.equal(show(ra), show(rb), fast);
    assert.equal(ra.cost, rb.cost, `${fast}: cost`);
    // Cancelled at the same point under a limit just below the full cost.
    if (ra.cost > 1) {
      const la = a.program.eval(vars, { costLimit: ra.cost - 1 });
      const lb = b.program.eval(vars, { costLimit: ra.cost - 1 });
      assert.equal(show(la), show(lb), `${fast}: limited`);
      assert.equal(la.cost, lb.cost, `${fast}: limited cost`);
    }
  }
});
