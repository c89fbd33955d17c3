/**
 * cel-go's parser/parser_test.go table, run as data (testdata/cel-parser/parser_test_cases.json):
 * each case parses with the options cel-go's test parser uses and compares the error text, the
 * id/kind-adorned debug print (P), the position-adorned print (L) and the macro calls (M), all with
 * whitespace removed as cel-go's test.Compare does. Skipped cases each say why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse, type ParseOptions } from './parser.ts';
import { STANDARD_MACROS, type Macro } from './macros.ts';
import { toDebugString, type DebugNode } from './debug.ts';
import { cloneExpr, type Expr, type MapEntry, type ParsedExpr, type StructField } from './ast.ts';
import { CelSource } from '../common/issues.ts';

interface Case {
  line: number;
  I: string;
  P?: string;
  E?: string;
  L?: string;
  M?: string;
  Opts?: string;
}

const cases: Case[] = JSON.parse(
  readFileSync(new URL('../../../testdata/cel-parser/parser_test_cases.json', import.meta.url), 'utf8'),
);

/** Inputs whose expected output depends on ANTLR internals this parser does not reproduce. */
const SKIP: Record<string, string> = {};

function optionsFor(c: Case): ParseOptions {
  const o: ParseOptions = {
    macros: STANDARD_MACROS,
    maxRecursionDepth: 32,
    errorRecoveryLimit: 4,
    errorRecoveryLookaheadTokenLimit: 4,
    enableOptionalSyntax: false,
  };
  const opts = c.Opts ?? '';
  for (const m of opts.matchAll(/(\w+)\(([^()]*)\)/g)) {
    const [, name, arg] = m;
    switch (name) {
      case 'EnableOptionalSyntax': o.enableOptionalSyntax = arg === 'true'; break;
      case 'EnableIdentEscapeSyntax': o.enableIdentEscapeSyntax = arg === 'true'; break;
      case 'EnableHiddenAccumulatorName': o.enableHiddenAccumulatorName = arg === 'true'; break;
      case 'ErrorRecoveryLookaheadTokenLimit': o.errorRecoveryLookaheadTokenLimit = Number(arg); break;
      case 'ErrorRecoveryLimit': o.errorRecoveryLimit = Number(arg); break;
      case 'ErrorReportingLimit': o.errorReportingLimit = Number(arg); break;
    }
  }
  if (opts.includes('noop_macro')) {
    const noop: Macro = { name: 'noop_macro', argCount: '*', receiver: false, expand: () => undefined };
    o.macros = [...STANDARD_MACROS, noop];
  }
  return o;
}

const strip = (s: string): string => s.replace(/[ \n\t\r]/g, '');

function kindOf(n: DebugNode): string {
  switch (n.kind) {
    case 'call': return '*expr.Expr_CallExpr';
    case 'comprehension': return '*expr.Expr_ComprehensionExpr';
    case 'ident': return '*expr.Expr_IdentExpr';
    case 'list': return '*expr.Expr_ListExpr';
    case 'map': case 'struct': return '*expr.Expr_StructExpr';
    case 'select': return '*expr.Expr_SelectExpr';
    case 'unspecified': return '';
    case 'const':
      switch (n.value.kind) {
        case 'bool': return '*expr.Constant_BoolValue';
        case 'bytes': return '*expr.Constant_BytesValue';
        case 'double': return '*expr.Constant_DoubleValue';
        case 'int': return '*expr.Constant_Int64Value';
        case 'null': return '*expr.Constant_NullValue';
        case 'string': return '*expr.Constant_StringValue';
        case 'uint': return '*expr.Constant_Uint64Value';
      }
  }
}

function kindAdorner(macroCalls?: Map<number, Expr>) {
  return (n: DebugNode | MapEntry | StructField, isEntry: boolean): string => {
    if (isEntry) return `^#${n.id}:*expr.Expr_CreateStruct_Entry#`;
    const mc = macroCalls?.get(n.id);
    if (mc && mc.kind === 'call') return `^#${n.id}:${mc.fn}#`;
    return `^#${n.id}:${kindOf(n as DebugNode)}#`;
  };
}

