// Validation ratcheting, ported from apiextensions-apiserver pkg/apiserver/validation/ratcheting_test.go
// (cases as data: schema, new, old, valid).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileValidator } from './validator.ts';
import type { JSONSchemaProps } from '../types.ts';

const zero: JSONSchemaProps = { type: 'number', minimum: 0, maximum: 0 };
const small: JSONSchemaProps = { type: 'number', maximum: 50 };
const medium: JSONSchemaProps = { type: 'number', minimum: 50, maximum: 10000 };
const large: JSONSchemaProps = { type: 'number', minimum: 10000 };
const object: JSONSchemaProps = { type: 'object', properties: { zero, small, medium, large } };
const objectObject: JSONSchemaProps = { type: 'object', properties: { nested: object } };
const numericFormat: JSONSchemaProps = {
  type: 'object',
  properties: { intThirtyTwo: { type: 'integer', format: 'int32' }, unrelated: { type: 'string' } },
};

const cases: { name: string; schema: JSONSchemaProps; now: unknown; old: unknown; valid: boolean }[] = [
  { name: 'scalar unchanged', schema: medium, now: 1, old: 1, valid: true },
  { name: 'scalar changed', schema: medium, now: 1, old: 2, valid: false },
  { name: 'object field unchanged', schema: object, now: { small: 500 }, old: { small: 500 }, valid: true },
  { name: 'object field unchanged, other removed', schema: object, now: { small: 501 }, old: { small: 501, medium: 500 }, valid: true },
  { name: 'object field changed', schema: object, now: { small: 500 }, old: { small: 501 }, valid: false },
  { name: 'nested unchanged', schema: objectObject, now: { nested: { small: 500 } }, old: { nested: { small: 500 } }, valid: true },
  { name: 'nested unchanged, other removed', schema: objectObject, now: { nested: { small: 501 } }, old: { nested: { small: 501, medium: 500 } }, valid: true },
  { name: 'nested changed', schema: objectObject, now: { nested: { small: 500 } }, old: { nested: { small: 501 } }, valid: false },
  { name: 'int32 overflow unchanged', schema: numericFormat, now: { intThirtyTwo: 2147483648 }, old: { intThirtyTwo: 2147483648 }, valid: true },
  {
    name: 'int32 overflow unchanged, other field changed',
    schema: numericFormat,
    now: { intThirtyTwo: 2147483648, unrelated: 'changed' },
    old: { intThirtyTwo: 2147483648, unrelated: 'original' },
    valid: true,
  },
  { name: 'int32 overflow changed', schema: numericFormat, now: { intThirtyTwo: 2147483649 }, old: { intThirtyTwo: 2147483648 }, valid: false },
];

for (const c of cases) {
  test(`ratcheting: ${c.name}`, () => {
    assert.equal(compileValidator(c.schema).validateUpdate(c.now, c.old).length === 0, c.valid);
  });
}
