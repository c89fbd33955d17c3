/**
 * The JSON rules the vectors do not reach (their fuzzed objects set every field): encoding/json's
 * nil slices and omitted zeros, pointers keeping a present zero, empty `bytes`, zero and
 * sub-second times, Quantity canonical strings, IntOrString, raw JSON and its errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage } from './decode.ts';
import { kindMessage } from './descriptors.ts';
import { encodeMessage } from './encode.ts';
import { goDurationString } from './special.ts';
import { ProtoError, Writer } from './wire.ts';

/** A message from its fields: [number, bytes | string | varint]. */
function msg(...fields: [number, Uint8Array | string | number][]): Uint8Array {
  const w = new Writer();
  for (const [n, v] of fields) {
    if (typeof v === 'number') {
      w.tag(n, 0);
      w.int64(v);
    } else if (typeof v === 'string') w.stringField(n, v);
    else w.bytesField(n, v);
  }
  return w.finish();
}

function decode(apiVersion: string, kind: string, raw: Uint8Array): Record<string, unknown> {
  return decodeMessage(kindMessage(apiVersion, kind)!, raw, { apiVersion, kind });
}

const empty = new Uint8Array(0);

test('nil slices without omitempty are null, zero strings kept, structs always written', () => {
  const pod = decode('v1', 'Pod', msg([1, msg([1, 'p'])], [2, empty]));
  assert.deepEqual(pod.metadata, { name: 'p' });
  const spec = pod.spec as Record<string, unknown>;
  // PodSpec.Containers has no omitempty; everything else in an empty PodSpec is omitted.
  assert.deepEqual(spec, { containers: null });
  assert.deepEqual(pod.status, {});
  // A container's name has no omitempty ("" is written); resources is a struct ({}).
  const withContainer = decode('v1', 'Pod', msg([2, msg([2, msg([2, 'nginx'])])]));
  assert.deepEqual((withContainer.spec as { containers: unknown[] }).containers[0], { name: '', image: 'nginx', resources: {} });
});

test('pointers keep a present zero; bytes present but empty are ""', () => {
  const d = decode('apps/v1', 'Deployment', msg([2, msg([1, 0], [4, empty])]));
  assert.equal((d.spec as Record<string, unknown>).replicas, 0);
  const secret = decode('v1', 'Secret', msg([2, msg([1, 'k'], [2, empty])], [5, 1]));
  assert.deepEqual(secret.data, { k: '' });
  assert.equal(secret.immutable, true);
  const falseImmutable = decode('v1', 'Secret', msg([5, 0]));
  assert.equal(falseImmutable.immutable, false);
});

test('times: seconds only, a zero time null (omitted under omitzero), MicroTime to microseconds', () => {
  const meta = decode('v1', 'ConfigMap', msg([1, msg([8, empty], [9, empty])])).metadata;
  // creationTimestamp (omitzero) is dropped; deletionTimestamp (a pointer) is kept as null.
  assert.deepEqual(meta, { deletionTimestamp: null });
  const t = decode('v1', 'ConfigMap', msg([1, msg([8, msg([1, 1199145661], [2, 999])])])).metadata as Record<string, unknown>;
  assert.equal(t.creationTimestamp, '2008-01-01T00:01:01Z');
  const lease = decode('coordination.k8s.io/v1', 'Lease', msg([2, msg([3, msg([1, 0], [2, 123456789])])]));
  assert.equal((lease.spec as Record<string, unknown>).acquireTime, '1970-01-01T00:00:00.123456Z');
});

test('Go duration strings', () => {
  const cases: [bigint, string][] = [
    [0n, '0s'],
    [100n, '100ns'],
    [1500n, '1.5µs'],
    [2_000_000n, '2ms'],
    [1_500_000_000n, '1.5s'],
    [-90_000_000_000n, '-1m30s'],
    [3_600_000_000_000n, '1h0m0s'],
    [9_223_372_036_854_775_807n, '2562047h47m16.854775807s'],
  ];
  for (const [d, s] of cases) assert.equal(goDurationString(d), s, String(d));
});

test('quantities come back canonical; a bad one is ParseQuantity\'s error', () => {
  const quota = (q: string) => decode('v1', 'ResourceQuota', msg([2, msg([1, msg([1, 'cpu'], [2, msg([1, q])])])]));
  assert.deepEqual((quota('1000m').spec as Record<string, unknown>).hard, { cpu: '1' });
  assert.deepEqual((quota('0.5Gi').spec as Record<string, unknown>).hard, { cpu: '512Mi' });
  // A map entry without its value is the zero Quantity.
  const zero = decode('v1', 'ResourceQuota', msg([2, msg([1, msg([1, 'cpu'])])]));
  assert.deepEqual((zero.spec as Record<string, unknown>).hard, { cpu: '0' });
  assert.throws(() => quota('abc'), new ProtoError("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
});

test('IntOrString: type 1 a string, 0 an int, any other a marshal error', () => {
  const pdb = (io: Uint8Array) => decode('policy/v1', 'PodDisruptionBudget', msg([2, msg([1, io])]));
  assert.equal((pdb(msg([1, 1], [3, '50%'])).spec as Record<string, unknown>).minAvailable, '50%');
  assert.equal((pdb(msg([1, 0], [2, 3])).spec as Record<string, unknown>).minAvailable, 3);
  assert.throws(() => pdb(msg([1, 2])), /impossible IntOrString.Type/);
});

test('raw JSON: kept as the client wrote it, refused when not JSON or nested past 10000 levels', () => {
  const rev = (raw: string) => decode('apps/v1', 'ControllerRevision', msg([2, msg([1, raw])]));
  assert.deepEqual(rev('{"spec":{"a":[1,2]}}').data, { spec: { a: [1, 2] } });
  assert.equal(decode('apps/v1', 'ControllerRevision', empty).data, null);
  assert.throws(() => rev('{x'), new ProtoError("json: error calling MarshalJSON for type runtime.RawExtension: invalid character 'x' looking for beginning of object key string"));
  assert.throws(() => rev('['.repeat(10001) + ']'.repeat(10001)), new ProtoError("json: error calling MarshalJSON for type runtime.RawExtension: invalid character '[' exceeded max depth"));
});

test('map keys are sorted, and __proto__ is an ordinary key', () => {
  const cm = decode('v1', 'ConfigMap', msg([2, msg([1, 'b'], [2, '2'])], [2, msg([1, '__proto__'], [2, 'x'])], [2, msg([1, 'a'], [2, '1'])]));
  assert.deepEqual(Object.keys(cm.data as object), ['__proto__', 'a', 'b']);
  assert.equal(Object.getPrototypeOf(cm.data), Object.prototype);
});

test('what decodes encodes back to the same bytes', () => {
  const m = kindMessage('v1', 'ConfigMap')!;
  const obj = { metadata: { name: 'c', labels: { b: '2', a: '1' } }, data: { k: 'v' }, binaryData: { bin: 'AAE=' } };
  const raw = encodeMessage(m, obj);
  const back = decodeMessage(m, raw);
  assert.deepEqual(back, { metadata: { name: 'c', labels: { a: '1', b: '2' } }, data: { k: 'v' }, binaryData: { bin: 'AAE=' } });
  assert.deepEqual(encodeMessage(m, back), raw);
});
