/**
 * evanphx/json-patch's own test tables, run as data against json-patch.ts and merge-patch.ts.
 * Skipped cases are listed with their reasons; the counts are printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyJSONPatch, decodeJSONPatch } from './json-patch.ts';
import { applyMergePatch } from './merge-patch.ts';

interface Suite {
  jsonPatch: {
    cases: Array<{ doc: string; patch: string; result: string }>;
    mutationCases: Array<{ doc: string; patch: string }>;
    badCases: Array<{ doc: string; patch: string }>;
    testCases: Array<{ doc: string; patch: string; result: boolean; failedPath: string }>;
  };
  mergePatch: {
    cases: Array<{ doc: string; patch: string; result: string }>;
    failCases: Array<{ doc: string; patch: string }>;
  };
}

const suite = JSON.parse(
  readFileSync(new URL('../../../testdata/apimachinery/evanphx-json-patch.json', import.meta.url), 'utf8'),
) as Suite;

/** Skips: key is `<list>[<index>]`. */
const skip: Record<string, string> = {
  'jsonPatch.cases[0]':
    'empty document text: Go returns the empty input unchanged; requests always carry an object, and parsed JSON cannot be empty',
  'jsonPatch.cases[18]':
    "upstream's check is vacuous for top-level arrays (compareJSON unmarshals into a map, nil == nil); the listed result is not what the library produces (copy inserts at /0/bar/0)",
  'jsonPatch.cases[19]':
    "upstream's check is vacuous for top-level arrays (compareJSON unmarshals into a map, nil == nil); the listed result is not what the library produces (copy to /0/bar replaces the member with the string)",
};

let passed = 0;
let failed = 0;
let skipped = 0;

function run(id: string, fn: () => void): void {
  if (skip[id] !== undefined) {
    skipped++;
    test(id, { skip: skip[id] }, () => {});
    return;
  }
  test(id, () => {
    try {
      fn();
      passed++;
    } catch (e) {
      failed++;
      throw e;
    }
  });
}

const apply = (doc: string, patch: string, limit = 100) =>
  applyJSONPatch(JSON.parse(doc), decodeJSONPatch(JSON.parse(patch)), { maxCopyBytes: limit });

suite.jsonPatch.cases.forEach((c, i) =>
  run(`jsonPatch.cases[${i}]`, () => assert.deepEqual(apply(c.doc, c.patch), JSON.parse(c.result))),
);
suite.jsonPatch.mutationCases.forEach((c, i) =>
  run(`jsonPatch.mutationCases[${i}]`, () => assert.notDeepEqual(apply(c.doc, c.patch), JSON.parse(c.doc))),
);
suite.jsonPatch.badCases.forEach((c, i) =>
  run(`jsonPatch.badCases[${i}]`, () => assert.throws(() => apply(c.doc, c.patch), { name: 'JSONPatchError' })),
);
suite.jsonPatch.testCases.forEach((c, i) =>
  run(`jsonPatch.testCases[${i}]`, () => {
    if (c.result) apply(c.doc, c.patch);
    else assert.throws(() => apply(c.doc, c.patch), { message: `testing value ${c.failedPath} failed: test failed` });
  }),
);
suite.mergePatch.cases.forEach((c, i) =>
  run(`mergePatch.cases[${i}]`, () => assert.deepEqual(applyMergePatch(JSON.parse(c.doc), JSON.parse(c.patch)), JSON.parse(c.result))),
);
suite.mergePatch.failCases.forEach((c, i) =>
  run(`mergePatch.failCases[${i}]`, () =>
    assert.throws(() => applyMergePatch(JSON.parse(c.doc), JSON.parse(c.patch)), { message: 'Invalid JSON Patch' }),
  ),
);

test('evanphx/json-patch suite counts', () => {
  console.log(`evanphx/json-patch suite: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  assert.equal(failed, 0);
});
