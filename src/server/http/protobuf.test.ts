import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject } from './protobuf.ts';
import { StatusError } from '../../apimachinery/index.ts';

// A minimal protobuf writer for building kubectl-shaped messages.
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
function field(num: number, payload: number[] | string): number[] {
  const bytes = typeof payload === 'string' ? [...Buffer.from(payload, 'utf8')] : payload;
  return [...varint((num << 3) | 2), ...varint(bytes.length), ...bytes];
}
function envelope(apiVersion: string, kind: string, raw: number[]): Buffer {
  const typeMeta = [...field(1, apiVersion), ...field(2, kind)];
  return Buffer.from([0x6b, 0x38, 0x73, 0x00, ...field(1, typeMeta), ...field(2, raw), ...field(3, ''), ...field(4, '')]);
}

test('decodes the Namespace kubectl create namespace sends', () => {
  const meta = [...field(1, 'team-a'), ...field(11, [...field(1, 'env'), ...field(2, 'dev')])];
  const ns = [...field(1, meta), ...field(2, []), ...field(3, [])];
  assert.deepEqual(decodeProtobufObject(envelope('v1', 'Namespace', ns)), {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'team-a', labels: { env: 'dev' } },
    spec: {},
  });
});

test('decodes SelfSubjectAccessReview and SelfSubjectRulesReview', () => {
  const attrs = [...field(1, 'default'), ...field(2, 'create'), ...field(3, 'stable.example.com'), ...field(5, 'crontabs')];
  const ssar = [...field(1, []), ...field(2, [...field(1, attrs)])];
  assert.deepEqual(decodeProtobufObject(envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', ssar)).spec, {
    resourceAttributes: { namespace: 'default', verb: 'create', group: 'stable.example.com', resource: 'crontabs' },
  });
  const ssrr = [...field(1, []), ...field(2, field(1, 'default'))];
  assert.deepEqual(decodeProtobufObject(envelope('authorization.k8s.io/v1', 'SelfSubjectRulesReview', ssrr)).spec, { namespace: 'default' });
});

test('anything else is a 400, never a crash', () => {
  const isBadRequest = (e: unknown) => e instanceof StatusError && e.code === 400;
  assert.throws(() => decodeProtobufObject(Buffer.from('{"kind":"Namespace"}')), isBadRequest);
  assert.throws(() => decodeProtobufObject(envelope('v1', 'Pod', [])), isBadRequest);
  assert.throws(() => decodeProtobufObject(Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0xff])), isBadRequest);
});

test('groups in unknown fields are skipped at any depth, as gogo skips them', () => {
  // Field 99 as a group nested 20000 levels (start-group tags, then as many end-group tags).
  const n = 20000;
  const groups = [...Array(n).fill(varint((99 << 3) | 3)).flat(), ...Array(n).fill(varint((99 << 3) | 4)).flat()];
  const ns = [...field(1, field(1, 'deep')), ...groups];
  assert.deepEqual(decodeProtobufObject(envelope('v1', 'Namespace', ns)).metadata, { name: 'deep' });
  const unbalanced = [...field(1, field(1, 'deep')), ...varint((99 << 3) | 3), ...varint((99 << 3) | 4), ...varint((99 << 3) | 4)];
  assert.throws(
    () => decodeProtobufObject(envelope('v1', 'Namespace', unbalanced)),
    (e: unknown) => e instanceof StatusError && e.status.code === 400 && e.status.message === 'unable to decode protobuf body: proto: unexpected end of group',
  );
  const unterminated = [...field(1, field(1, 'deep')), ...varint((99 << 3) | 3)];
  assert.throws(() => decodeProtobufObject(envelope('v1', 'Namespace', unterminated)), (e: unknown) => e instanceof StatusError && e.status.code === 400);
});
