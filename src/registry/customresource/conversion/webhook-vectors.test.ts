import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { restoreObjectMeta } from './restore-meta.ts';
import { conversionReview, convertedObjects, objectsToConvert, reviewVersion, type ReviewVersion } from './review.ts';
import type { Obj } from '../../rest.ts';

const vectors = JSON.parse(readFileSync(new URL('../../../../testdata/k8s-conversion/webhook-converter.json', import.meta.url), 'utf8')) as {
  skipped: { name: string; reason: string }[];
  restoreObjectMeta: { name: string; original: Obj; converted: Obj; expected: Obj; expectedError: boolean }[];
  getObjectsToConvert: { name: string; objects: Obj[]; apiVersion: string; expect: Obj[] }[];
  createConversionReviewObjects: { name: string; versions: string[]; expectErr?: string; expectRequest?: Obj }[];
  getConvertedObjectsFromResponse: { name: string; version: ReviewVersion; response: unknown; expectErr?: string; expectObjects?: unknown[] }[];
};

/** `{"$repeat": s, "count": n}` is s repeated n times. */
function expand(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(expand);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.$repeat === 'string') return o.$repeat.repeat(Number(o.count));
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, expand(x)]));
  }
  return v;
}

test('restoreObjectMeta keeps only the webhook\'s labels and annotations (webhook_converter_test.go TestRestoreObjectMeta)', () => {
  const cases = vectors.restoreObjectMeta;
  assert.ok(cases.length >= 15, `only ${cases.length} cases`);
  for (const c of cases) {
    const converted = expand(c.converted) as Obj;
    const err = restoreObjectMeta(expand(c.original) as Obj, converted);
    assert.equal(err !== undefined, c.expectedError, `${c.name}: ${err}`);
    assert.deepEqual(converted, expand(c.expected), c.name);
  }
});

test('restoreObjectMeta words its refusals as upstream', () => {
  const bad = (original: Obj, converted: Obj) => restoreObjectMeta(original, converted);
  assert.equal(bad({ metadata: {} }, { spec: {} }), 'missing metadata in converted object');
  assert.equal(bad({ metadata: {} }, { metadata: ['foo'] }), 'invalid metadata of type []interface {} in converted object');
  assert.equal(bad({ metadata: ['foo'] }, { metadata: {} }), 'invalid metadata of type []interface {} in input object');
  assert.equal(bad({ metadata: {} }, { metadata: { labels: { a: null, b: 'B' } } }), 'metadata.labels[a] must be a string, but is <nil> in converted object');
  assert.equal(bad({ metadata: {} }, { metadata: { annotations: 'x' } }), 'invalid metadata.annotations of type string in converted object');
  assert.match(bad({ metadata: {} }, { metadata: { labels: { foo: 'üäö' } } })!, /^metadata\.labels: Invalid value: "üäö": a valid label must be/);
});

test('the objects sent are those not at the desired version (TestGetObjectsToConvert)', () => {
  const cases = vectors.getObjectsToConvert;
  assert.ok(cases.length >= 7, `only ${cases.length} cases`);
  for (const c of cases) assert.deepEqual(objectsToConvert(c.objects, c.apiVersion), c.expect, c.name);
});

test('the review is in the first supported conversionReviewVersion (TestCreateConversionReviewObjects)', () => {
  const cases = vectors.createConversionReviewObjects;
  assert.ok(cases.length >= 3, `only ${cases.length} cases`);
  const objects = [{ apiVersion: 'foo/v2', Kind: 'Widget' }];
  for (const c of cases) {
    const v = reviewVersion(c.versions);
    if (c.expectErr !== undefined) {
      assert.deepEqual(v, { error: c.expectErr }, c.name);
      continue;
    }
    assert.equal(typeof v, 'string', c.name);
    assert.deepEqual(conversionReview(v as ReviewVersion, 'uid', 'foo/v1', objects), c.expectRequest, c.name);
  }
});

test('the response is checked as getConvertedObjectsFromResponse checks it (TestGetConvertedObjectsFromResponse)', () => {
  const cases = vectors.getConvertedObjectsFromResponse;
  assert.ok(cases.length >= 18, `only ${cases.length} cases`);
  for (const s of vectors.skipped) console.log(`skipped ${s.name}: ${s.reason}`);
  for (const c of cases) {
    const r = convertedObjects(c.version, 'uid', c.response);
    if (c.expectErr !== undefined) {
      assert.ok('error' in r && r.error.includes(c.expectErr), `${c.name}: ${JSON.stringify(r)}`);
    } else {
      assert.deepEqual(r, { objects: c.expectObjects }, c.name);
    }
  }
});
