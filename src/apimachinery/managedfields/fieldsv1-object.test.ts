/**
 * setToFieldsV1 builds the object JSON.parse(setToJSON(s)) would give, member for member and in
 * the same order, for every FieldsV1 document of the managedfields and structured-merge-diff
 * tables, and for keys whose text differs from their string (escapes, a lone surrogate).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setFromJSON, setToJSON } from '../smd/fieldpath/serialize.ts';
import { setToFieldsV1 } from './entries.ts';

/** Every `fieldsV1` value found anywhere in `v`. */
function fieldsV1Documents(v: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(v)) for (const x of v) fieldsV1Documents(x, out);
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'fieldsV1' && x !== null && typeof x === 'object' && !Array.isArray(x)) out.push(x);
      else fieldsV1Documents(x, out);
    }
  }
  return out;
}

const read = (path: string): unknown => JSON.parse(readFileSync(new URL(`../../../testdata/${path}`, import.meta.url), 'utf8'));

test('setToFieldsV1 equals the parsed FieldsV1 text, keys in the same order', () => {
  const docs = [...fieldsV1Documents(read('managedfields/managedfields.json')), ...fieldsV1Documents(read('smd/merge.json'))];
  docs.push(
    { 'f:metadata': { 'f:labels': { '.': {}, 'f:a<b&c': {}, 'f:\u2028': {} } } },
    { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {} } }, 'f:list': { 'v:"x"': {}, 'i:0': {} } } },
    { 'f:odd\ud800': {} },
  );
  assert.ok(docs.length >= 20, `${docs.length} documents`);
  let nonEmpty = 0;
  for (const d of docs) {
    const s = setFromJSON(JSON.stringify(d));
    const want = JSON.stringify(JSON.parse(setToJSON(s)));
    if (want !== '{}') nonEmpty++;
    assert.equal(JSON.stringify(setToFieldsV1(s)), want, JSON.stringify(d));
  }
  assert.ok(nonEmpty >= 10);
});
