import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, ProtobufEnvelopeError } from './protobuf.ts';
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

const nsTarget = { apiVersion: 'v1', kind: 'Namespace' };

test('decodes the Namespace kubectl create namespace sends', () => {
  const meta = [...field(1, 'team-a'), ...field(11, [...field(1, 'env'), ...field(2, 'dev')])];
  const ns = [...field(1, meta), ...field(2, []), ...field(3, [])];
  assert.deepEqual(decodeProtobufObject(envelope('v1', 'Namespace', ns), nsTarget), {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'team-a', labels: { env: 'dev' } },
    spec: {},
    status: {},
  });
});

test('decodes SelfSubjectAccessReview and SelfSubjectRulesReview', () => {
  const attrs = [...field(1, 'default'), ...field(2, 'create'), ...field(3, 'stable.example.com'), ...field(5, 'crontabs')];
  const ssar = [...field(1, []), ...field(2, [...field(1, attrs)])];
  assert.deepEqual(decodeProtobufObject(envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', ssar), true).spec, {
    resourceAttributes: { namespace: 'default', verb: 'create', group: 'stable.example.com', resource: 'crontabs' },
  });
  const ssrr = [...field(1, []), ...field(2, field(1, 'default'))];
  assert.deepEqual(decodeProtobufObject(envelope('authorization.k8s.io/v1', 'SelfSubjectRulesReview', ssrr), true).spec, { namespace: 'default' });
});

/** The message of the 400 a body answers at `into`. */
function badRequest(body: Uint8Array, into: { apiVersion: string; kind: string }): string {
  try {
    decodeProtobufObject(body, into);
  } catch (e) {
    if (e instanceof ProtobufEnvelopeError) return `envelope: ${e.message}`;
    assert.ok(e instanceof StatusError && e.code === 400, String(e));
    return e.status.message ?? '';
  }
  return assert.fail('decoded');
}

test('a bad envelope is the serializer\'s error; a bad message is the handler\'s cannot be handled as', () => {
  const deploy = { apiVersion: 'apps/v1', kind: 'Deployment' };
  assert.equal(badRequest(Buffer.from('{"kind":"Deployment"}'), deploy), 'envelope: provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  assert.equal(badRequest(Buffer.from([]), deploy), 'envelope: empty data');
  assert.equal(badRequest(Buffer.from([0x6b, 0x38, 0x73, 0x00]), deploy), 'envelope: empty body');
  assert.equal(badRequest(Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0xff]), deploy), 'envelope: unexpected EOF');
  assert.equal(badRequest(Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0c]), deploy), 'envelope: proto: Unknown: wiretype end group for non-group');
  // ObjectMeta (field 1) sent as a varint.
  assert.equal(badRequest(envelope('apps/v1', 'Deployment', [0x08, 0x01]), deploy), 'Deployment in version "v1" cannot be handled as a Deployment: proto: wrong wireType = 0 for field ObjectMeta');
  // spec.replicas (DeploymentSpec field 1) as a string.
  assert.equal(badRequest(envelope('apps/v1', 'Deployment', field(2, field(1, 'x'))), deploy), 'Deployment in version "v1" cannot be handled as a Deployment: proto: wrong wireType = 2 for field Replicas');
  assert.equal(badRequest(envelope('apps/v1', 'Deployment', [0x12, 0x05, 0x08]), deploy), 'Deployment in version "v1" cannot be handled as a Deployment: unexpected EOF');
  assert.equal(badRequest(envelope('apps/v1', 'Deployment', [0x12, ...Array(10).fill(0xff), 0x01]), deploy), 'Deployment in version "v1" cannot be handled as a Deployment: proto: integer overflow');
  assert.equal(badRequest(envelope('apps/v1', 'Deployment', [0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), deploy), 'Deployment in version "v1" cannot be handled as a Deployment: proto: negative length found during unmarshaling');
  assert.equal(badRequest(envelope('apps/v1', 'Deployment', [0x07]), deploy), 'Deployment in version "v1" cannot be handled as a Deployment: proto: Deployment: illegal tag 0 (wire type 7)');
  assert.equal(badRequest(envelope('apps/v1', 'Deployment', [0x4f]), deploy), 'Deployment in version "v1" cannot be handled as a Deployment: proto: illegal wireType 7');
});

test('an envelope naming another kind or an unknown one answers as the scheme does', () => {
  const deploy = { apiVersion: 'apps/v1', kind: 'Deployment' };
  assert.equal(badRequest(envelope('v1', 'Pod', []), deploy), 'Pod in version "v1" cannot be handled as a Deployment: converting (v1.Pod) to (apps.Deployment): unknown conversion');
  assert.equal(
    badRequest(envelope('apps/v1', 'deployment', []), deploy),
    'deployment in version "v1" cannot be handled as a Deployment: no kind "deployment" is registered for version "apps/v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"',
  );
  assert.equal(badRequest(envelope('v1', 'Deployment', []), deploy).endsWith('no kind "Deployment" is registered for version "v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"'), true);
  // An empty TypeMeta takes the endpoint's kind (copyKindDefaults).
  assert.deepEqual(decodeProtobufObject(envelope('', '', field(1, field(1, 'web'))), deploy).metadata, { name: 'web' });
  // Another version of the kind decodes; the handler's apiVersion check answers it.
  assert.equal(decodeProtobufObject(envelope('v1', 'Event', []), { apiVersion: 'events.k8s.io/v1', kind: 'Event' }).apiVersion, 'v1');
});

test('groups in unknown fields are skipped at any depth, as gogo skips them', () => {
  // Field 99 as a group nested 20000 levels (start-group tags, then as many end-group tags).
  const n = 20000;
  const groups = [...Array(n).fill(varint((99 << 3) | 3)).flat(), ...Array(n).fill(varint((99 << 3) | 4)).flat()];
  const ns = [...field(1, field(1, 'deep')), ...groups];
  assert.deepEqual(decodeProtobufObject(envelope('v1', 'Namespace', ns), nsTarget).metadata, { name: 'deep' });
  const unbalanced = [...field(1, field(1, 'deep')), ...varint((99 << 3) | 3), ...varint((99 << 3) | 4), ...varint((99 << 3) | 4)];
  assert.equal(badRequest(envelope('v1', 'Namespace', unbalanced), nsTarget), 'Namespace in version "v1" cannot be handled as a Namespace: proto: Namespace: wiretype end group for non-group');
  const unterminated = [...field(1, field(1, 'deep')), ...varint((99 << 3) | 3)];
  assert.equal(badRequest(envelope('v1', 'Namespace', unterminated), nsTarget), 'Namespace in version "v1" cannot be handled as a Namespace: unexpected EOF');
});
