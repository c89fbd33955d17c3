// Equal subschemas compile to one node (validator.ts SchemaKeys): the errors of each occurrence
// still carry their own paths, on create (the generated error pass) and on update (the detailed
// nodes, ratcheting), and subschemas that differ in any keyword stay apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorString } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../types.ts';
import { compileValidator } from './validator.ts';

const container = (): JSONSchemaProps => ({
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', maxLength: 5 },
    ports: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer', minimum: 1 } } } },
  },
});

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        main: container(),
        sidecars: { type: 'array', items: container() },
        extra: { type: 'object', additionalProperties: container() },
        // Same shape but one bound differs: must not share the node of `main`.
        strict: { ...container(), properties: { ...container().properties, name: { type: 'string', maxLength: 2 } } },
      },
    },
  },
};

const bad = {
  spec: {
    main: { name: 'toolong', ports: [{ port: 0 }] },
    sidecars: [{ name: 'ok' }, { ports: [{ port: -1 }] }],
    extra: { x: { name: 'abcdef' } },
    strict: { name: 'abc' },
  },
};

const expected = [
  'spec.main.name: Too long: may not be more than 5 bytes',
  'spec.main.ports[0].port: Invalid value: 0: spec.main.ports[0].port in body should be greater than or equal to 1',
  'spec.sidecars[1].name: Required value',
  'spec.sidecars[1].ports[0].port: Invalid value: -1: spec.sidecars[1].ports[0].port in body should be greater than or equal to 1',
  'spec.extra.x.name: Too long: may not be more than 5 bytes',
  'spec.strict.name: Too long: may not be more than 2 bytes',
].sort();

test('shared nodes report each occurrence at its own path (create)', () => {
  const v = compileValidator(schema);
  assert.deepEqual(v.validate(bad).map(errorString).sort(), expected);
  assert.deepEqual(v.validate({ spec: { main: { name: 'a' }, sidecars: [{ name: 'b' }], strict: { name: 'cd' } } }), []);
});

test('shared nodes agree with the detailed validator and ratchet per occurrence (update)', () => {
  const v = compileValidator(schema);
  const slow = compileValidator(schema, { fastPath: false });
  assert.deepEqual(slow.validate(bad).map(errorString).sort(), expected);
  // Unchanged invalid values ratchet (spec.main.name, every sidecar, extra, strict); the changed
  // value under one occurrence of the shared container is reported.
  const next = structuredClone(bad);
  next.spec.main.ports[0]!.port = -3;
  const errs = v.validateUpdate(next, bad).map(errorString);
  assert.deepEqual(errs, ['spec.main.ports[0].port: Invalid value: -3: spec.main.ports[0].port in body should be greater than or equal to 1']);
});
