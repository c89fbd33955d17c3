// Unfold / StripValueValidations / StripNullable (after Kubernetes' unfold and skeleton behaviour).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stripNullable, stripValueValidations, unfold } from './skeleton.ts';
import { newStructural, structuralToSchema } from './structural.ts';
import { validateStructural } from './crd/structural-checks.ts';
import { Path } from '../apimachinery/index.ts';

test('unfold expands int-or-string into anyOf, or prepends an allOf when anyOf is taken', () => {
  const s = newStructural({
    type: 'object',
    properties: {
      a: { 'x-kubernetes-int-or-string': true },
      b: { 'x-kubernetes-int-or-string': true, anyOf: [{ maximum: 3 }, { minimum: 5 }] },
      c: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    },
  })!;
  unfold(s);
  const out = structuralToSchema(s)!;
  assert.deepEqual(out.properties!.a!.anyOf, [{ type: 'integer' }, { type: 'string' }]);
  assert.deepEqual(out.properties!.b!.allOf, [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }]);
  assert.deepEqual(out.properties!.b!.anyOf, [{ maximum: 3 }, { minimum: 5 }]);
  assert.deepEqual(out.properties!.c!.anyOf, [{ type: 'integer' }, { type: 'string' }]);
  assert.equal(out.properties!.c!.allOf, undefined);
  // the unfolded schema is still structural (the patterns are the allowed ones)
  assert.deepEqual(validateStructural(Path.root(), s), []);
});

test('strip value validations and nullable on copies', () => {
  const s = newStructural({ type: 'object', properties: { a: { type: 'string', maxLength: 3, nullable: true } } })!;
  const v = stripValueValidations(s);
  const n = stripNullable(s);
  assert.equal(v.properties!.get('a')!.valueValidation, undefined);
  assert.equal(n.properties!.get('a')!.nullable, false);
  assert.equal(s.properties!.get('a')!.nullable, true);
  assert.equal(s.properties!.get('a')!.valueValidation!.maxLength, 3);
});
