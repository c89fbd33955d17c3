import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Issues, CelSource } from './issues.ts';

test('prints one error with snippet and caret', () => {
  const i = new Issues('a + b x');
  i.report(6, "Syntax error: mismatched input 'x' expecting <EOF>");
  assert.equal(
    i.toString(),
    "ERROR: <input>:1:7: Syntax error: mismatched input 'x' expecting <EOF>\n | a + b x\n | ......^",
  );
});

test('sorts by line then column, multi-line snippets, tabs become spaces', () => {
  const i = new Issues('a\n\tb.c', 'rule');
  i.report(3, 'second');
  i.report(0, 'first');
  assert.equal(i.toString(), 'ERROR: rule:1:1: first\n | a\n | ^\nERROR: rule:2:2: second\n |  b.c\n | .^');
});

test('wide characters use full-width dot and caret', () => {
  const i = new Issues("'😀' + é");
  i.report(6, 'undeclared reference');
  assert.equal(i.toString(), "ERROR: <input>:1:7: undeclared reference\n | '😀' + é\n | .．....＾");
});

test('unknown location prints -1:0 without snippet', () => {
  const i = new Issues('x');
  i.report(-1, 'oops');
  assert.equal(i.toString(), 'ERROR: <input>:-1:0: oops');
});

test('caps at 100 errors', () => {
  const i = new Issues('x');
  for (let k = 0; k < 105; k++) i.report(0, `e${k}`);
  const lines = i.toString().split('\n');
  assert.equal(i.length, 105);
  assert.equal(i.errors.length, 100);
  assert.equal(lines.at(-1), '5 more errors were truncated');
  assert.equal(lines.length, 301);
});

test('source locations', () => {
  const s = new CelSource('ab\ncd\n');
  assert.deepEqual(s.location(4), { line: 2, column: 1 });
  assert.deepEqual(s.location(6), { line: 3, column: 0 });
  assert.equal(s.snippet(2), 'cd');
  assert.equal(s.snippet(3), '');
  assert.equal(s.snippet(4), undefined);
});
