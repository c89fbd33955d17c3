/**
 * cel-go's extension-library tests, run as data (testdata/cel-go-ext/): each expression must
 * evaluate to true, or fail with the expected message. Cases that cannot run here are skipped
 * with their reason; counts are printed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Env, allExtensionLibraries, extensionLibraries } from '../index.ts';

interface Case {
  expr: string;
  err?: string;
  parseOnly?: boolean;
  hasEnv?: boolean;
}

const DIR = new URL('../../../testdata/cel-go-ext/', import.meta.url);

/** Cases skipped, by expression, with the reason. */
const SKIP: Record<string, string> = {
  "'tacocat'.indexOf('a', 30) == -1": 'the cel-spec conformance suite requires an error for offsets past the end (cel-go HEAD returns -1)',
  "'tacocat'.lastIndexOf('a', 30) == -1": 'the cel-spec conformance suite requires an error for offsets past the end (cel-go HEAD returns -1)',
  "[1.0, 2.0, 2.0].transformList(i, v, i / 2.0 == 1.0)": 'cel-go declares the index variable as dyn here; our checker types it int',
  '100.least(42) == 42': "needs the Go test's own int.least member function (the macro only expands on math.)",
  '100.greatest(42) == 100': "needs the Go test's own int.greatest member function (the macro only expands on math.)",
};

function reasonFor(c: Case): string | undefined {
  if (SKIP[c.expr]) return SKIP[c.expr];
  if (c.parseOnly) return 'parse-only case';
  if (c.hasEnv) return 'needs declarations or inputs from the Go test';
  if (/ExampleType|TestAllTypes|GlobalEnum/.test(c.expr)) return 'needs object types from the Go test';
  if (/^a in /.test(c.expr)) return "set-membership optimizer output cases (need the Go test's variables)";
  return undefined;
}

const env = new Env({ libraries: [...allExtensionLibraries] });

for (const lib of ['strings', 'lists', 'sets', 'math', 'encoders', 'bindings', 'comprehensions']) {
  test(`cel-go ext/${lib}_test.go expressions`, () => {
    const cases = JSON.parse(readFileSync(new URL(`${lib}.json`, DIR), 'utf8')) as Case[];
    let passed = 0;
    let skipped = 0;
    const failures: string[] = [];
    const expectsError = new Set(cases.filter((c) => c.err !== undefined).map((c) => c.expr));
    for (const c of cases) {
      if (reasonFor(c) || (c.err === undefined && expectsError.has(c.expr))) {
        skipped++;
        continue;
      }
      const compiled = env.compile(c.expr);
      let ok: boolean;
      let got: string;
      if (!compiled.program) {
        got = `compile error: ${compiled.issues}`;
        ok = c.err !== undefined && compiled.issues.includes(c.err);
      } else {
        const r = compiled.program.eval({});
        got = r.error ? `error: ${r.error.message}` : String(r.value);
        // Cases with neither `err` nor a boolean result are cost-tracking cases: they must just run.
        ok = c.err !== undefined ? r.error !== undefined && r.error.message.includes(c.err) : r.value === true || (r.error === undefined && typeof r.value !== 'boolean');
      }
      if (ok) passed++;
      else failures.push(`${c.expr} => ${got}${c.err ? ` (want error containing ${c.err})` : ''}`);
    }
    console.log(`ext/${lib}: ${passed} passed, ${failures.length} failed, ${skipped} skipped`);
    assert.deepEqual(failures, []);
    assert.ok(passed > 0);
  });
}

test('strings version 2 (as Kubernetes installs it) formats as cel-go v2 did', () => {
  const v2 = new Env({ libraries: [extensionLibraries.stringsV2] });
  const table: [string, string][] = [
    ["'%e'.format([3.14])", '3.140000×10⁰⁰'],
    ["'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')])", '1 abc 1.000000 60s 2000-01-01T00:00:00Z'],
    ["'%o %o %o'.format([7, 8, 9])", '7 10 11'],
    ["'%b %b %b'.format([7, 8, 9])", '111 1000 1001'],
    ["'%.2f'.format([1234567.891])", '1,234,567.89'],
    ["'%s'.format([['abc', 3.14, null, {'k': 1}]])", '["abc", 3.140000, null, {"k":1}]'],
    ["'%x'.format(['Hello'])", '48656c6c6f'],
  ];
  for (const [src, want] of table) {
    const c = v2.compile(src);
    assert.ok(c.program, `${src}: ${c.issues}`);
    assert.equal(c.program.eval({}).value, want, src);
  }
  const bad = v2.compile("'%d'.format([1.5])");
  assert.ok(bad.program);
  assert.equal(bad.program.eval({}).error?.message, 'error during formatting: decimal clause can only be used on integers, was given double');
});
