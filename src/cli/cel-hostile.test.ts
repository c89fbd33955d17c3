/**
 * Hostile expressions through the `crd-apiserver cel eval` process: each ends, within seconds, in
 * one JSON line with a clear error or a value and a defined exit status (never a hang, a stack
 * trace or a crashed process).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

function celEval(expr: string, ...flags: string[]): { status: number | null; out: unknown; ms: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'cel', 'eval', expr, ...flags], { encoding: 'utf8', timeout: 60_000 });
  const ms = performance.now() - t0;
  assert.equal(r.signal, null, `killed by ${r.signal}: ${r.stderr}`);
  assert.equal(r.stderr, '', r.stderr);
  return { status: r.status, out: JSON.parse(r.stdout), ms };
}

const nest = (n: number, inner: string, wrap: (s: string, i: number) => string) => {
  let s = inner;
  for (let i = 0; i < n; i++) s = wrap(s, i);
  return s;
};

test('cel eval: hostile expressions end in an error or a value', () => {
  const cases: [string, number, unknown][] = [
    [nest(5000, '1', (s) => `(${s})`), 2, { error: 'ERROR: <input>:-1:0: expression recursion limit exceeded: 250' }],
    [nest(30, '[1, 2]', (s, i) => `[1, 2].map(v${i}, ${s})`), 1, { error: 'operation cancelled: actual cost limit exceeded' }],
    [`cel.bind(a0, 'ab', ${nest(60, 'a60.size()', (s, i) => `cel.bind(a${60 - i}, a${59 - i} + a${59 - i}, ${s})`)})`, 1, { error: 'operation cancelled: actual cost limit exceeded' }],
    ['lists.range(3000000000).size()', 1, { error: 'operation cancelled: actual cost limit exceeded' }],
    [`'${'a'.repeat(30)}!'.matches('(a+)+$')`, 0, { type: 'bool', value: false }],
    [`size('${'a'.repeat(90_000)}')`, 0, { type: 'int', value: 90_000 }],
  ];
  for (const [expr, status, out] of cases) {
    const r = celEval(expr);
    assert.deepEqual({ status: r.status, out: r.out }, { status, out }, expr.slice(0, 80));
  }
});

test('cel eval --cost-limit', () => {
  const expr = '[1, 2, 3].map(x, x * 2).size()';
  assert.deepEqual(celEval(expr, '--cost-limit', '5').out, { error: 'operation cancelled: actual cost limit exceeded' });
  assert.deepEqual(celEval(expr, '--cost-limit', '100').out, { type: 'int', value: 3 });
  const bad = celEval(expr, '--cost-limit', 'lots');
  assert.deepEqual({ status: bad.status, out: bad.out }, { status: 2, out: { error: '--cost-limit must be a non-negative integer, got "lots"' } });
});

test('cel eval --vars: nesting deeper than encoding/json allows is a usage error, not a stack overflow', () => {
  const deep = (n: number) => `{"x": ${'['.repeat(n)}${']'.repeat(n)}}`;
  const bad = celEval('size(x)', '--vars', deep(60_000));
  assert.deepEqual({ status: bad.status, out: bad.out }, { status: 2, out: { error: '--vars: invalid JSON: exceeded max depth at offset 10005' } });
  const ok = celEval('size(x)', '--vars', deep(9_000));
  assert.deepEqual({ status: ok.status, out: ok.out }, { status: 0, out: { type: 'int', value: 1 } });
  const printed = celEval('x', '--vars', deep(9_000));
  assert.deepEqual({ status: printed.status, out: printed.out }, { status: 1, out: { error: 'result nested too deeply to print as JSON' } });
});

