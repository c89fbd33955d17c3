/**
 * kube-apiserver's server-side apply integration tests for custom resources
 * (kubernetes/kubernetes test/integration/apiserver/apply/apply_crd_test.go, Apache-2.0) against a
 * real server process, with upstream's noxu CRDs (apiextensions-apiserver test/integration/fixtures),
 * schemas, objects and expectations. The tests share one server; each creates its CRD and deletes it
 * at the end, since upstream's share the CRD's name.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type ServerProcess } from './harness.ts';
import { APPLY, MERGE, ok, request } from './apply-upstream-client.ts';

let s: ServerProcess;

before(async () => {
  s = await startServer();
});

after(async () => {
  assert.equal(await s.stop(), 0, s.output());
});

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const noxuNames = { plural: 'noxus', singular: 'nonenglishnoxu', kind: 'WishIHadChosenNoxu', shortNames: ['foo', 'bar', 'abc', 'def'], listKind: 'NoxuItemList', categories: ['all'] };

/** fixtures.NewNoxuV1CustomResourceDefinition / NewMultipleVersionNoxuCRD (cluster-scoped), every version with `schema`. */
function noxuCRD(schema: unknown, multipleVersions: boolean) {
  const versions = multipleVersions
    ? [
        { name: 'v1beta1', served: true, storage: false, subresources: { status: {} }, schema },
        { name: 'v1beta2', served: true, storage: true, subresources: { status: {} }, schema },
        { name: 'v0', served: false, storage: false, subresources: { status: {} }, schema },
      ]
    : [{ name: 'v1beta1', served: true, storage: true, schema }];
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'noxus.mygroup.example.com' }, spec: { group: 'mygroup.example.com', names: noxuNames, scope: 'Cluster', versions } };
}

