/**
 * cel-go's parser/unparser_test.go table, run as data (testdata/cel-parser/unparser_test_cases.json):
 * each input parses, unparses to the expected text, and the text parses back to the same tree (ids
 * included, as cel-go compares the protos).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from './parser.ts';
import { unparse, type UnparseOptions } from './unparse.ts';
import { STANDARD_MACROS, macrosForLibraries } from './macros.ts';
import { toDebugString } from './debug.ts';

interface Case {
  name: string;
  in: string;
  out?: string;
  requiresMacroCalls?: boolean;
  options?: { wrapOnColumn?: number; wrapOnOperators?: string[]; wrapAfterColumnLimit?: boolean };
}

const cases: Case[] = JSON.parse(
  readFileSync(new URL('../../../testdata/cel-parser/unparser_test_cases.json', import.meta.url), 'utf8'),
);

const OPERATOR: Record<string, string> = {
  Add: '_+_', Subtract: '_-_', Multiply: '_*_', Divide: '_/_', Modulo: '_%_', Equals: '_==_',
  NotEquals: '_!=_', Greater: '_>_', GreaterEquals: '_>=_', Less: '_<_', LessEquals: '_<=_', In: '@in',
  LogicalAnd: '_&&_', LogicalOr: '_||_', Conditional: '_?_:_', Negate: '-_',
};

const parseOpts = { macros: STANDARD_MACROS, enableOptionalSyntax: true };
const withIds = (e: Parameters<typeof toDebugString>[0]): string =>
  toDebugString(e, (n) => `@${n.id}`);

let passed = 0;
let failed = 0;
for (const c of cases) {
  test(`${c.name}: ${c.in.slice(0, 50)}`, () => {
    try {
      const { parsed, issues } = parse(c.in, parseOpts);
      assert.ok(parsed, issues.toString());
      const opts: UnparseOptions = {};
      if (c.options?.wrapOnColumn !== undefined) opts.wrapOnColumn = c.options.wrapOnColumn;
      if (c.options?.wrapOnOperators) opts.wrapOnOperators = c.options.wrapOnOperators.map((o) => OPERATOR[o]!);
      if (c.options?.wrapAfterColumnLimit !== undefined) opts.wrapAfterColumnLimit = c.options.wrapAfterColumnLimit;
      const out = unparse(parsed.expr, parsed.sourceInfo, opts);
      assert.equal(out, c.out ?? c.in);
      const again = parse(out, parseOpts);
      assert.ok(again.parsed, again.issues.toString());
      assert.equal(withIds(again.parsed.expr), withIds(parsed.expr));
      passed++;
    } catch (e) {
      failed++;
      throw e;
    }
  });
}

test('unparse option errors are worded as cel-go words them', () => {
  const e = parse('null').parsed!.expr;
  assert.throws(() => unparse(e, undefined, { wrapOnColumn: 0 }), {
    message: 'Invalid unparser option. Wrap column value must be greater than or equal to 1. Got 0 instead',
  });
  assert.throws(() => unparse(e, undefined, { wrapOnOperators: ['bogus'] }), {
    message: 'Invalid unparser option. Unsupported operator: bogus',
  });
  assert.throws(() => unparse(e, undefined, { wrapOnOperators: ['-_'] }), {
    message: 'Invalid unparser option. Unary operators are unsupported: -_',
  });
});

test('a comprehension without its macro call cannot be unparsed', () => {
  const p = parse('[1].all(x, x > 0)').parsed!;
  assert.throws(() => unparse(p.expr), /unsupported expression/);
});

test('variadic logical chains print every term and parse back to the same chain', () => {
  const opts = { enableVariadicOperatorASTs: true };
  const cases: [string, string][] = [
    ['a && b && c', 'a && b && c'],
    ['a || b && c || d', 'a || b && c || d'],
    ['(a || b) && c && (d || e)', '(a || b) && c && (d || e)'],
    ['a && (b && c) && d', 'a && b && c && d'],
    ['(a ? b : c) || d || e', '(a ? b : c) || d || e'],
  ];
  for (const [src, want] of cases) {
    const p = parse(src, opts).parsed!;
    const text = unparse(p.expr, p.sourceInfo);
    assert.equal(text, want, src);
    const again = parse(text, opts).parsed!;
    assert.equal(toDebugString(again.expr), toDebugString(parse(want, opts).parsed!.expr), src);
  }
  // The sortBy and math macros print as written, from their recorded calls.
  const m = { macros: macrosForLibraries(['sortBy', 'math.greatest']) };
  for (const src of ['x.sortBy(e, -e).map(e, e * 2)', '[3, 1].sortBy(e, e).sortBy(e, -e)', 'math.greatest(1, 2, 3)']) {
    const p = parse(src, m).parsed!;
    assert.equal(unparse(p.expr, p.sourceInfo), src);
  }
});

test('summary', () => {
  console.log(`cel-go unparser table: ${passed} passed, ${failed} failed, 0 skipped (of ${cases.length})`);
  assert.equal(failed, 0);
});
