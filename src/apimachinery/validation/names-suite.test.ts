/**
 * Kubernetes' own good/bad value lists for the name checks, run as data. No skips.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  isWildcardDNS1123Subdomain,
} from './names.ts';

const data = JSON.parse(
  readFileSync(new URL('../../../testdata/apimachinery/k8s-name-validation.json', import.meta.url), 'utf8'),
) as { checks: Record<string, { good: string[]; bad: string[] }> };

const fns: Record<string, (v: string) => string[]> = {
  isDNS1123Label,
  isDNS1123Subdomain,
  isDNS1035Label,
  isQualifiedName,
  isValidLabelValue,
  isWildcardDNS1123Subdomain,
  isValidPortName,
};

let passed = 0;
let failed = 0;
for (const [name, { good, bad }] of Object.entries(data.checks)) {
  const fn = fns[name];
  test(`${name}: upstream good and bad values`, () => {
    assert.ok(fn, `no implementation for ${name}`);
    for (const v of good) {
      const ok = fn(v).length === 0;
      ok ? passed++ : failed++;
      assert.deepEqual(fn(v), [], `${name}(${JSON.stringify(v)})`);
    }
    for (const v of bad) {
      const ok = fn(v).length > 0;
      ok ? passed++ : failed++;
      assert.ok(ok, `${name}(${JSON.stringify(v)}) should fail`);
    }
  });
}

test('name validation suite counts', () => {
  console.log(`k8s name validation suite: ${passed} passed, ${failed} failed, 0 skipped`);
  assert.equal(failed, 0);
});
