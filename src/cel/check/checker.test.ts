/**
 * Checker behaviour on hand-built trees (independent of the parser): overload resolution and its
 * messages, identifier resolution in containers, field selection, aggregate literals,
 * comprehension scopes, type identifiers, optionals. The cel-go tables run in checker_table.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Constant, Expr, ParsedExpr } from '../syntax/ast.ts';
import { check } from './checker.ts';
import { CheckEnv } from './env.ts';
import { printChecked } from './printer.ts';
import { optionalLibrary, standardLibrary } from '../lib/std/decls.ts';
import {
  IntType,
  StringType,
  formatType,
  listOf,
  mapOf,
  optionalOf,
  structType,
  typeParam,
  type Type,
  type TypeProvider,
} from './types.ts';

/** Builds trees with fresh ids; each node may carry a source offset. */
class B {
  private id = 0;
  readonly positions = new Map<number, number>();
  private node<T extends Omit<Expr, 'id'>>(e: T, at?: number): Expr {
    const id = ++this.id;
    if (at !== undefined) this.positions.set(id, at);
    return { ...e, id } as unknown as Expr;
  }
  int(v: number, at?: number): Expr {
    return this.node({ kind: 'const', value: { kind: 'int', value: BigInt(v) } as Constant }, at);
  }
  str(v: string, at?: number): Expr {
    return this.node({ kind: 'const', value: { kind: 'string', value: v } as Constant }, at);
  }
  bool(v: boolean, at?: number): Expr {
    return this.node({ kind: 'const', value: { kind: 'bool', value: v } as Constant }, at);
  }
  ident(name: string, at?: number): Expr {
    return this.node({ kind: 'ident', name }, at);
  }
  select(operand: Expr, field: string, at?: number, testOnly = false): Expr {
    return this.node({ kind: 'select', operand, field, testOnly }, at);
  }
  call(fn: string, args: Expr[], at?: number): Expr {
    return this.node({ kind: 'call', fn, args }, at);
  }
  member(target: Expr, fn: string, args: Expr[], at?: number): Expr {
    return this.node({ kind: 'call', fn, target, args }, at);
  }
  list(elements: Expr[], at?: number, optionalIndices: number[] = []): Expr {
    return this.node({ kind: 'list', elements, optionalIndices }, at);
  }
  map(entries: [Expr, Expr][], at?: number): Expr {
    return this.node(
      { kind: 'map', entries: entries.map(([key, value]) => ({ id: ++this.id, key, value, optional: false })) },
      at,
    );
  }
  /** `range.all(v, pred)` as the parser expands it. */
  all(range: Expr, v: string, pred: Expr): Expr {
    return this.node({
      kind: 'comprehension',
      iterRange: range,
      iterVar: v,
      iterVar2: '',
      accuVar: '@result',
      accuInit: this.bool(true),
      loopCondition: this.call('@not_strictly_false', [this.ident('@result')]),
      loopStep: this.call('_&&_', [this.ident('@result'), pred]),
      result: this.ident('@result'),
    });
  }
  parsed(expr: Expr, source = ''): ParsedExpr {
    return {
      expr,
      sourceInfo: {
        source,
        description: '<input>',
        lineOffsets: [0],
        positions: this.positions,
        macroCalls: new Map(),
      },
    };
  }
}

function env(variables: Record<string, Type> = {}, extra: Partial<ConstructorParameters<typeof CheckEnv>[0]> = {}) {
  return new CheckEnv({ libraries: [standardLibrary, optionalLibrary], variables, ...extra });
}

function typeOfResult(parsed: ParsedExpr, e: CheckEnv): string {
  const r = check(parsed, e);
  assert.equal(r.issues.toString(), '');
  return formatType(r.checked!.typeMap.get(r.checked!.expr.id)!);
}

test('arithmetic resolves to one overload and prints as cel-go', () => {
  const b = new B();
  const r = check(b.parsed(b.call('_+_', [b.int(1), b.int(2)])), env());
  assert.equal(printChecked(r.checked!), '_+_(\n  1~int,\n  2~int\n)~int^add_int64');
});

test('no matching overload: message, position and snippet as cel-go prints them', () => {
  const b = new B();
  const r = check(b.parsed(b.call('_+_', [b.int(1, 0), b.str('a', 4)], 2), "1 + 'a'"), env());
  assert.equal(
    r.issues.toString(),
    "ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 + 'a'\n | ..^",
  );
  assert.equal(r.checked, undefined);
});

test('receiver-style no matching overload prints target.(args)', () => {
  const b = new B();
  const r = check(b.parsed(b.member(b.int(1), 'startsWith', [b.str('a')], 1), '1.startsWith("a")'), env());
  assert.match(r.issues.toString(), /found no matching overload for 'startsWith' applied to 'int\.\(string\)'/);
});

