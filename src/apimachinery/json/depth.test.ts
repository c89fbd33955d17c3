import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { maxNestingDepth, nestingDepthError, valueDepth } from './depth.ts';
import { goJSONSyntaxError, parseGoJSONText } from './go-json.ts';

interface Case {
  name: string;
  prefix: string;
  open: string;
  count: number;
  leaf: string;
  close: string;
  suffix: string;
  error: string | null;
}

const vectors = JSON.parse(readFileSync(new URL('../../../testdata/go-json/max-depth.json', import.meta.url), 'utf8')) as { cases: Case[] };
const text = (c: Case) => c.prefix + c.open.repeat(c.count) + c.leaf + c.close.repeat(c.count) + c.suffix;

test('Go TestUnmarshalMaxDepth vectors: the scanner and the depth check agree with encoding/json', () => {
  assert.ok(vectors.cases.length >= 6, `only ${vectors.cases.length} cases`);
  for (const c of vectors.cases) {
    const data = text(c);
    // The scanner (every syntax error, depth included) and the post-parse check valid text gets.
    assert.equal(goJSONSyntaxError(data) ?? null, c.error, `${c.name}: scanner`);
    assert.equal(nestingDepthError(data) ?? null, c.error, `${c.name}: nestingDepthError`);
  }
});

test('the error is the first one Go meets: a syntax error before the depth is exceeded wins', () => {
  assert.equal(goJSONSyntaxError('[x' + '['.repeat(maxNestingDepth)), "invalid character 'x' looking for beginning of value");
  // Brackets inside strings do not nest.
  assert.equal(nestingDepthError(JSON.stringify({ s: '['.repeat(2 * maxNestingDepth) })), undefined);
  assert.equal(nestingDepthError(JSON.stringify({ s: '\\"' + '{'.repeat(2 * maxNestingDepth) })), undefined);
  // A string's end is the quote after an even run of backslashes: what follows nests again.
  const deep = '['.repeat(maxNestingDepth + 1) + ']'.repeat(maxNestingDepth + 1);
  for (const s of ['\\', '\\\\', 'a\\"b', '\\\\\\"[[[', '"'.repeat(3)]) {
    assert.equal(nestingDepthError(`[${JSON.stringify(s)},${deep}]`), "invalid character '[' exceeded max depth", s);
    assert.equal(nestingDepthError(`[${JSON.stringify(s + '['.repeat(2 * maxNestingDepth))}]`), undefined, s);
  }
});

test('a long text with few brackets is judged without its scan; many shallow ones still pass', () => {
  const wide = JSON.stringify(Array.from({ length: 3 * maxNestingDepth }, (_, i) => ({ i })));
  assert.equal(nestingDepthError(wide), undefined);
  const mixed = '['.repeat(maxNestingDepth / 2) + '{"a":' + '['.repeat(maxNestingDepth / 2 + 1) + '1' + ']'.repeat(maxNestingDepth / 2 + 1) + '}' + ']'.repeat(maxNestingDepth / 2);
  assert.equal(nestingDepthError(mixed), "invalid character '[' exceeded max depth");
});

test('parseGoJSONText reads values as deep as Go accepts without recursing', () => {
  const deep = '['.repeat(maxNestingDepth) + '1' + ']'.repeat(maxNestingDepth);
  const r = parseGoJSONText(deep, Number);
  assert.equal(r.error, undefined);
  assert.equal(valueDepth(r.value), maxNestingDepth);
  const objs = '{"a":'.repeat(maxNestingDepth) + '{}' + '}'.repeat(maxNestingDepth);
  assert.deepEqual(parseGoJSONText(objs), { error: "invalid character '{' exceeded max depth" });
  // Members, order and __proto__ keys survive the explicit-stack reader.
  const parsed = parseGoJSONText('{"b":[1,{"c":null}],"__proto__":{"x":true},"a":"s"}');
  assert.ok(parsed.error === undefined);
  const v = parsed.value as Record<string, unknown>;
  assert.deepEqual(Object.keys(v), ['b', '__proto__', 'a']);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
});