/** fixtures.CreateNewV1CustomResourceDefinition: create, then wait for Established. */
async function createCRD(crd: Record<string, any>): Promise<void> {
  await ok(request(s, 'POST', crdPath, crd));
  for (let i = 0; ; i++) {
    const got = await ok(request(s, 'GET', `${crdPath}/${crd.metadata.name}`));
    if (got.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True')) return;
    assert.ok(i < 200, 'CRD not Established');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function deleteCRD(name: string): Promise<void> {
  await ok(request(s, 'DELETE', `${crdPath}/${name}`));
  for (let i = 0; ; i++) {
    if ((await request(s, 'GET', `${crdPath}/${name}`)).status === 404) return;
    assert.ok(i < 400, 'CRD not deleted');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const portsSchema = (protocol: Record<string, unknown>, required: string[]) => ({
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: {
          cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
          ports: {
            type: 'array',
            'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
            'x-kubernetes-list-type': 'map',
            items: {
              properties: {
                containerPort: { format: 'int32', type: 'integer' },
                hostIP: { type: 'string' },
                hostPort: { format: 'int32', type: 'integer' },
                name: { type: 'string' },
                protocol,
              },
              required,
              type: 'object',
            },
          },
        },
      },
    },
  },
});

const noxus = '/apis/mygroup.example.com/v1beta1/noxus';
const apiVersion = 'mygroup.example.com/v1beta1';
const kind = 'WishIHadChosenNoxu';
const name = 'mytest';

// TestApplyCRDStructuralSchema
test('TestApplyCRDStructuralSchema: the structural schema drives apply (finalizers a set, ports a map by containerPort and protocol)', async () => {
  await createCRD(noxuCRD(portsSchema({ type: 'string' }, ['containerPort', 'protocol']), true));
  try {
    const yamlBody = `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: ${name}
  finalizers:
  - test-finalizer
spec:
  cronSpec: "* * * * */5"
  replicas: 1
  ports:
  - name: x
    containerPort: 80
    protocol: TCP`;
    let result = await ok(request(s, 'PATCH', `${noxus}/${name}?fieldManager=apply_test`, yamlBody, APPLY));
    assert.deepEqual(result.metadata.finalizers, ['test-finalizer']);
    assert.equal(result.spec.replicas, 1);
    assert.equal(result.spec.ports.length, 1);

    result = await ok(request(s, 'PATCH', `${noxus}/${name}`, { metadata: { finalizers: ['test-finalizer', 'another-one'] } }, MERGE));
    assert.deepEqual(result.metadata.finalizers, ['test-finalizer', 'another-one']);

    // Re-applying keeps the other finalizer: finalizers are a set.
    result = await ok(request(s, 'PATCH', `${noxus}/${name}?fieldManager=apply_test`, yamlBody, APPLY));
    assert.deepEqual([...result.metadata.finalizers].sort(), ['another-one', 'test-finalizer']);

    result = await ok(request(s, 'PATCH', `${noxus}/${name}`, { spec: { replicas: 5 } }, MERGE));
    assert.equal(result.spec.replicas, 5);

    let r = await request(s, 'PATCH', `${noxus}/${name}?fieldManager=apply_test`, yamlBody, APPLY);
    assert.equal(r.status, 409, JSON.stringify(r.json));
    assert.equal(r.json.details.causes.length, 1, JSON.stringify(r.json.details.causes));

    result = await ok(request(s, 'PATCH', `${noxus}/${name}?force=true&fieldManager=apply_test`, yamlBody, APPLY));
    assert.equal(result.spec.replicas, 1);

    // Another applier changing an existing list item: one conflict.
    r = await request(s, 'PATCH', `${noxus}/${name}?fieldManager=apply_test_2`, `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: ${name}
spec:
  ports:
  - name: "y"
    containerPort: 80
    protocol: TCP`, APPLY);
    assert.equal(r.status, 409, JSON.stringify(r.json));
    assert.equal(r.json.details.causes.length, 1, JSON.stringify(r.json.details.causes));
    assert.equal(r.json.details.causes[0].field, '.spec.ports[containerPort=80,protocol="TCP"].name');

    // ... adding a new one is fine.
    result = await ok(request(s, 'PATCH', `${noxus}/${name}?fieldManager=apply_test_2`, `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: ${name}
spec:
  ports:
  - name: "y"
    containerPort: 8080
    protocol: TCP`, APPLY));
    assert.equal(result.spec.ports.length, 2);

    // UpdateOnCreate: a PUT of a missing custom resource is 404.
    r = await request(
      s,
      'PUT',
      `${noxus}/should-not-exist?fieldManager=apply_test`,
      `{"apiVersion": "${apiVersion}", "kind": "${kind}", "metadata": {"name": "should-not-exist", "finalizers": ["test-finalizer"]}, "spec": {"cronSpec": "* * * * */5", "replicas": 1, "ports": [{"name": "x", "containerPort": 80}]}, "protocol": "TCP"}`,
    );
    assert.equal(r.status, 404, JSON.stringify(r.json));
    assert.equal(r.json.reason, 'NotFound');

    // Let the finalizers go so that the CRD can be deleted.
    await ok(request(s, 'PATCH', `${noxus}/${name}`, { metadata: { finalizers: null } }, MERGE));
  } finally {
    await deleteCRD('noxus.mygroup.example.com');
  }
});

// TestApplyCRDUnhandledSchema
test('TestApplyCRDUnhandledSchema: a schema the OpenAPI models cannot take falls back to schemaless apply', {
  skip: 'it writes an apiextensions.k8s.io/v1beta1 CRD straight into etcd, bypassing v1 validation; this server serves only v1 CRDs, which cannot carry that schema',
}, () => {});

// TestDefaultMissingKeyCRD
test('TestDefaultMissingKeyCRD: a list-map key with a schema default (protocol TCP) matches the item applied without it', async () => {
  await createCRD(noxuCRD(portsSchema({ default: 'TCP', type: 'string' }, ['containerPort']), false));
  try {
    await ok(request(s, 'PATCH', `${noxus}/${name}?fieldManager=apply_test`, `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: ${name}
  finalizers:
  - test-finalizer
spec:
  cronSpec: "* * * * */5"
  replicas: 1
  ports:
  - name: x
    containerPort: 80`, APPLY));
    const r = await request(s, 'PATCH', `${noxus}/${name}?fieldManager=apply_test_2`, `
apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: ${name}
spec:
  ports:
  - name: "y"
    containerPort: 80
    protocol: TCP`, APPLY);
    assert.equal(r.status, 409, JSON.stringify(r.json));
    assert.equal(r.json.details.causes.length, 1, JSON.stringify(r.json.details.causes));
    await ok(request(s, 'PATCH', `${noxus}/${name}`, { metadata: { finalizers: null } }, MERGE));
  } finally {
    await deleteCRD('noxus.mygroup.example.com');
  }
});

// TestNoOpApplyWithDefaultsSameResourceVersionCRD
test('TestNoOpApplyWithDefaultsSameResourceVersionCRD: re-applying an atomic map whose field is defaulted keeps the resourceVersion', async () => {
  await createCRD(
    noxuCRD(
      {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                infrastructureRef: {
                  type: 'object',
                  properties: { name: { type: 'string' }, namespace: { type: 'string', default: 'default-namespace' } },
                  'x-kubernetes-map-type': 'atomic',
                },
              },
            },
          },
        },
      },
      false,
    ),
  );
  try {
    const applyConfiguration = { apiVersion, kind, metadata: { name }, spec: { infrastructureRef: { name: 'infrastructure-machine-1\n' } } };
    const created = await ok(request(s, 'PATCH', `${noxus}/${name}?fieldManager=apply_test`, applyConfiguration, APPLY));
    assert.equal(created.spec.infrastructureRef.namespace, 'default-namespace');
    await new Promise((r) => setTimeout(r, 1000));
    const updated = await ok(request(s, 'PATCH', `${noxus}/${name}?fieldManager=apply_test`, applyConfiguration, APPLY));
    assert.equal(updated.metadata.resourceVersion, created.metadata.resourceVersion);
  } finally {
    await deleteCRD('noxus.mygroup.example.com');
  }
});
