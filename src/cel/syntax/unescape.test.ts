/**
 * cel-go's parser/unescape_test.go table, run as data (testdata/cel-parser/unescape_test_cases.json;
 * expected outputs are the UTF-8 bytes of the Go strings).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { unescape } from './unescape.ts';

interface Case {
  in: string;
  out?: number[];
  error?: string;
  isBytes?: boolean;
}

const cases: Case[] = JSON.parse(
  readFileSync(new URL('../../../testdata/cel-parser/unescape_test_cases.json', import.meta.url), 'utf8'),
);

let passed = 0;
for (const c of cases) {
  test(`unescape(${c.in}, ${c.isBytes ?? false})`, () => {
    const r = unescape(c.in, c.isBytes ?? false);
    if (c.error !== undefined) {
      assert.equal(r.ok, false, `expected error ${c.error}`);
      if (!r.ok) assert.ok(r.error.includes(c.error), `${r.error} does not contain ${c.error}`);
    } else {
      assert.ok(r.ok, r.ok ? '' : r.error);
      if (r.ok) {
        const bytes = typeof r.value === 'string' ? [...Buffer.from(r.value, 'utf8')] : [...r.value];
        assert.deepEqual(bytes, c.out);
      }
    }
    passed++;
  });
}

test('invalid code points in strings are rejected, raw bytes in bytes literals are kept', () => {
  assert.deepEqual(unescape("'\\ud800'", false), { ok: false, error: 'invalid unicode code point' });
  assert.deepEqual(unescape("'\\U00110000'", false), { ok: false, error: 'invalid unicode code point' });
  const r = unescape("'\\xff\\377a'", true);
  assert.ok(r.ok && r.value instanceof Uint8Array);
  if (r.ok) assert.deepEqual([...(r.value as Uint8Array)], [0xff, 0xff, 0x61]);
  const s = unescape("'\\U0001F600\\x41'", false);
  assert.deepEqual(s, { ok: true, value: '😀A' });
  assert.deepEqual(unescape("'a\r\nb'", false), { ok: true, value: 'a\nb' });
});

test('summary', () => {
  console.log(`cel-go unescape table: ${passed} passed, ${cases.length - passed} failed, 0 skipped (of ${cases.length})`);
  assert.equal(passed, cases.length);
});
