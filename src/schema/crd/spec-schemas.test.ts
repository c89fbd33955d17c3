// The schema part of CRD spec validation on v1 CRDs: conversion to the internal shape and the
// paths errors are reported at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { internalSpecSchemas, schemaOptionsForCreate, schemaOptionsForUpdate, validateSpecSchemas } from './spec-schemas.ts';
import { errorString } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../types.ts';

const bad: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string', default: 5 } } };
const good: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string', default: 'x' } } };

test('identical per-version schemas are reported at spec.validation, as Kubernetes reports them', () => {
  const spec = internalSpecSchemas({
    versions: [
      { name: 'v1', schema: { openAPIV3Schema: bad } },
      { name: 'v2', schema: { openAPIV3Schema: bad } },
    ],
  });
  assert.deepEqual(validateSpecSchemas(spec, schemaOptionsForCreate()).map(errorString), [
    // the default is validated on its own, so the kube-openapi name is empty (two spaces)
    'spec.validation.openAPIV3Schema.properties[a].default: Invalid value: "integer":  in body must be of type string: "integer"',
  ]);
  const split = internalSpecSchemas({
    versions: [
      { name: 'v1', schema: { openAPIV3Schema: good } },
      { name: 'v2', schema: { openAPIV3Schema: bad } },
    ],
  });
  assert.deepEqual(validateSpecSchemas(split, schemaOptionsForCreate()).map((e) => e.field), ['spec.versions[1].schema.openAPIV3Schema.properties[a].default']);
});

test('update options only require what the old schemas satisfied', () => {
  const nonStructural = internalSpecSchemas({ versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', properties: { a: {} } } } }] });
  assert.equal(schemaOptionsForUpdate(nonStructural).requireStructuralSchema, false);
  assert.equal(schemaOptionsForUpdate(internalSpecSchemas({ versions: [{ name: 'v1', schema: { openAPIV3Schema: good } }] })).requireStructuralSchema, true);
});
