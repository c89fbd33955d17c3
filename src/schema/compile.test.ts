// One CRD version end to end: prune, default, validate on the compiled schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSchema } from './compile.ts';
import { errorString } from '../apimachinery/index.ts';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', maximum: 10, default: 1 },
        mode: { type: 'string', enum: ['a', 'b'] },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

test('compileSchema: prune reports unknown fields, default fills, validate collects every error', () => {
  const c = compileSchema(schema);
  const obj: Record<string, any> = {
    apiVersion: 'x/v1',
    kind: 'X',
    metadata: { name: 'n', junk: 1 },
    spec: { extra: true, mode: 'c', tags: ['a', 'a'], template: { kind: 'Pod', anything: 1 } },
    status: {},
  };
  const r = c.prune(obj, { trackUnknown: true });
  assert.deepEqual(r.prunedPaths, ['metadata.junk', 'spec.extra', 'status']);
  c.default(obj);
  assert.equal(obj.spec.replicas, 1);
  // the root ObjectMeta is re-encoded as Kubernetes encodes it (creationTimestamp null when unset)
  assert.deepEqual(obj.metadata, { name: 'n', creationTimestamp: null });
  assert.deepEqual(c.validate(obj).map(errorString).sort(), [
    'spec.mode: Unsupported value: "c": supported values: "a", "b"',
    'spec.tags[1]: Duplicate value: "a"',
    'spec.template.apiVersion: Required value',
  ]);
  obj.spec.replicas = 20;
  assert.ok(c.validate(obj).map(errorString).includes('spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10'));
});

test('compileSchema: preserveUnknownFields keeps everything', () => {
  const c = compileSchema(schema, { preserveUnknownFields: true });
  const obj = { spec: { extra: true } };
  assert.deepEqual(c.prune(obj, { trackUnknown: true }).prunedPaths, []);
  assert.deepEqual(obj, { spec: { extra: true } });
});

test('compileSchema: status validation under `status`, ratcheted against the old status', () => {
  const c = compileSchema({
    type: 'object',
    properties: { status: { type: 'object', properties: { replicas: { type: 'integer', minimum: 0 }, phase: { type: 'string', maxLength: 3 } } } },
  });
  const old = { status: { replicas: 1, phase: 'Running' } };
  const errs = c.validateStatus({ status: { replicas: -1, phase: 'Running' } }, old).map(errorString);
  assert.deepEqual(errs, ['status.replicas: Invalid value: -1: replicas in body should be greater than or equal to 0']);
  assert.deepEqual(c.validateStatus({ spec: {} }, old), []);
});

test('compileSchema: list-type errors already present in the old object are not reported on update', () => {
  const c = compileSchema({
    type: 'object',
    properties: { spec: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } } } },
  });
  const bad = { spec: { tags: ['a', 'a'] } };
  assert.equal(c.validate(bad).length, 1);
  assert.equal(c.validate(bad, bad).length, 0);
  assert.equal(c.validate(bad, { spec: { tags: ['a'] } }).length, 1);
});

test('compileSchema: malformed root metadata is an error unless dropped', () => {
  const c = compileSchema(schema);
  const bad = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n', labels: { a: 1 } } };
  const r = c.prune(structuredClone(bad));
  assert.ok(r.error && r.error.includes('ObjectMeta.labels'), r.error);
  const o: Record<string, any> = structuredClone(bad);
  assert.equal(c.prune(o, { dropInvalidMetadata: true }).error, undefined);
  assert.deepEqual(o.metadata, { name: 'n', creationTimestamp: null });
});

test('blockingError: type errors block CEL rules, bound errors do not', async () => {
  const { blockingError } = await import('./compile.ts');
  const c = compileSchema(schema);
  assert.equal(blockingError(c.validate({ spec: { replicas: 20 } })), undefined);
  const b = blockingError(c.validate({ spec: { replicas: 'x' } }));
  assert.ok(b);
  assert.equal(errorString(b), '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');
});
