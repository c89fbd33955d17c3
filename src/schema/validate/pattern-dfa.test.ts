// The ASCII DFA of schema patterns against RE2 (re2js, the reference every pattern check falls
// back to): hand-picked cases of the semantics that differ between regex engines, then every
// pattern of the vendored CRD bundles on texts generated from its own characters. Wherever the DFA
// answers, it must answer as RE2 does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { RE2JS } from 're2js';
import { compileAsciiPattern } from './pattern-dfa.ts';

const re2 = (p: string, x: string): boolean => RE2JS.compile(p).test(x);

test('pattern DFA: hand-picked cases answer as RE2', () => {
  const cases: [string, string[]][] = [
    ['^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', ['', 'a', 'a-', '-a', 'a.b', 'a..b', 'foo.example.com', 'A', 'a_b', 'a.b-', 'x'.repeat(300)]],
    ['^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$', ['*.a.b', '*a', '**.a', 'a']],
    ['abc', ['abc', 'xabcx', 'ab', '']], // unanchored: anywhere
    ['a$', ['a', 'ba', 'a\n', 'ab']], // $ is the text's end only (no multi-line)
    ['^a', ['a', 'ba', '\na']],
    ['a$b', ['ab', 'a', 'b', '']], // never
    ['$^', ['', 'a']],
    ['x*', ['', 'yyy']],
    ['^.$', ['a', '\n', '\r', '']], // . is anything but \n
    ['^[^a]$', ['a', 'b', '\n']],
    ['^[]a]+$', [']', 'a]', 'b']], // a leading ] is literal in RE2
    ['^[a-]+$', ['a-', '-', 'b']],
    ['^[\\d\\w.-]{2,3}$', ['a1', 'a', 'a.-', 'abcd', '__']],
    ['^\\s\\S$', [' a', '\ta', '\va', '  ']], // RE2's \s has no \v
    ['^\\x41\\.\\/$', ['A./', 'A.x']],
    ['^(?:ab|cd)*?e$', ['e', 'abe', 'abcde', 'ace']],
    ['^a{2}b{1,}c{0,2}$', ['aab', 'aabbbcc', 'ab', 'aabccc']],
    ['(a|)b', ['b', 'ab', 'c']],
    ['^()$', ['', 'a']],
    ['^a|b$', ['ax', 'xb', 'x']],
    ['[\\t\\n]', ['\t', 'a', '\n']],
  ];
  let judged = 0;
  for (const [p, xs] of cases) {
    const dfa = compileAsciiPattern(p);
    assert.ok(dfa !== undefined, `${p} is translated`);
    for (const x of xs) {
      const got = dfa(x);
      assert.equal(got, re2(p, x), `${p} on ${JSON.stringify(x)}`);
      judged++;
    }
  }
  assert.ok(judged >= 70, `${judged} cases`);
});

test('pattern DFA: what it does not judge is left to RE2', () => {
  // Outside the subset: word boundaries, flags, named groups, Unicode classes, POSIX classes, \Q…\E.
  for (const p of ['\\bfoo', '(?i)foo', '(?P<x>a)', '\\pL', '[[:alpha:]]', '\\Qa.b\\E', 'a{2']) assert.equal(compileAsciiPattern(p), undefined, p);
  const dfa = compileAsciiPattern('^.+$')!;
  assert.equal(dfa('é'), undefined, 'a text beyond ASCII');
  assert.equal(dfa('ab'), true);
  // A DFA that would grow past its bound gives up (the last 12 characters of a search).
  const big = compileAsciiPattern('[ab]*a[ab]{12}$')!;
  let undecided = 0;
  for (let i = 0; i < 400; i++) {
    const x = Array.from({ length: 24 }, (_, j) => ((i * 2654435761) >>> j) & 1 ? 'a' : 'b').join('');
    const got = big(x);
    if (got === undefined) undecided++;
    else assert.equal(got, re2('[ab]*a[ab]{12}$', x), x);
  }
  assert.ok(undecided > 0, 'the bound was reached');
});

/** Every `pattern` in a CRD bundle's text (YAML), as written. */
function patternsIn(text: string, into: Set<string>): void {
  for (const m of text.matchAll(/^\s*pattern: (.*)$/gm)) {
    let p = m[1]!.trim();
    if (p.startsWith("'")) p = p.slice(1, -1).replaceAll("''", "'");
    else if (p.startsWith('"')) p = JSON.parse(p) as string;
    into.add(p);
  }
}

/** Deterministic texts over a pattern's own characters and a few others, lengths 0-24. */
function textsFor(p: string, n: number): string[] {
  const alphabet = [...new Set([...p.replace(/\\./g, ''), 'a', 'z', 'A', '0', '9', '-', '.', '/', '_', ':', ' ', '*'])].filter((c) => c.charCodeAt(0) < 128);
  let seed = 12345;
  const rnd = (m: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % m;
  };
  const out: string[] = [''];
  for (let i = 0; i < n; i++) out.push(Array.from({ length: rnd(25) }, () => alphabet[rnd(alphabet.length)]).join(''));
  return out;
}

test('pattern DFA: the vendored bundles\' patterns answer as RE2', () => {
  const testdata = new URL('../../../testdata/crds/', import.meta.url).pathname;
  const patterns = new Set<string>();
  patternsIn(readFileSync(join(testdata, 'cert-manager/cert-manager.crds.yaml'), 'utf8'), patterns);
  patternsIn(readFileSync(join(testdata, 'gateway-api/crds/standard-install.yaml'), 'utf8'), patterns);
  for (const f of readdirSync(join(testdata, 'bundles'))) patternsIn(gunzipSync(readFileSync(join(testdata, 'bundles', f))).toString(), patterns);
  let translated = 0;
  let judged = 0;
  for (const p of patterns) {
    let r: RE2JS;
    try {
      r = RE2JS.compile(p);
    } catch {
      continue; // not RE2: the validator reports it without matching
    }
    const dfa = compileAsciiPattern(p);
    if (dfa === undefined) continue;
    translated++;
    for (const x of textsFor(p, 150)) {
      const got = dfa(x);
      if (got === undefined) continue;
      assert.equal(got, r.test(x), `${p} on ${JSON.stringify(x)}`);
      judged++;
    }
  }
  // The bundles hold 47 distinct patterns; all but 3 are in the subset.
  assert.ok(translated >= 40, `${translated} of ${patterns.size} patterns translated`);
  assert.ok(judged >= 40 * 100, `${judged} texts judged`);
});