test('undeclared reference names the container', () => {
  const b = new B();
  const r = check(b.parsed(b.ident('x', 0), 'x'), env({}, { container: 'a.b' }));
  assert.match(r.issues.toString(), /undeclared reference to 'x' \(in container 'a\.b'\)/);
});

test('names resolve through the container, most qualified first', () => {
  const b = new B();
  const parsed = b.parsed(b.ident('x'));
  const e = env({ 'a.b.x': IntType, x: StringType }, { container: 'a.b' });
  const r = check(parsed, e);
  assert.equal(printChecked(r.checked!), 'a.b.x~int^a.b.x');
  // the input tree is left as parsed
  assert.equal((parsed.expr as { name: string }).name, 'x');
});

test('a select chain naming a qualified variable becomes one identifier', () => {
  const b = new B();
  const r = check(b.parsed(b.select(b.select(b.ident('a'), 'b'), 'c')), env({ 'a.b.c': IntType }));
  assert.equal(printChecked(r.checked!), 'a.b.c~int^a.b.c');
});

test('field selection on maps, dyn, and undefined struct fields', () => {
  const provider: TypeProvider = {
    findStructType: (n) => (n === 'my.Obj' ? structType('my.Obj') : undefined),
    findFieldType: (s, f) => (s === 'my.Obj' && f === 'name' ? { type: StringType } : undefined),
  };
  const e = env({ m: mapOf(StringType, IntType), o: structType('my.Obj'), d: { kind: 'dyn' } }, { provider });
  let b = new B();
  assert.equal(typeOfResult(b.parsed(b.select(b.ident('m'), 'k')), e), 'int');
  b = new B();
  assert.equal(typeOfResult(b.parsed(b.select(b.ident('o'), 'name')), e), 'string');
  b = new B();
  assert.equal(typeOfResult(b.parsed(b.select(b.select(b.ident('d'), 'x'), 'y')), e), 'dyn');
  b = new B();
  const r = check(b.parsed(b.select(b.ident('o', 0), 'z', 1), 'o.z'), e);
  assert.match(r.issues.toString(), /ERROR: <input>:1:2: undefined field 'z'/);
  b = new B();
  const r2 = check(b.parsed(b.select(b.int(1, 0), 'z', 1), '1.z'), e);
  assert.match(r2.issues.toString(), /type 'int' does not support field selection/);
});

test('list and map literals join element types; mixed elements are dyn', () => {
  let b = new B();
  assert.equal(typeOfResult(b.parsed(b.list([b.int(1), b.int(2)])), env()), 'list(int)');
  b = new B();
  assert.equal(typeOfResult(b.parsed(b.list([b.int(1), b.str('a')])), env()), 'list(dyn)');
  b = new B();
  assert.equal(typeOfResult(b.parsed(b.list([])), env()), 'list(dyn)');
  b = new B();
  assert.equal(typeOfResult(b.parsed(b.map([[b.str('a'), b.int(1)]])), env()), 'map(string, int)');
  b = new B();
  const r = check(
    b.parsed(b.list([b.int(1, 1), b.str('a', 4)], 0), "[1, 'a']"),
    env({}, { homogeneousAggregateLiterals: true }),
  );
  assert.match(r.issues.toString(), /expected type 'int' but found 'string'/);
});

test('comprehension variables are scoped to the loop and typed from the range', () => {
  const b = new B();
  const pred = b.call('_>_', [b.ident('v'), b.int(0)]);
  const r = check(b.parsed(b.all(b.ident('xs'), 'v', pred)), env({ xs: listOf(IntType) }));
  assert.equal(r.issues.toString(), '');
  assert.equal(formatType(r.checked!.typeMap.get(pred.id)!), 'bool');
  const b2 = new B();
  const outside = b2.call('_&&_', [b2.all(b2.ident('xs'), 'v', b2.bool(true)), b2.ident('v', 5)]);
  const r2 = check(b2.parsed(outside, 'xs.all(v, true) && v'), env({ xs: listOf(IntType) }));
  assert.match(r2.issues.toString(), /undeclared reference to 'v'/);
});

test('logical operators require bool operands', () => {
  const b = new B();
  const r = check(b.parsed(b.call('_&&_', [b.int(1, 0), b.bool(true, 5)], 2), '1 && true'), env());
  assert.match(r.issues.toString(), /ERROR: <input>:1:1: expected type 'bool' but found 'int'/);
});

test('type identifiers and type()', () => {
  const b = new B();
  const r = check(b.parsed(b.call('_==_', [b.call('type', [b.int(1)]), b.ident('int')])), env());
  assert.equal(
    printChecked(r.checked!).replace(/\s+/g, ''),
    '_==_(type(1~int)~type(int)^type,int~type(int)^int)~bool^equals',
  );
});

