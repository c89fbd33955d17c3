/**
 * The opt-in extension macros (ext.Lists' sortBy, ext.Math's math.greatest/least, ext.Protos'
 * proto.getExt/hasExt), the macro-set helper, and cel-go's EnableVariadicOperatorASTs option.
 * Expansions are compared node for node and id for id with what cel-go's expanders build; the
 * cel-go extension test expressions in testdata/cel-go-ext are parsed as data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse, type ParseOptions } from './parser.ts';
import { toDebugString, type DebugNode } from './debug.ts';
import {
  ALL_MACROS, LISTS_MACROS, MATH_MACROS, PROTOS_MACROS, SORT_BY_INPUT, STANDARD_MACROS, macrosForLibraries, type Macro,
} from './macros.ts';
import type { Expr, ParsedExpr } from './ast.ts';

const EXT = { macros: [...ALL_MACROS, ...LISTS_MACROS, ...MATH_MACROS] } satisfies ParseOptions;

function parsed(src: string, opts: ParseOptions = EXT): ParsedExpr {
  const r = parse(src, opts);
  assert.ok(r.parsed, `${src}: ${r.issues.toString()}`);
  return r.parsed;
}

function errors(src: string, opts: ParseOptions = EXT): string {
  const r = parse(src, opts);
  assert.equal(r.parsed, undefined, `${src} parsed without errors`);
  return r.issues.toString();
}

const withIds = (e: Expr): string => toDebugString(e as DebugNode, (n) => `^#${n.id}`);

/** Every node of a tree, depth first. */
function* nodes(e: Expr): Generator<Expr> {
  yield e;
  switch (e.kind) {
    case 'select': yield* nodes(e.operand); break;
    case 'call':
      if (e.target) yield* nodes(e.target);
      for (const a of e.args) yield* nodes(a);
      break;
    case 'list': for (const a of e.elements) yield* nodes(a); break;
    case 'map': for (const en of e.entries) { yield* nodes(en.key); yield* nodes(en.value); } break;
    case 'struct': for (const f of e.fields) yield* nodes(f.value); break;
    case 'comprehension':
      for (const c of [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result]) yield* nodes(c);
      break;
  }
}

const calls = (e: Expr, fn: string) => [...nodes(e)].filter((n) => n.kind === 'call' && n.fn === fn);

test('sortBy expands as cel-go: cel.bind of the input, then @sortByAssociatedKeys over a map of the keys', () => {
  const p = parsed('[1,2].sortBy(e, -e)');
  assert.equal(
    withIds(p.expr),
    `__comprehension__(
  // Variable
  #unused,
  // Target
  []^#19,
  // Accumulator
  @__sortBy_input__,
  // Init
  [
    1^#2,
    2^#3
  ]^#1,
  // LoopCondition
  false^#20,
  // LoopStep
  @__sortBy_input__^#8,
  // Result
  @__sortBy_input__^#17.@sortByAssociatedKeys(
    __comprehension__(
      // Variable
      e,
      // Target
      @__sortBy_input__^#9,
      // Accumulator
      @result,
      // Init
      []^#10,
      // LoopCondition
      true^#11,
      // LoopStep
      _+_(
        @result^#12,
        [
          -_(
            e^#7
          )^#6
        ]^#13
      )^#14,
      // Result
      @result^#15)^#16
  )^#18)^#21`,
  );
  // The call's own id (4, at the open parenthesis) is released; the expansion sits at its offset.
  const pos = p.sourceInfo.positions;
  assert.equal(pos.has(4), false);
  for (let id = 8; id <= 21; id++) assert.equal(pos.get(id), 12, `position of #${id}`);
  assert.equal(pos.get(5), 13);
  // The macro call is recorded for unparsing and error messages.
  const call = p.sourceInfo.macroCalls.get(21);
  assert.ok(call && call.kind === 'call');
  assert.equal(call.fn, 'sortBy');
  assert.equal(call.target?.kind, 'list');
  assert.deepEqual(call.args.map((a) => a.id), [5, 6]);
  assert.equal(SORT_BY_INPUT, '@__sortBy_input__');
});

