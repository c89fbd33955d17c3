/**
 * The blang/semver port against blang/semver's own tables (testdata/cel-kubernetes/
 * blang_semver.json): Parse, Compare, rejected inputs, and Kubernetes' normalizing parse (which,
 * unlike blang's ParseTolerant, does not trim whitespace).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareSemver, normalizeAndParse, parseSemver, type Version } from './semver.ts';

const data = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../testdata/cel-kubernetes/blang_semver.json', import.meta.url)), 'utf8'));

const parse = (s: string): Version => {
  const v = parseSemver(s);
  assert.ok(typeof v !== 'string', `${s}: ${v}`);
  return v;
};

/** Tolerant cases Kubernetes' normalizeAndParse answers differently from blang's ParseTolerant. */
const TOLERANT_SKIP: Record<string, string> = {
  '\t1.2.3 ': "Kubernetes' normalizeAndParse does not trim whitespace (upstream's test expects isSemver(' 1.0.0', true) to be false)",
};

test('Parse and Compare (blang formatTests, compareTests)', () => {
  for (const s of data.format as string[]) assert.equal(compareSemver(parse(s), parse(s)), 0, s);
  for (const [a, b, want] of data.compare as [string, string, number][]) {
    assert.equal(compareSemver(parse(a), parse(b)), want, `${a} vs ${b}`);
    assert.equal(compareSemver(parse(b), parse(a)), -want || 0, `${b} vs ${a}`);
  }
});

test('rejected versions (blang wrongformatTests, wrongTolerantFormatTests)', () => {
  for (const s of data.wrong as string[]) assert.equal(typeof parseSemver(s), 'string', `${JSON.stringify(s)} parsed`);
  for (const s of data.wrongTolerant as string[]) assert.equal(typeof normalizeAndParse(s), 'string', `${s} parsed`);
  assert.equal(normalizeAndParse('1.0+abc'), 'short version cannot contain PreRelease/Build meta data');
  assert.equal(normalizeAndParse('1.0-rc.1'), 'Invalid character(s) found in minor number "0-rc"');
  assert.equal(parseSemver('v1.0'), 'No Major.Minor.Patch elements found');
  assert.equal(parseSemver('1.1.01'), 'Patch number must not contain leading zeroes "01"');
  assert.equal(parseSemver('1.a.1'), 'Invalid character(s) found in minor number "a"');
  assert.equal(parseSemver('1..1'), 'strconv.ParseUint: parsing "": invalid syntax');
  assert.equal(parseSemver('20000000000000000000.1.1'), 'strconv.ParseUint: parsing "20000000000000000000": value out of range');
  assert.equal(parseSemver('0.0.0-!'), 'Invalid character(s) found in prerelease "!"');
  assert.equal(parseSemver('0.0.0-alpha+'), 'Build meta data is empty');
});

test('normalizing parse (blang tolerantFormatTests)', () => {
  let skipped = 0;
  for (const c of data.tolerant as { in: string; want: string }[]) {
    if (TOLERANT_SKIP[c.in]) {
      skipped++;
      assert.equal(typeof normalizeAndParse(c.in), 'string', 'whitespace is rejected');
      continue;
    }
    const v = normalizeAndParse(c.in);
    assert.ok(typeof v !== 'string', `${c.in}: ${v}`);
    assert.equal(compareSemver(v, parse(c.want)), 0, c.in);
  }
  console.log(`semver tolerant: ${data.tolerant.length - skipped} passed, ${skipped} skipped`);
});
