/**
 * validateSchema's verdicts are judged once per equal arguments: a schema refused once (here a
 * default its own schema rejects) is refused again with the same errors, a
 * caller changing the list it got cannot change what the next caller gets, and the field path is
 * part of what is judged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorString, Path } from '../../apimachinery/index.ts';
import { schemaOptionsForCreate, validateSchema } from './schema-hooks.ts';

const refused = {
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          size: { type: 'integer', default: 'large' },
        },
      },
    },
  },
};

function judge(at: number) {
  const fld = Path.root().child('spec', 'versions').index(at).child('schema');
  const opts = schemaOptionsForCreate();
  return validateSchema(structuredClone(refused), false, opts, fld).map(errorString);
}

test('a refused schema is refused again with the same errors, at its own path', () => {
  const first = judge(0);
  assert.ok(first.some((e) => e.includes('spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: "string"')), first.join('\n'));
  assert.deepEqual(judge(0), first);
  const elsewhere = judge(1);
  assert.equal(elsewhere.length, first.length);
  assert.ok(elsewhere.every((e) => !e.includes('versions[0]')), elsewhere.join('\n'));
});

test('a caller changing its list does not change the next verdict', () => {
  const fld = Path.root().child('spec', 'versions').index(0).child('schema');
  const opts = schemaOptionsForCreate();
  const got = validateSchema(structuredClone(refused), false, opts, fld);
  const n = got.length;
  assert.ok(n > 0);
  got.length = 0;
  assert.equal(validateSchema(structuredClone(refused), false, opts, fld).length, n);
});