test('sortBy honours the accumulator name option in its map', () => {
  const p = parsed('x.sortBy(e, e)', { ...EXT, enableHiddenAccumulatorName: false });
  const inner = calls(p.expr, '@sortByAssociatedKeys')[0] as Extract<Expr, { kind: 'call' }>;
  const map = inner.args[0]!;
  assert.equal(map.kind, 'comprehension');
  assert.equal(map.kind === 'comprehension' && map.accuVar, '__result__');
  assert.equal(p.expr.kind === 'comprehension' && p.expr.accuVar, SORT_BY_INPUT);
});

test('sortBy is opt-in, as in cel-go: without the lists macros it stays a call', () => {
  for (const macros of [undefined, ALL_MACROS, STANDARD_MACROS]) {
    const p = parsed('x.sortBy(e, e)', { macros });
    assert.equal(p.expr.kind, 'call');
    assert.equal(p.expr.kind === 'call' && p.expr.fn, 'sortBy');
  }
  // Other argument counts are never the macro.
  const three = parsed('x.sortBy(e, e, e)');
  assert.equal(three.expr.kind === 'call' && three.expr.fn, 'sortBy');
});

test('sortBy accepts lists, identifiers, selections, calls and comprehensions as its target', () => {
  for (const src of [
    '[3, 1].sortBy(e, e)', 'x.sortBy(e, e)', 'a.b.sortBy(e, e)', 'lists.range(3).sortBy(e, -e)',
    '[1].map(e, e * 2).sortBy(e, -(e * e))', 'x.sortBy(e, e).sortBy(e, -e)',
  ]) {
    const p = parsed(src);
    assert.equal(p.expr.kind, 'comprehension', src);
    assert.equal(calls(p.expr, 'sortBy').length, 0, src);
  }
  assert.equal(calls(parsed('x.sortBy(e, e).sortBy(e, -e)').expr, '@sortByAssociatedKeys').length, 2);
});

test("sortBy rejects what cel-go rejects, with cel-go's messages and positions", () => {
  const target = 'sortBy can only be applied to a list, identifier, comprehension, call or select expression';
  const cases: [string, string][] = [
    ['1.sortBy(e, e)', `ERROR: <input>:1:1: ${target}\n | 1.sortBy(e, e)\n | ^`],
    ["'abc'.sortBy(e, e)", `ERROR: <input>:1:1: ${target}\n | 'abc'.sortBy(e, e)\n | ^`],
    ['{1: 2}.sortBy(e, e)', `ERROR: <input>:1:1: ${target}\n | {1: 2}.sortBy(e, e)\n | ^`],
    ['T{}.sortBy(e, e)', `ERROR: <input>:1:2: ${target}\n | T{}.sortBy(e, e)\n | .^`],
    ['x.sortBy(1, e)', 'ERROR: <input>:1:10: argument is not an identifier\n | x.sortBy(1, e)\n | .........^'],
    ['x.sortBy(a.b, e)', 'ERROR: <input>:1:11: argument is not an identifier\n | x.sortBy(a.b, e)\n | ..........^'],
  ];
  for (const [src, want] of cases) assert.equal(errors(src), want, src);
  assert.equal(
    errors('x.sortBy(__result__, e)', { ...EXT, enableHiddenAccumulatorName: false }),
    'ERROR: <input>:1:10: iteration variable overwrites accumulator variable\n | x.sortBy(__result__, e)\n | .........^',
  );
});

interface ExtCase { expr: string; err?: string }
const extCases = (lib: string): ExtCase[] =>
  JSON.parse(readFileSync(new URL(`../../../testdata/cel-go-ext/${lib}.json`, import.meta.url), 'utf8')) as ExtCase[];

test("cel-go's ext/lists_test.go sortBy expressions parse into @sortByAssociatedKeys", () => {
  const cases = extCases('lists').filter((c) => c.expr.includes('.sortBy('));
  let passed = 0;
  for (const c of cases) {
    const p = parsed(c.expr);
    assert.equal(calls(p.expr, 'sortBy').length, 0, c.expr);
    assert.equal(calls(p.expr, '@sortByAssociatedKeys').length, c.expr.split('.sortBy(').length - 1, c.expr);
    passed++;
  }
  console.log(`cel-go lists sortBy expressions: ${passed} passed, 0 failed, 0 skipped`);
  assert.equal(passed, 10);
});