test('cross-type numeric comparisons follow the option', () => {
  let b = new B();
  const r = check(b.parsed(b.call('_<_', [b.int(1), b.str('x')])), env());
  assert.match(r.issues.toString(), /applied to '\(int, string\)'/);
  b = new B();
  const lt = (): Expr => b.call('_<_', [b.int(1), b.ident('d')]);
  assert.match(check(b.parsed(lt()), env({ d: { kind: 'double' } })).issues.toString(), /no matching overload/);
  b = new B();
  const ok = check(b.parsed(lt()), env({ d: { kind: 'double' } }, { crossTypeNumericComparisons: true }));
  assert.equal(ok.issues.toString(), '');
  assert.deepEqual(ok.checked!.referenceMap.get(ok.checked!.expr.id)!.overloadIds, ['less_int64_double']);
});

test('generic overloads bind type parameters (list index, map index, size)', () => {
  const e = env({ xs: listOf(StringType), m: mapOf(StringType, listOf(IntType)) });
  let b = new B();
  assert.equal(typeOfResult(b.parsed(b.call('_[_]', [b.ident('xs'), b.int(0)])), e), 'string');
  b = new B();
  assert.equal(typeOfResult(b.parsed(b.call('_[_]', [b.ident('m'), b.str('k')])), e), 'list(int)');
  b = new B();
  assert.equal(typeOfResult(b.parsed(b.member(b.ident('m'), 'size', [])), e), 'int');
  b = new B();
  assert.equal(
    typeOfResult(b.parsed(b.call('_+_', [b.list([]), b.list([b.int(1)])])), e),
    'list(int)',
  );
});

test('optional values: optional.of, orValue, optional field selection', () => {
  const e = env({ m: mapOf(StringType, IntType) });
  let b = new B();
  assert.equal(typeOfResult(b.parsed(b.call('optional.of', [b.int(1)])), e), 'optional_type(int)');
  b = new B();
  // `optional.of(1)` written as a receiver call on the `optional` namespace.
  assert.equal(
    typeOfResult(b.parsed(b.member(b.ident('optional'), 'of', [b.int(1)])), e),
    'optional_type(int)',
  );
  b = new B();
  assert.equal(typeOfResult(b.parsed(b.call('_?._', [b.ident('m'), b.str('k')])), e), 'optional_type(int)');
  b = new B();
  const opt = b.call('_?._', [b.ident('m'), b.str('k')]);
  assert.equal(typeOfResult(b.parsed(b.member(opt, 'orValue', [b.int(0)])), e), 'int');
});

// The remaining tests of cel-go's checker_test.go that are code rather than table rows.

test('adding the standard library twice, or an equivalent overload again, is not an error', () => {
  const e = env();
  assert.doesNotThrow(() => e.addLibrary(standardLibrary));
  const K = typeParam('K');
  const V = typeParam('V');
  const optIndex = () => ({
    name: 'optional_index',
    overloads: [{ id: 'optional_map_key_value', params: [mapOf(K, V), K], result: optionalOf(V) }],
  });
  e.addFunction(optIndex());
  assert.doesNotThrow(() => e.addFunction(optIndex()));
  assert.throws(() => e.addVariable('x', IntType).addVariable('x', StringType), /overlapping identifier for name 'x'/);
});

test('an error carries the id of the expression it is about (TestCheckErrorData)', () => {
  const b = new B();
  const r = check(b.parsed(b.call('_||_', [b.ident('a', 0), b.bool(true, 5)], 2), 'a || true'), env());
  assert.equal(r.issues.errors.length, 1);
  assert.equal(r.issues.errors[0]!.exprId, 1);
  assert.match(r.issues.errors[0]!.message, /undeclared reference/);
});

test('malformed optional selections are reported (TestCheckInvalidOptSelect*)', () => {
  let b = new B();
  const target = b.ident('Foo');
  const member = b.member(target, '_?._', [b.ident('Foo'), b.str('field')]);
  assert.match(
    check(b.parsed(member), env()).issues.toString(),
    /incorrect signature\. member call with argument count: 2/,
  );
  b = new B();
  const missing = b.call('_?._', [b.ident('Foo')]);
  assert.match(check(b.parsed(missing), env()).issues.toString(), /incorrect signature\. argument count: 1/);
});

test('as in cel-go, cross-type comparisons are accepted once a comprehension has been checked', () => {
  const e = env({ d: { kind: 'double' }, xs: listOf(IntType) });
  let b = new B();
  // `1 < d && xs.all(v, true)`: the comparison is checked first and rejected
  const before = b.call('_&&_', [b.call('_<_', [b.int(1), b.ident('d')]), b.all(b.ident('xs'), 'v', b.bool(true))]);
  assert.match(check(b.parsed(before), e).issues.toString(), /no matching overload for '_<_'/);
  b = new B();
  // `xs.all(v, true) && 1 < d`: checked after the comprehension, accepted
  const after = b.call('_&&_', [b.all(b.ident('xs'), 'v', b.bool(true)), b.call('_<_', [b.int(1), b.ident('d')])]);
  assert.equal(check(b.parsed(after), e).issues.toString(), '');
});
