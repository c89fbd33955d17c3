// Defaulting and the dropping of non-nullable nulls, from Kubernetes' defaulting tests
// (defaulting.json: exact objects after the in-place operation).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { compileDefaulter, compileNullPruner } from './default.ts';
import { newStructural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';
import { loadVectors, Tally } from './vectors.ts';
import { deepCopyJSON } from './value.ts';

interface Case {
  name: string;
  operation: 'default' | 'pruneNonNullableNullsWithoutDefaults';
  schema: JSONSchemaProps | null;
  object: unknown;
  expectDefaulted: unknown;
}

const file = loadVectors<Case>('defaulting.json', { keepIntegralFloats: true });
const tally = new Tally('defaulting.json');
after(() => console.log(tally.summary()));

for (const c of file.cases) {
  test(`defaulting: ${c.operation}: ${c.name}`, () => {
    const s = c.schema === null ? undefined : newStructural(c.schema);
    const obj = deepCopyJSON(c.object);
    (c.operation === 'default' ? compileDefaulter(s) : compileNullPruner(s))(obj);
    try {
      assert.deepEqual(obj, c.expectDefaulted);
      tally.passed++;
    } catch (e) {
      tally.failed++;
      throw e;
    }
  });
}

test('defaults are deep copies: mutating one defaulted object does not change the schema', () => {
  const s = newStructural({ type: 'object', properties: { a: { type: 'object', default: { x: [1] } } } });
  const d = compileDefaulter(s);
  const o1: Record<string, any> = {};
  d(o1);
  o1.a.x.push(2);
  const o2: Record<string, any> = {};
  d(o2);
  assert.deepEqual(o2, { a: { x: [1] } });
});