test('math.greatest / math.least expand to math.@max / math.@min as cel-go does', () => {
  assert.equal(withIds(parsed('math.greatest(1)').expr), 'math.@max(\n  1^#3\n)^#4');
  assert.equal(withIds(parsed('math.least(x, 2.0)').expr), 'math.@min(\n  x^#3,\n  2^#4\n)^#5');
  assert.equal(
    withIds(parsed('math.greatest(1, 2u, 3.5)').expr),
    'math.@max(\n  [\n    1^#3,\n    2u^#4,\n    3.5^#5\n  ]^#6\n)^#7',
  );
  assert.equal(withIds(parsed('math.least([1, x])').expr), 'math.@min(\n  [\n    1^#4,\n    x^#5\n  ]^#3\n)^#6');
  // Non-literal arguments are left to the checker and the runtime.
  assert.equal(calls(parsed('math.greatest(a.b, f(c))').expr, 'math.@max').length, 1);
  // Another receiver is not the macro (cel-go's TestMathNonMatch).
  for (const src of ['100.least(42)', 'x.greatest(1, 2)']) {
    const e = parsed(src).expr;
    assert.ok(e.kind === 'call' && (e.fn === 'least' || e.fn === 'greatest') && e.target, src);
  }
  // Opt-in: without the math macros the call is left for the checker.
  const plain = parsed('math.greatest(1, 2)', {});
  assert.ok(plain.expr.kind === 'call' && plain.expr.fn === 'greatest');
});