function locationAdorner(parsed: ParsedExpr) {
  const src = new CelSource(parsed.sourceInfo.source);
  return (n: DebugNode | MapEntry | StructField): string => {
    const off = parsed.sourceInfo.positions.get(n.id);
    const loc = off === undefined ? { line: -1, column: -1 } : src.location(off);
    return `^#${n.id}[${loc.line},${loc.column}]#`;
  };
}

/** cel-go's buildMacroCallArg: nested macro expansions print as placeholders. */
function macroArg(e: Expr, calls: Map<number, Expr>): DebugNode {
  if (calls.has(e.id)) return { id: e.id, kind: 'unspecified' };
  if (e.kind === 'call') {
    const args = e.args.map((a) => macroArg(a, calls)) as Expr[];
    if (!e.target) return { ...e, args };
    return { ...e, target: macroArg(e.target, calls) as Expr, args };
  }
  if (e.kind === 'list') return { ...e, elements: e.elements.map((a) => macroArg(a, calls)) as Expr[] };
  return e;
}

function macroCallsString(parsed: ParsedExpr): string {
  const calls = parsed.sourceInfo.macroCalls;
  const keys = [...calls.keys()].sort((a, b) => b - a);
  return keys
    .map((k) => {
      const call = calls.get(k)! as Extract<Expr, { kind: 'call' }>;
      const node = macroArg({ ...call, id: k } as Expr, new Map([...calls].filter(([id]) => id !== k)));
      const withTarget = call.target ? { ...(node as Expr), target: macroArg(call.target, calls) } : node;
      return toDebugString(withTarget as DebugNode, kindAdorner(calls));
    })
    .join(',\n');
}

let passed = 0;
let failed = 0;
let skipped = 0;

for (const [i, c] of cases.entries()) {
  const name = `${i} ${c.I.slice(0, 60)}`;
  const reason = SKIP[c.I];
  if (reason) {
    skipped++;
    test(name, { skip: reason }, () => {});
    continue;
  }
  test(name, () => {
    try {
      const { parsed, issues } = parse(c.I, optionsFor(c));
      if (issues.hasErrors()) {
        assert.ok(c.E, `unexpected errors:\n${issues.toString()}`);
        assert.equal(strip(issues.toString()), strip(c.E!), `errors:\n${issues.toString()}\nwanted:\n${c.E}`);
        passed++;
        return;
      }
      assert.ok(!c.E, `expected error not reported: ${c.E}`);
      const p = parsed!;
      // The checker's copy of the tree is the same tree, sharing no node.
      const copy = cloneExpr(p.expr);
      assert.deepEqual(copy, structuredClone(p.expr));
      assert.ok(!sharesNode(copy, p.expr), 'cloneExpr shares a node with its input');
      const actual = toDebugString(p.expr, kindAdorner());
      assert.equal(strip(actual), strip(c.P ?? ''), `structure:\n${actual}\nwanted:\n${c.P}`);
      if (c.L) {
        const loc = toDebugString(p.expr, locationAdorner(p));
        assert.equal(strip(loc), strip(c.L), `locations:\n${loc}`);
      }
      if (c.M) {
        const m = macroCallsString(p);
        assert.equal(strip(m), strip(c.M), `macro calls:\n${m}`);
      }
      passed++;
    } catch (e) {
      failed++;
      throw e;
    }
  });
}

/** Whether any object reachable from `a` is also reachable from `b`. */
function sharesNode(a: unknown, b: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (x: unknown, into: Set<unknown> | undefined): boolean => {
    if (x === null || typeof x !== 'object' || x instanceof Uint8Array) return false;
    if (into) into.add(x);
    else if (seen.has(x)) return true;
    return Object.values(x).some((v) => walk(v, into));
  };
  walk(b, seen);
  return walk(a, undefined);
}

test('summary', () => {
  console.log(`cel-go parser table: ${passed} passed, ${failed} failed, ${skipped} skipped (of ${cases.length})`);
  for (const [input, why] of Object.entries(SKIP)) console.log(`  skipped ${JSON.stringify(input.slice(0, 50))}: ${why}`);
  assert.equal(failed, 0);
});
