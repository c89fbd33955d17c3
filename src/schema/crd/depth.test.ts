/** schemaDepth: each keyword that holds schemas counts a level; what holds no schema does not. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Path } from '../../apimachinery/index.ts';
import { maxSchemaDepth, schemaDepth, validateSchemaDepth } from './depth.ts';
import type { JSONSchemaProps } from '../types.ts';

const leaf = { type: 'string' };
const cases: { name: string; schema: unknown; depth: number }[] = [
  { name: 'none', schema: undefined, depth: 0 },
  { name: 'a leaf', schema: leaf, depth: 1 },
  { name: 'properties', schema: { properties: { a: { properties: { b: leaf } } } }, depth: 3 },
  { name: 'items as a schema', schema: { items: { items: leaf } }, depth: 3 },
  { name: 'items as a list', schema: { items: [leaf, { items: [leaf] }] }, depth: 3 },
  { name: 'allOf, anyOf, oneOf', schema: { allOf: [{ anyOf: [{ oneOf: [leaf] }] }] }, depth: 4 },
  { name: 'allOf as an object is no schema', schema: { allOf: { items: leaf } }, depth: 1 },
  { name: 'not, additionalProperties, additionalItems', schema: { not: { additionalProperties: { additionalItems: leaf } } }, depth: 4 },
  { name: 'additionalProperties as a boolean', schema: { additionalProperties: true }, depth: 1 },
  { name: 'patternProperties, definitions, dependencies', schema: { patternProperties: { x: { definitions: { d: { dependencies: { a: leaf } } } } } }, depth: 4 },
  { name: 'dependencies as a list of names', schema: { dependencies: { a: ['b', 'c'] } }, depth: 1 },
  { name: 'a schema-like value elsewhere', schema: { default: { properties: { a: leaf } }, enum: [{ items: leaf }] }, depth: 1 },
  { name: 'the deepest branch', schema: { properties: { a: leaf, b: { items: { properties: { c: leaf } } } }, items: leaf }, depth: 4 },
];

test('schemaDepth counts the levels of every keyword that holds schemas', () => {
  for (const c of cases) assert.equal(schemaDepth(c.schema as JSONSchemaProps), c.depth, c.name);
});

test('validateSchemaDepth refuses one level past the bound', () => {
  let s: Record<string, unknown> = leaf;
  for (let i = 1; i < maxSchemaDepth; i++) s = { items: s };
  assert.deepEqual(validateSchemaDepth(s as JSONSchemaProps, Path.of('schema')), []);
  const errs = validateSchemaDepth({ properties: { a: s } } as JSONSchemaProps, Path.of('schema'));
  assert.equal(errs.length, 1);
  assert.match(String(errs[0]!.detail ?? ''), /must not nest more than 500 levels of schemas/);
});
