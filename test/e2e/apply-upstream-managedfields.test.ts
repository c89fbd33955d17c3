/**
 * kube-apiserver's managedFields parsing and scale integration tests
 * (kubernetes/kubernetes test/integration/apiserver/apply/managedfields_parsing_test.go and
 * scale_test.go, Apache-2.0) against a real server process. TestManagedFieldsTrailingData sends
 * protobuf, as upstream's client does (only protobuf can carry a FieldsV1 that is not one JSON
 * value), built here field by field. One server for the file.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { encodeEnvelope, ProtoWriter } from '../../src/apimachinery/index.ts';
import { startServer, type ServerProcess } from './harness.ts';
import { ok, request } from './apply-upstream-client.ts';

let s: ServerProcess | undefined;

// The server is started only when a test here runs (a SIGTERM right after start, before serve
// installs its handlers, would end it by the signal).
async function server(): Promise<ServerProcess> {
  return (s ??= await startServer());
}

after(async () => {
  if (s) assert.equal(await s.stop(), 0, s.output());
});

function message(build: (w: InstanceType<typeof ProtoWriter>) => void): Uint8Array {
  const w = new ProtoWriter();
  build(w);
  return w.finish();
}

/**
 * A core/v1 ConfigMap (generated.proto: ConfigMap.metadata = 1; ObjectMeta.name = 1, namespace = 3,
 * managedFields = 17; ManagedFieldsEntry.manager = 1, operation = 2, apiVersion = 3, time = 4,
 * fieldsType = 6, fieldsV1 = 7; FieldsV1.Raw = 1; Time.seconds = 1) with one entry whose FieldsV1
 * holds `raw` as it is.
 */
function configMapWithFields(name: string, namespace: string, raw: string): Uint8Array {
  const entry = message((w) => {
    w.stringField(1, 'trailing-data-test');
    w.stringField(2, 'Update');
    w.stringField(3, 'v1');
    w.bytesField(4, message((t) => {
      t.tag(1, 0);
      t.uint(Math.floor(Date.now() / 1000));
    }));
    w.stringField(6, 'FieldsV1');
    w.bytesField(7, message((f) => f.bytesField(1, new TextEncoder().encode(raw))));
  });
  const meta = message((w) => {
    w.stringField(1, name);
    w.stringField(3, namespace);
    w.bytesField(17, entry);
  });
  return encodeEnvelope('v1', 'ConfigMap', message((w) => w.bytesField(1, meta)));
}

// TestManagedFieldsTrailingData
const trailing = [
  {
    name: 'trailing data after FieldsV1 must be dropped',
    fieldsV1: '{"f:metadata":{"f:annotations":{"f:test.example.com/myannotation":{}}}}{"trailing":"data"}',
    expected: '{"f:metadata":{"f:annotations":{"f:test.example.com/myannotation":{}}}}',
    skip: 'the protobuf decoder here checks FieldsV1.Raw as one JSON value (json.Marshal of the decoded object) and answers 400 "invalid character \'{\' after top-level value"; upstream keeps the bytes and the field manager drops what follows the first value',
  },
  {
    name: 'trailing data after set value must be dropped',
    fieldsV1: '{"f:metadata":{"f:finalizers":{"v:\\"example.com/foo\\" {\\"trailing\\":\\"data\\"}":{}}}}',
    expected: '{"f:metadata":{"f:finalizers":{"v:\\"example.com/foo\\"":{}}}}',
    skip: 'the field set deserializer here (smd fieldpath) refuses a value key with trailing data, so the entry is dropped as undecodable; upstream\'s reads the first JSON value and ignores the rest',
  },
  {
    name: 'trailing data after map key must be dropped',
    fieldsV1: '{"f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"abc\\"} {\\"trailing\\":\\"data\\"}":{}}}}',
    expected: '{"f:metadata":{"f:ownerReferences":{"k:{\\"uid\\":\\"abc\\"}":{}}}}',
    skip: 'the field set deserializer here (smd fieldpath) refuses a key with trailing data, so the entry is dropped as undecodable; upstream\'s reads the first JSON value and ignores the rest',
  },
];
trailing.forEach((tc, i) => {
  test(`TestManagedFieldsTrailingData: ${tc.name}`, { skip: tc.skip }, async () => {
    const name = `managedfields-trailing-data-${i}`;
    const s = await server();
    const res = await s.fetch(`${s.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      body: configMapWithFields(name, 'default', tc.fieldsV1),
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' },
    });
    const created = await res.json() as any;
    assert.equal(res.status, 201, JSON.stringify(created));
    const got = await ok(request(s, 'GET', `/api/v1/namespaces/default/configmaps/${name}`));
    assert.equal(got.metadata.managedFields.length, 1, 'Expected exactly 1 managed fields entry');
    assert.equal(JSON.stringify(got.metadata.managedFields[0].fieldsV1), tc.expected);
  });
});

// TestScaleAllResources, TestScaleUpdateOnlyStatus, TestAllKnownVersionsAreInMappings
for (const kind of ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController']) {
  test(`TestScaleAllResources: ${kind} replicas owned through its scale subresource`, { skip: 'the scale subresource of built-in workloads is not served yet (a custom resource\'s is: test/e2e/apply.test.ts)' }, () => {});
}
test('TestScaleUpdateOnlyStatus: a scale patch of status.replicas changes nothing', { skip: 'the scale subresource of built-in workloads (deployments/scale) is not served yet' }, () => {});
test('TestAllKnownVersionsAreInMappings: every version of the scaled kinds has a replicas path mapping', { skip: 'a Go-only check of the registry\'s ReplicasPathMappings; built-in workloads have no scale subresource here yet' }, () => {});
