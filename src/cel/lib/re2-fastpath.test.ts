/**
 * The JS RegExp fast path of re2.ts: only patterns from the safe subset get one, and on those it
 * answers exactly as RE2 (re2js) does, checked differentially over a corpus of patterns and inputs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RE2JS } from 're2js';
import { compileRegex, safeJsRegex } from './re2.ts';

const SAFE = [
  '^[a-z]+$',
  'a.c',
  '^abc',
  '[0-9]{3}-[0-9]{4}',
  '\\d+\\.\\d{0,3}',
  '^[^x]*$',
  'x\\-y',
  '[\\-a]',
  'é.',
  '^$',
  'a{2,}',
  'a+?b',
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'.replace('([-a-z0-9]*[a-z0-9])?', '[-a-z0-9]*'),
  '^[A-Za-z0-9][-A-Za-z0-9_.]*$',
  '\\w+@\\w',
  '.',
  '^\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$',
  'a?'.repeat(7) + 'b',
  // Gateway API's HTTP header name (a token: \x60 is the backquote)
  "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$",
  '^[\\x41-\\x5a]+$',
  '\\x2d\\x2e+',
  '[a\\x2dz]',
  '[\\x5e]',
  '[\\x5d\\x5c]',
];
const UNSAFE = ['\\x{60}', 'a?'.repeat(8) + 'a', 'a{0,12}b{0,12}', '(a|b)', 'a*b*', '\\s+', '[]a]', '(?i)abc', 'a**', '\\bword', '[[:alpha:]]', 'a|b', '\\pL', 'x{2}{3}', '(a+)+'];
const INPUTS = ['x-token`', 'Content-Type', 'ABC-', '-.', '-..', 'm', '^', ']', '\\', 'a]b', 'abc', 'ABC', 'a\nc', 'a\u2028c', 'a\rc', '123-4567', '1.5', 'x-y', '-', '', 'é😀', 'é\n', 'aab', '\u{1F600}', 'xaaabx', 'kube-system', 'a@b', 'my.name_1'];

test('safe patterns get a fast path that agrees with RE2', () => {
  for (const p of SAFE) {
    const js = safeJsRegex(p);
    assert.ok(js, `expected a fast path for ${p}`);
    const re = RE2JS.compile(p);
    for (const s of INPUTS) assert.equal(js.test(s), re.matcher(s).find(), `${p} on ${JSON.stringify(s)}`);
    for (const s of INPUTS) assert.equal(compileRegex(p).test(s), re.matcher(s).find());
  }
});

test('patterns outside the subset stay on RE2', () => {
  for (const p of UNSAFE) assert.equal(safeJsRegex(p), undefined, p);
});

test('no catastrophic backtracking on the fast path', () => {
  const re = compileRegex('^a*b$');
  const t = Date.now();
  assert.equal(re.test('a'.repeat(100_000) + 'c'), false);
  assert.ok(Date.now() - t < 1000);
});

test('many bounded optional quantifiers stay on RE2 (they would backtrack exponentially)', () => {
  const n = 60;
  const re = compileRegex('a?'.repeat(n) + 'a'.repeat(n));
  const t = Date.now();
  assert.equal(re.test('a'.repeat(n)), true);
  assert.equal(re.test('a'.repeat(n - 1)), false);
  assert.ok(Date.now() - t < 1000, `${Date.now() - t}ms`);
});

test('long inputs of unanchored patterns stay linear (RE2), anchored ones may use the fast path', () => {
  for (const [p, s] of [
    ['a*b', 'a'.repeat(100_000) + 'c'],
    ['[a-z]+0', 'a'.repeat(100_000)],
    ['\\d+\\.\\d{0,3}z', '1'.repeat(100_000)],
    ['^[a-z]+0', 'a'.repeat(100_000)],
  ] as const) {
    const t = Date.now();
    assert.equal(compileRegex(p).test(s), false);
    assert.ok(Date.now() - t < 1000, `${p}: ${Date.now() - t}ms`);
  }
});

