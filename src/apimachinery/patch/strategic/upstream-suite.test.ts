/**
 * Upstream's strategicpatch test tables (patch_test.go), converted to vectors by
 * testdata/k8s-strategicpatch/convert.ts, run as data against the OpenAPI v3 lookup. Each
 * skip gives its reason; the counts are printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OpenAPIV3PatchMeta, StrategicMergePatchError, strategicMergePatch, strategicMergePatchJSON } from './index.ts';

interface Vector {
  name: string;
  schema: string;
  original: Record<string, unknown>;
  patch: unknown;
  expected?: unknown;
  expectedError?: string;
  originalText?: string;
  patchText?: string;
}
const dir = new URL('../../../../testdata/k8s-strategicpatch/', import.meta.url);
const suite = JSON.parse(readFileSync(new URL('vectors.json', dir), 'utf8')) as {
  count: number;
  cases: Vector[];
  skipped: Array<{ name: string; reason: string }>;
};
const lookups = new Map(
  ['mergeItem', 'precisionItem'].map((n) => {
    const file = n === 'mergeItem' ? 'swagger-merge-item-v3.json' : 'swagger-precision-item-v3.json';
    return [n, OpenAPIV3PatchMeta.forSchema(JSON.parse(readFileSync(new URL(file, dir), 'utf8')), n)!];
  }),
);

let passed = 0;
let failed = 0;

test('the vector file holds every converted case', () => {
  assert.equal(suite.cases.length, suite.count);
  assert.ok(suite.cases.length >= 298, `only ${suite.cases.length} cases`);
  assert.ok(suite.skipped.every((s) => s.reason.length > 0));
});

for (const c of suite.cases) {
  test(c.name, () => {
    try {
      const schema = lookups.get(c.schema)!;
      const run = () =>
        c.originalText !== undefined
          ? strategicMergePatchJSON(c.originalText, c.patchText!, schema)
          : strategicMergePatch(c.original, c.patch, schema);
      if (c.expectedError !== undefined) {
        assert.throws(run, (e: unknown) => e instanceof StrategicMergePatchError && e.message.includes(c.expectedError!));
      } else {
        assert.deepStrictEqual(run(), c.expected);
      }
      passed++;
    } catch (e) {
      failed++;
      throw e;
    }
  });
}

for (const s of suite.skipped) test(s.name, { skip: s.reason }, () => {});

test.after(() => {
  console.log(`strategicpatch upstream tables: ${passed} passed, ${failed} failed, ${suite.skipped.length} skipped`);
});