test("math.greatest / math.least static errors (cel-go's TestMathStaticErrors)", () => {
  const cases: [string, string][] = [
    ['math.least()', 'ERROR: <input>:1:1: math.least() requires at least one argument\n | math.least()\n | ^'],
    ["math.least('hello')", 'ERROR: <input>:1:12: math.least() invalid single argument value\n | math.least(\'hello\')\n | ...........^'],
    ['math.least({})', 'ERROR: <input>:1:12: math.least() invalid single argument value\n | math.least({})\n | ...........^'],
    ['math.least(1, true)', 'ERROR: <input>:1:15: math.least() simple literal arguments must be numeric\n | math.least(1, true)\n | ..............^'],
    ['math.greatest([])', 'ERROR: <input>:1:15: math.greatest() invalid single argument value\n | math.greatest([])\n | ..............^'],
    ['math.greatest(1, 2, true)', 'ERROR: <input>:1:21: math.greatest() simple literal arguments must be numeric\n | math.greatest(1, 2, true)\n | ....................^'],
  ];
  for (const [src, want] of cases) assert.equal(errors(src), want, src);

  // The whole table as data: static errors at parse time, everything else expands.
  let passed = 0;
  for (const c of extCases('math').filter((c) => /math\.(greatest|least)\(/.test(c.expr))) {
    if (c.err?.startsWith('math.greatest()') || c.err?.startsWith('math.least()')) {
      assert.ok(errors(c.expr).includes(c.err), `${c.expr}: want ${c.err}`);
    } else {
      const e = parsed(c.expr).expr;
      const left = [...nodes(e)].filter(
        (n) => n.kind === 'call' && (n.fn === 'greatest' || n.fn === 'least') && n.target?.kind === 'ident' && n.target.name === 'math',
      );
      assert.equal(left.length, 0, c.expr);
    }
    passed++;
  }
  console.log(`cel-go math greatest/least expressions: ${passed} passed, 0 failed, 0 skipped`);
  assert.ok(passed >= 60, `only ${passed} cases found`);
});

test('proto.getExt / proto.hasExt select the extension by its qualified name (cel-go ext.Protos)', () => {
  const o = { macros: [...ALL_MACROS, ...PROTOS_MACROS] } satisfies ParseOptions;
  assert.equal(
    withIds(parsed('proto.getExt(msg, google.expr.proto2.test.int32_ext)', o).expr),
    'msg^#3.google.expr.proto2.test.int32_ext^#9',
  );
  const has = parsed('!proto.hasExt(ExampleType{}, google.expr.proto2.test.nested_example)', o).expr;
  assert.ok(has.kind === 'call' && has.fn === '!_');
  const sel = has.args[0]!;
  assert.ok(sel.kind === 'select' && sel.testOnly && sel.field === 'google.expr.proto2.test.nested_example');
  assert.equal(sel.operand.kind, 'struct');
  const cases: [string, string][] = [
    ['proto.getExt(msg, int32_ext)', 'ERROR: <input>:1:19: invalid extension field\n | proto.getExt(msg, int32_ext)\n | ..................^'],
    ["proto.hasExt(msg, 'a.b')", "ERROR: <input>:1:19: invalid extension field\n | proto.hasExt(msg, 'a.b')\n | ..................^"],
    ['proto.getExt(msg, a.b().c)', 'ERROR: <input>:1:24: invalid extension field\n | proto.getExt(msg, a.b().c)\n | .......................^'],
  ];
  for (const [src, want] of cases) assert.equal(errors(src, o), want, src);
  // Another receiver, or the library not installed: an ordinary call.
  for (const [src, opts] of [['msg.getExt(a.b, 0)', o], ['proto.getExt(msg, a.b)', EXT]] as const) {
    const e = parsed(src, opts).expr;
    assert.ok(e.kind === 'call' && e.fn === 'getExt', src);
  }
  assert.equal(parsed('proto.hasExt(m, a.b)', { macros: macrosForLibraries(['proto.hasExt']) }).expr.kind, 'select');
});

test('macrosForLibraries adds only the opt-in macros named, and reuses one array per set', () => {
  assert.equal(macrosForLibraries([]), ALL_MACROS);
  assert.equal(macrosForLibraries(['cel.bind', 'transformList']), ALL_MACROS);
  const lists = macrosForLibraries(['sortBy']);
  assert.equal(lists.length, ALL_MACROS.length + 1);
  assert.equal(macrosForLibraries(['sortBy', 'cel.bind']), lists);
  const both = macrosForLibraries(['math.least', 'sortBy', 'math.greatest']);
  assert.equal(macrosForLibraries(['math.greatest', 'math.least', 'sortBy', 'sortBy']), both);
  assert.equal(parsed('x.sortBy(e, e)', { macros: lists }).expr.kind, 'comprehension');
  const fnOf = (src: string, macros: readonly Macro[]) => {
    const e = parsed(src, { macros }).expr;
    return e.kind === 'call' ? e.fn : e.kind;
  };
  assert.equal(fnOf('math.least(1, 2)', lists), 'least');
  assert.equal(fnOf('math.least(1, 2)', both), 'math.@min');
  const onlyGreatest = macrosForLibraries(['math.greatest']);
  assert.equal(fnOf('math.least(1, 2)', onlyGreatest), 'least');
  assert.equal(fnOf('math.greatest(1, 2)', onlyGreatest), 'math.@max');
});

test('variadic logical ASTs (cel-go EnableVariadicOperatorASTs): one call per chain, first operator id', () => {
  const v = { enableVariadicOperatorASTs: true } satisfies ParseOptions;
  assert.equal(withIds(parsed('a && b && c', v).expr), '_&&_(\n  a^#1,\n  b^#2,\n  c^#4\n)^#3');
  assert.equal(
    withIds(parsed('a || b && c || d', v).expr),
    '_||_(\n  a^#1,\n  _&&_(\n    b^#2,\n    c^#3\n  )^#4,\n  d^#6\n)^#5',
  );
  // A parenthesised chain stays its own call.
  const p = parsed('(a && b) && c', v).expr;
  assert.ok(p.kind === 'call' && p.args.length === 2 && p.args[0]!.kind === 'call' && p.args[0]!.args.length === 2);
  // cel-go's TestVariadicLogicalOperators expression.
  const t = parsed('(false || false || false || false || true) &&\n (true && true && true && true && false)', v).expr;
  assert.ok(t.kind === 'call' && t.fn === '_&&_' && t.args.length === 2);
  assert.deepEqual(t.args.map((a) => a.kind === 'call' && [a.fn, a.args.length]), [['_||_', 5], ['_&&_', 5]]);
  // Off by default: a balanced tree (the same ids).
  assert.equal(
    withIds(parsed('a && b && c').expr),
    '_&&_(\n  _&&_(\n    a^#1,\n    b^#2\n  )^#3,\n  c^#4\n)^#5',
  );
});
