/**
 * kube-apiserver's server-side apply integration tests for built-in kinds
 * (kubernetes/kubernetes test/integration/apiserver/apply/apply_test.go, Apache-2.0), run against
 * a real server process over HTTP with upstream's objects, managers and expectations. Each test
 * names the upstream test it comes from; a skip gives its reason. One server for the file, a
 * namespace per upstream test.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type ServerProcess } from './harness.ts';
import { APPLY, JSONPATCH, MERGE, STRATEGIC, entryOf, freshNamespace, ok, request } from './apply-upstream-client.ts';

let s: ServerProcess;

before(async () => {
  s = await startServer();
});

after(async () => {
  assert.equal(await s.stop(), 0, s.output());
});

const pods = (ns: string, name = '') => `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}`;
const cms = (ns: string, name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
const deploys = (ns: string, name = '') => `/apis/apps/v1/namespaces/${ns}/deployments${name ? `/${name}` : ''}`;
const apply = (path: string, manager: string, body: unknown, extra = '') => request(s, 'PATCH', `${path}?fieldManager=${manager}${extra}`, body, APPLY);

/** upstream's nginx Deployment (apply_test.go), with optional changes to its spec and container. */
function nginxDeployment(name: string, spec: Record<string, unknown> = { replicas: 3 }, container: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: 'nginx' } },
    spec: {
      ...spec,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { ...podSpec, containers: [{ name: 'nginx', image: 'nginx:latest', ...container }] },
      },
    },
  };
}

const testCM = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'test-cm', labels: { 'test-label': 'test' } }, data: { key: 'value' } };

// TestApplyAlsoCreates
test('TestApplyAlsoCreates: apply creates a Pod and a Service; a second manager re-applies without conflict', async () => {
  const ns = await freshNamespace(s, 'also-creates');
  const cases = [
    { resource: 'pods', name: 'test-pod', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'test-pod' }, spec: { containers: [{ name: 'test-container', image: 'test-image' }] } } },
    { resource: 'services', name: 'test-svc', body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'test-svc' }, spec: { ports: [{ port: 8080, protocol: 'UDP' }] } } },
  ];
  for (const c of cases) {
    const path = `/api/v1/namespaces/${ns}/${c.resource}/${c.name}`;
    const created = await apply(path, 'apply_test', c.body);
    assert.equal(created.status, 201, JSON.stringify(created.json));
    await ok(request(s, 'GET', path));
    const again = await apply(path, 'apply_test_2', c.body);
    assert.equal(again.status, 200, JSON.stringify(again.json));
    // The second apply changes nothing, so (as upstream's managedFieldsUpdater does) its entry
    // gets no time, and entries without a time sort first.
    assert.deepEqual(
      again.json.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.time === undefined]),
      [['apply_test_2', 'Apply', true], ['apply_test', 'Apply', false]],
    );
    assert.deepEqual(again.json.metadata.managedFields[0].fieldsV1, again.json.metadata.managedFields[1].fieldsV1);
  }
});

// TestNoOpUpdateSameResourceVersion
test('TestNoOpUpdateSameResourceVersion: a PUT of the object as read changes nothing, not even the resourceVersion', async () => {
  const ns = await freshNamespace(s, 'noop-update');
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'no-op', labels: { a: 'one', c: 'two', b: 'three' } },
    spec: {
      containers: [
        { name: 'test-container-a', image: 'test-image-one' },
        { name: 'test-container-c', image: 'test-image-two' },
        { name: 'test-container-b', image: 'test-image-three' },
      ],
    },
  };
  await ok(apply(pods(ns, 'no-op'), 'apply_test', pod));
  // upstream sleeps a second so that a rewritten managedFields time would differ.
  await new Promise((r) => setTimeout(r, 1100));
  const created = await ok(request(s, 'GET', pods(ns, 'no-op')));
  await ok(request(s, 'PUT', pods(ns, 'no-op'), created));
  const updated = await ok(request(s, 'GET', pods(ns, 'no-op')));
  assert.equal(updated.metadata.resourceVersion, created.metadata.resourceVersion);
  assert.deepEqual(updated, created);
});

// TestNoOpApplyWithEmptyMap
test('TestNoOpApplyWithEmptyMap: re-applying a Deployment with an empty annotations map keeps the resourceVersion', async () => {
  const ns = await freshNamespace(s, 'noop-empty-map');
  const d: any = nginxDeployment('no-op', { replicas: 1 }, { image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] });
  d.spec.template.metadata.annotations = {};
  await ok(apply(deploys(ns, 'no-op'), 'apply_test', d));
  await new Promise((r) => setTimeout(r, 1100));
  const created = await ok(request(s, 'GET', deploys(ns, 'no-op')));
  await ok(apply(deploys(ns, 'no-op'), 'apply_test', d));
  const updated = await ok(request(s, 'GET', deploys(ns, 'no-op')));
  assert.equal(updated.metadata.resourceVersion, created.metadata.resourceVersion);
});

// TestApplyEmptyMarkerStructDifferentFromNil
test('TestApplyEmptyMarkerStructDifferentFromNil: dropping an empty emptyDir {} is a change', async () => {
  const ns = await freshNamespace(s, 'empty-marker');
  const pod = (volume: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'pod-with-empty-dir' },
    spec: {
      containers: [{ name: 'test-container-a', image: 'test-image-one', volumeMounts: [{ mountPath: '/cache', name: 'cache-volume' }] }],
      volumes: [{ name: 'cache-volume', ...volume }],
    },
  });
  await ok(apply(pods(ns, 'pod-with-empty-dir'), 'apply_test', pod({ emptyDir: {} })));
  await new Promise((r) => setTimeout(r, 1100));
  const created = await ok(request(s, 'GET', pods(ns, 'pod-with-empty-dir')));
  // The ServiceAccount admission plugin adds the kube-api-access volume beside the applied one.
  const applied = (p: { spec: { volumes: Array<{ name: string }> } }) => p.spec.volumes.filter((v) => !v.name.startsWith('kube-api-access-'));
  assert.deepEqual(applied(created), [{ name: 'cache-volume', emptyDir: {} }]);
  // The write must see a difference: the applier no longer owns the emptyDir. The volume, naming
  // no source, gets its emptyDir back from SetDefaults_Volume, so only managedFields change.
  const r = await apply(pods(ns, 'pod-with-empty-dir'), 'apply_test', pod({}));
  if (r.status === 200) {
    const updated = await ok(request(s, 'GET', pods(ns, 'pod-with-empty-dir')));
    assert.notEqual(updated.metadata.resourceVersion, created.metadata.resourceVersion);
    assert.deepEqual(applied(updated), [{ name: 'cache-volume', emptyDir: {} }]);
    const owned = JSON.stringify(updated.metadata.managedFields.find((m: { manager: string }) => m.manager === 'apply_test').fieldsV1);
    assert.ok(!owned.includes('f:emptyDir'), owned);
  } else {
    assert.fail(`${r.status}: ${JSON.stringify(r.json)}`);
  }
});

// TestNoopChangeCreationTime
test('TestNoopChangeCreationTime: re-applying with null creationTimestamp and resourceVersion answers the same object', {
  skip: 'a null in the applied configuration merges as a change (structured-merge-diff before kubernetes-sigs/structured-merge-diff#306), so the re-apply rewrites the Apply entry\'s time and the resourceVersion',
}, async () => {
  const ns = await freshNamespace(s, 'noop-creation');
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'myconfig', creationTimestamp: null, resourceVersion: null }, data: { key: 'value' } };
  const first = await ok(apply(cms(ns, 'myconfig'), 'apply_test', body));
  await new Promise((r) => setTimeout(r, 1200));
  const second = await ok(apply(cms(ns, 'myconfig'), 'apply_test', body));
  assert.deepEqual(second, first);
});

const statefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'nginx', labels: { app: 'nginx' } },
  spec: {
    serviceName: 'nginx',
    selector: { matchLabels: { app: 'nginx' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx', resources: { limits: { memory: '2048Mi' } } }] },
    },
    volumeClaimTemplates: [{ metadata: { name: 'nginx' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  },
};

// TestNoSemanticUpdateApplySameResourceVersion
test('TestNoSemanticUpdateApplySameResourceVersion: re-applying a StatefulSet keeps the resourceVersion', async () => {
  const ns = await freshNamespace(s, 'nosemantic-apply');
  const created = await ok(apply(`/apis/apps/v1/namespaces/${ns}/statefulsets/nginx`, 'apply_test', statefulSet));
  await new Promise((r) => setTimeout(r, 1200));
  const applied = await ok(apply(`/apis/apps/v1/namespaces/${ns}/statefulsets/nginx`, 'apply_test', statefulSet));
  assert.equal(applied.metadata.resourceVersion, created.metadata.resourceVersion);
});

// TestNoSemanticUpdatePutSameResourceVersion
test('TestNoSemanticUpdatePutSameResourceVersion: a PUT of the same StatefulSet keeps the resourceVersion', async () => {
  const ns = await freshNamespace(s, 'nosemantic-put');
  const created = await ok(request(s, 'POST', `/apis/apps/v1/namespaces/${ns}/statefulsets?fieldManager=apply_test`, statefulSet));
  await new Promise((r) => setTimeout(r, 1200));
  const put = await ok(request(s, 'PUT', `/apis/apps/v1/namespaces/${ns}/statefulsets/nginx?fieldManager=apply_test`, statefulSet));
  assert.equal(put.metadata.resourceVersion, created.metadata.resourceVersion);
});

// TestCreateOnApplyFailsWithUID
test('TestCreateOnApplyFailsWithUID: apply does not create an object that names a uid (409)', async () => {
  const ns = await freshNamespace(s, 'uid');
  const r = await apply(pods(ns, 'test-pod-uid'), 'apply_test', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'test-pod-uid', uid: '88e00824-7f0e-11e8-94a1-c8d3ffb15800' },
    spec: { containers: [{ name: 'test-container', image: 'test-image' }] },
  });
  assert.equal(r.status, 409);
  assert.equal(r.json.reason, 'Conflict');
  assert.equal(r.json.message, 'Operation cannot be fulfilled on pods "test-pod-uid": uid mismatch: the provided object specified uid 88e00824-7f0e-11e8-94a1-c8d3ffb15800, and no existing object was found');
});

// TestApplyUpdateApplyConflictForced
test('TestApplyUpdateApplyConflictForced: a merge patch takes replicas; re-applying conflicts until forced', async () => {
  const ns = await freshNamespace(s, 'conflict-forced');
  const obj = nginxDeployment('deployment');
  await ok(apply(deploys(ns, 'deployment'), 'apply_test', obj));
  // No fieldManager: the manager is the user agent's first segment (here node's fetch).
  await ok(request(s, 'PATCH', deploys(ns, 'deployment'), { spec: { replicas: 5 } }, MERGE));
  const conflict = await apply(deploys(ns, 'deployment'), 'apply_test', obj);
  assert.equal(conflict.status, 409, JSON.stringify(conflict.json));
  assert.equal(conflict.json.reason, 'Conflict');
  assert.ok(conflict.json.details.causes.length >= 1);
  assert.deepEqual(conflict.json.details.causes.map((c: any) => [c.reason, c.field]), [['FieldManagerConflict', '.spec.replicas']]);
  const forced = await apply(deploys(ns, 'deployment'), 'apply_test', obj, '&force=true');
  assert.equal(forced.status, 200, JSON.stringify(forced.json));
  assert.equal(forced.json.spec.replicas, 3);
});

// TestApplyGroupsManySeparateUpdates
test('TestApplyGroupsManySeparateUpdates: 20 updaters are capped at 10 Update entries, the oldest as ancient-changes', async () => {
  const obj = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'webhook', labels: { applier: 'true' } } };
  const path = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/webhook';
  let object = await ok(apply(path, 'apply_test', obj));
  for (let i = 0; i < 20; i++) {
    const unique = `updater${i}`;
    object = await ok(request(s, 'PATCH', `${path}?fieldManager=${unique}`, { metadata: { labels: { [unique]: 'new' } } }, MERGE));
  }
  assert.equal(object.metadata.managedFields.length, 11, JSON.stringify(object.metadata.managedFields));
  assert.equal(object.metadata.managedFields[0].manager, 'apply_test');
  assert.equal(object.metadata.managedFields[1].manager, 'ancient-changes');
});

// TestCreateVeryLargeObject, TestUpdateVeryLargeObject, TestPatchVeryLargeObject
test('TestCreateVeryLargeObject: a ConfigMap near the size limit is created; an apply pushing managedFields over it fails', { skip: 'etcd\'s 1.5 MiB request limit is not enforced here (bodies are bounded at 3 MiB and SQLite rows are not limited), so the apply that upstream refuses succeeds' }, () => {});

// TestApplyManagedFields
test('TestApplyManagedFields: an applier and a grouped updater, as upstream serializes them', async () => {
  const ns = await freshNamespace(s, 'managed-fields');
  await ok(apply(cms(ns, 'test-cm'), 'apply_test', testCM));
  await ok(request(s, 'PATCH', `${cms(ns, 'test-cm')}?fieldManager=updater`, { data: { 'new-key': 'value' } }, MERGE));
  // upstream sleeps so that the grouped Update entry carries the later time.
  await new Promise((r) => setTimeout(r, 1000));
  await ok(request(s, 'PATCH', `${cms(ns, 'test-cm')}?fieldManager=updater`, { data: { key: 'new value' } }, MERGE));
  const object = await ok(request(s, 'GET', cms(ns, 'test-cm')));
  const m = object.metadata;
  // Upstream compares the whole serialized object, key order included.
  const expected = {
    metadata: {
      name: 'test-cm',
      namespace: ns,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
      labels: { 'test-label': 'test' },
      managedFields: [
        { manager: 'apply_test', operation: 'Apply', apiVersion: 'v1', time: m.managedFields[0].time, fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:test-label': {} } } } },
        { manager: 'updater', operation: 'Update', apiVersion: 'v1', time: m.managedFields[1].time, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:key': {}, 'f:new-key': {} } } },
      ],
    },
    data: { key: 'new value', 'new-key': 'value' },
  };
  // Upstream compares the whole serialized object; its metadata is serialized here in the same
  // order. (The top-level keys are not: Go writes kind, apiVersion, metadata, data in struct order,
  // this server keeps the order the merges left, data before metadata.)
  assert.equal(JSON.stringify(object.metadata, null, 1), JSON.stringify(expected.metadata, null, 1));
  assert.deepEqual(object.data, expected.data);
  assert.notEqual(m.managedFields[0].time, m.managedFields[1].time);
});

// TestApplyRemovesEmptyManagedFields
test('TestApplyRemovesEmptyManagedFields: an apply owning nothing leaves no managedFields', async () => {
  const ns = await freshNamespace(s, 'empty-managed');
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'test-cm', namespace: ns } };
  await ok(apply(cms(ns, 'test-cm'), 'apply_test', obj));
  await ok(apply(cms(ns, 'test-cm'), 'apply_test', obj));
  const object = await ok(request(s, 'GET', cms(ns, 'test-cm')));
  assert.equal(object.metadata.managedFields, undefined);
});

// TestApplyRequiresFieldManager
test('TestApplyRequiresFieldManager: apply without fieldManager fails, with it creates', async () => {
  const ns = await freshNamespace(s, 'requires-manager');
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'test-cm', namespace: ns } };
  const r = await request(s, 'PATCH', cms(ns, 'test-cm'), obj, APPLY);
  assert.equal(r.status, 422);
  assert.equal(r.json.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  assert.equal((await apply(cms(ns, 'test-cm'), 'apply_test', obj)).status, 201);
});

// TestApplyRemoveContainerPort
test('TestApplyRemoveContainerPort: applying without the container port removes it', async () => {
  const ns = await freshNamespace(s, 'remove-port');
  await ok(apply(deploys(ns, 'deployment'), 'apply_test', nginxDeployment('deployment', { replicas: 3 }, { ports: [{ containerPort: 80, protocol: 'TCP' }] })));
  await ok(apply(deploys(ns, 'deployment'), 'apply_test', nginxDeployment('deployment')));
  const d = await ok(request(s, 'GET', deploys(ns, 'deployment')));
  assert.equal(d.spec.template.spec.containers[0].ports, undefined);
});

// TestApplyFailsWithVersionMismatch
test('TestApplyFailsWithVersionMismatch: an apply in another group-version is refused with 400', async () => {
  const ns = await freshNamespace(s, 'version-mismatch');
  await ok(apply(deploys(ns, 'deployment'), 'apply_test', nginxDeployment('deployment')));
  const other = { ...nginxDeployment('deployment', { replicas: 100 }), apiVersion: 'extensions/v1beta' };
  const r = await apply(deploys(ns, 'deployment'), 'apply_test', other);
  assert.equal(r.status, 400, JSON.stringify(r.json));
  assert.equal(r.json.reason, 'BadRequest');
  assert.equal(r.json.message, 'invalid object type: extensions/v1beta, Kind=Deployment');
});

// TestApplyConvertsManagedFieldsVersion
test('TestApplyConvertsManagedFieldsVersion: an Apply entry recorded in another version is replaced by the apply in apps/v1', async () => {
  const ns = await freshNamespace(s, 'converts-version');
  const created: any = nginxDeployment('deployment', {});
  created.metadata.managedFields = [
    {
      manager: 'sidecar_controller',
      operation: 'Apply',
      apiVersion: 'extensions/v1beta1',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:sidecar_version': {} } }, 'f:spec': { 'f:template': { 'f: spec': { 'f:containers': { 'k:{"name":"sidecar"}': { '.': {}, 'f:image': {} } } } } } },
    },
  ];
  await ok(request(s, 'POST', deploys(ns), created));
  const obj = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'deployment', labels: { sidecar_version: 'release' } },
    spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'sidecar:latest' }] } } },
  };
  await ok(apply(deploys(ns, 'deployment'), 'sidecar_controller', obj));
  const object = await ok(request(s, 'GET', deploys(ns, 'deployment')));
  assert.equal(object.metadata.managedFields.length, 2, JSON.stringify(object.metadata.managedFields));
  const actual = object.metadata.managedFields.find((e: any) => e.manager === 'sidecar_controller' && e.apiVersion === 'apps/v1');
  assert.ok(actual, JSON.stringify(object.metadata.managedFields));
  assert.deepEqual(actual, {
    manager: 'sidecar_controller',
    operation: 'Apply',
    apiVersion: 'apps/v1',
    time: actual.time,
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': { 'f:labels': { 'f:sidecar_version': {} } }, 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"sidecar"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } },
  });
});

// TestClearManagedFieldsWithMergePatch, ...WithStrategicMergePatch, ...WithJSONPatch, ...WithUpdate
for (const [name, method, contentType, body] of [
  ['TestClearManagedFieldsWithMergePatch', 'PATCH', MERGE, { metadata: { managedFields: [{}] } }],
  ['TestClearManagedFieldsWithStrategicMergePatch', 'PATCH', STRATEGIC, { metadata: { managedFields: [{}] } }],
  ['TestClearManagedFieldsWithJSONPatch', 'PATCH', JSONPATCH, [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }]],
  ['TestClearManagedFieldsWithUpdate', 'PUT', 'application/json', { ...testCM, metadata: { ...testCM.metadata, managedFields: [{}] } }],
] as const) {
  test(`${name}: managedFields [{}] clears them, other fields stay`, async () => {
    const ns = await freshNamespace(s, name);
    await ok(apply(cms(ns, 'test-cm'), 'apply_test', testCM));
    await ok(request(s, method, cms(ns, 'test-cm'), body, contentType));
    const object = await ok(request(s, 'GET', cms(ns, 'test-cm')));
    assert.equal((object.metadata.managedFields ?? []).length, 0, JSON.stringify(object.metadata.managedFields));
    assert.deepEqual(object.metadata.labels, { 'test-label': 'test' });
  });
}

const brokenEntry = { manager: 'apply_test', operation: 'Apply', apiVersion: 'v1', time: '2019-07-08T09:31:18Z', fieldsType: '', fieldsV1: {} };

// TestErrorsDontFail
test('TestErrorsDontFail: a create carrying an entry with an empty fieldsType succeeds', async () => {
  const ns = await freshNamespace(s, 'errors-dont-fail');
  const r = await request(s, 'POST', `${cms(ns)}?fieldManager=apply_test`, { ...testCM, metadata: { ...testCM.metadata, managedFields: [brokenEntry] } });
  assert.equal(r.status, 201, JSON.stringify(r.json));
});

// TestErrorsDontFailUpdate
test('TestErrorsDontFailUpdate: an update carrying an entry with an empty fieldsType succeeds', async () => {
  const ns = await freshNamespace(s, 'errors-dont-fail-update');
  await ok(request(s, 'POST', `${cms(ns)}?fieldManager=apply_test`, testCM));
  const r = await request(s, 'PUT', `${cms(ns, 'test-cm')}?fieldManager=apply_test`, { ...testCM, metadata: { ...testCM.metadata, managedFields: [brokenEntry] } });
  assert.equal(r.status, 200, JSON.stringify(r.json));
});

// TestErrorsDontFailPatch
test('TestErrorsDontFailPatch: a JSON patch writing an entry with an empty fieldsType succeeds', async () => {
  const ns = await freshNamespace(s, 'errors-dont-fail-patch');
  await ok(request(s, 'POST', `${cms(ns)}?fieldManager=apply_test`, testCM));
  const r = await request(s, 'PATCH', `${cms(ns, 'test-cm')}?fieldManager=apply_test`, [{ op: 'replace', path: '/metadata/managedFields', value: [brokenEntry] }], JSONPATCH);
  assert.equal(r.status, 200, JSON.stringify(r.json));
});

// TestApplyDoesNotChangeManagedFieldsViaSubresources
test('TestApplyDoesNotChangeManagedFieldsViaSubresources: managedFields sent to the status subresource are ignored', async () => {
  const ns = await freshNamespace(s, 'via-subresources');
  const live = await ok(apply(pods(ns, 'just-a-pod'), 'apply_test', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'just-a-pod' }, spec: { containers: [{ name: 'test-container-a', image: 'test-image-one' }] } }));
  const update = {
    metadata: {
      managedFields: [
        { manager: 'testing', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:containers': { 'k:{"name":"testing"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
      ],
    },
    status: { conditions: [{ type: 'MyStatus', status: 'true' }] },
  };
  const updated = await ok(request(s, 'PATCH', `${pods(ns, 'just-a-pod')}/status?fieldManager=update_managedfields_test`, update, MERGE));
  assert.equal(live.metadata.managedFields.length, 1);
  assert.equal(updated.metadata.managedFields.length, 2, JSON.stringify(updated.metadata.managedFields));
  assert.deepEqual(updated.metadata.managedFields[0], live.metadata.managedFields[0]);
  assert.equal(updated.metadata.managedFields[1].manager, 'update_managedfields_test');
  assert.equal(updated.metadata.managedFields[1].subresource, 'status');
});

// TestClearManagedFieldsWithUpdateEmptyList
test('TestClearManagedFieldsWithUpdateEmptyList: a PUT with managedFields [] stops tracking, later patches record nothing', async () => {
  const ns = await freshNamespace(s, 'clear-empty-list');
  await ok(apply(cms(ns, 'test-cm'), 'apply_test', testCM));
  await ok(request(s, 'PUT', cms(ns, 'test-cm'), { ...testCM, metadata: { ...testCM.metadata, managedFields: [] } }));
  await ok(request(s, 'PATCH', cms(ns, 'test-cm'), { metadata: { labels: { 'test-label': 'v1' } } }, MERGE));
  const object = await ok(request(s, 'GET', cms(ns, 'test-cm')));
  assert.equal((object.metadata.managedFields ?? []).length, 0, JSON.stringify(object.metadata.managedFields));
  assert.deepEqual(object.metadata.labels, { 'test-label': 'v1' });
});

// TestApplyUnsetExclusivelyOwnedFields
test('TestApplyUnsetExclusivelyOwnedFields: fields the applier alone owned are removed when it omits them', async () => {
  const ns = await freshNamespace(s, 'unset-exclusive');
  const path = deploys(ns, 'deployment-exclusive-unset');
  await ok(apply(path, 'apply_test', nginxDeployment('deployment-exclusive-unset', { replicas: 3 }, {}, { hostname: 'test-hostname' })));
  const patched = await ok(apply(path, 'apply_test', nginxDeployment('deployment-exclusive-unset', {})));
  assert.equal(patched.spec.template.spec.hostname, undefined);
  // replicas, no longer applied by anyone, defaults back to the Deployment's 1.
  assert.equal(patched.spec.replicas, 1);
});

// TestApplyUnsetSharedFields
test('TestApplyUnsetSharedFields: fields another applier also owns stay when one omits them', async () => {
  const ns = await freshNamespace(s, 'unset-shared');
  const path = deploys(ns, 'deployment-shared-unset');
  const full = nginxDeployment('deployment-shared-unset', { replicas: 3 }, {}, { hostname: 'test-hostname' });
  for (const m of ['shared_owner_1', 'shared_owner_2']) await ok(apply(path, m, full));
  const patched = await ok(apply(path, 'shared_owner_1', nginxDeployment('deployment-shared-unset', {})));
  assert.equal(patched.spec.replicas, 3);
  assert.equal(patched.spec.template.spec.hostname, 'test-hostname');
});

// TestApplyCanTransferFieldOwnershipToController
test('TestApplyCanTransferFieldOwnershipToController: replicas taken by an update stay when the applier omits them', async () => {
  const ns = await freshNamespace(s, 'transfer');
  const path = deploys(ns, 'deployment-shared-map-item-removal');
  const applied = await ok(apply(path, 'test_applier', nginxDeployment('deployment-shared-map-item-removal')));
  applied.spec.replicas = 4;
  // Unconditional (no resourceVersion): the deployment controller writes the status meanwhile,
  // which upstream's integration test, running no controllers, never meets.
  delete applied.metadata.resourceVersion;
  await ok(request(s, 'PUT', `${path}?fieldManager=test_updater`, applied));
  const patched = await ok(apply(path, 'test_applier', nginxDeployment('deployment-shared-map-item-removal', {})));
  assert.equal(patched.spec.replicas, 4);
  assert.deepEqual(Object.keys(entryOf(patched, 'test_updater', 'Update').fieldsV1['f:spec']), ['f:replicas']);
});

// TestApplyCanRemoveMapItemsContributedToByControllers
test('TestApplyCanRemoveMapItemsContributedToByControllers: a container an updater touched goes when the applier drops it', async () => {
  const ns = await freshNamespace(s, 'remove-map-items');
  const path = deploys(ns, 'deployment-shared-map-item-removal');
  const applied = await ok(apply(path, 'test_applier', nginxDeployment('deployment-shared-map-item-removal', {})));
  applied.spec.template.spec.containers[0].workingDir = '/home/replacement';
  delete applied.metadata.resourceVersion; // unconditional, as above
  await ok(request(s, 'PUT', `${path}?fieldManager=test_updater`, applied));
  const other: any = nginxDeployment('deployment-shared-map-item-removal', { replicas: 3 }, {}, { hostname: 'test-hostname' });
  other.spec.template.spec.containers[0].name = 'other-container';
  const patched = await ok(apply(path, 'test_applier', other));
  assert.deepEqual(patched.spec.template.spec.containers.map((c: any) => c.name), ['other-container']);
});

// TestDefaultMissingKeys
test('TestDefaultMissingKeys: a port key missing its defaulted protocol still matches, so another applier conflicts once', async () => {
  const ns = await freshNamespace(s, 'default-missing-keys');
  const path = deploys(ns, 'deployment-shared-map-item-removal');
  await ok(apply(path, 'test_applier', nginxDeployment('deployment-shared-map-item-removal', {}, { ports: [{ name: 'foo', containerPort: 80 }] })));
  const r = await apply(path, 'test_applier_conflict', nginxDeployment('deployment-shared-map-item-removal', {}, { ports: [{ name: 'bar', containerPort: 80, protocol: 'TCP' }] }));
  assert.equal(r.status, 409, JSON.stringify(r.json));
  assert.equal(r.json.details.causes.length, 1, JSON.stringify(r.json.details.causes));
  assert.equal(r.json.details.causes[0].field, '.spec.template.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"].name');
});


// TestUpgradeClientSideToServerSideApply
test('TestUpgradeClientSideToServerSideApply: kubectl\'s apply takes over client-side fields except those changed since', async () => {
  const ns = await freshNamespace(s, 'upgrade-csa');
  const lastApplied =
    '{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"my-deployment","labels":{"app":"my-app"}},"spec":{"replicas": 3,"template":{"metadata":{"labels":{"app":"my-app"}},"spec":{"containers":[{"name":"my-c","image":"my-image"}]}}}}\n';
  const created = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-deployment
  annotations:
    "kubectl.kubernetes.io/last-applied-configuration": ${JSON.stringify(lastApplied)}
  labels:
    app: my-app
spec:
  replicas: 100000
  selector:
    matchLabels:
      app: my-app
  template:
    metadata:
      labels:
        app: my-app
    spec:
      containers:
      - name: my-c
        image: my-image
`;
  await ok(request(s, 'POST', deploys(ns), created, 'application/yaml'));
  const applied = (replicas: string, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-deployment
  labels:
    app: my-new-label
spec:
${replicas}  template:
    metadata:
      labels:
        app: my-app
    spec:
      containers:
      - name: my-c
        image: ${image}
`;
  const conflict = await request(s, 'PATCH', `${deploys(ns, 'my-deployment')}?fieldManager=kubectl`, applied('  replicas: 3 # expect conflict\n', 'my-image'), APPLY);
  assert.equal(conflict.status, 409, JSON.stringify(conflict.json));
  assert.equal(conflict.json.reason, 'Conflict');
  await ok(request(s, 'PATCH', `${deploys(ns, 'my-deployment')}?fieldManager=kubectl`, applied('', 'my-image-new'), APPLY));
  const d = await ok(request(s, 'GET', deploys(ns, 'my-deployment')));
  assert.equal(d.spec.replicas, 100000);
  assert.equal(d.spec.template.spec.containers[0].image, 'my-image-new');
});

const justAPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'just-a-pod' }, spec: { containers: [{ name: 'test-container-a', image: 'test-image-one' }] } };

// TestRenamingAppliedFieldManagers
test('TestRenamingAppliedFieldManagers: renaming two appliers to one merges their entries, the later one wins', async () => {
  const ns = await freshNamespace(s, 'rename-applied');
  await ok(apply(pods(ns, 'just-a-pod'), 'multi_manager_one', { ...justAPod, metadata: { name: 'just-a-pod', labels: { a: 'one' } } }));
  await ok(apply(pods(ns, 'just-a-pod'), 'multi_manager_two', { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { b: 'two' } } }));
  const pod = await ok(request(s, 'GET', pods(ns, 'just-a-pod')));
  assert.deepEqual(pod.metadata.labels, { a: 'one', b: 'two' });
  for (const e of pod.metadata.managedFields) e.manager = 'multi_manager';
  const obj = await ok(request(s, 'PUT', pods(ns, 'just-a-pod'), pod));
  assert.equal(obj.metadata.managedFields.length, 1, JSON.stringify(obj.metadata.managedFields));
  const e = obj.metadata.managedFields[0];
  assert.deepEqual([e.manager, e.operation, JSON.stringify(e.fieldsV1)], ['multi_manager', 'Apply', '{"f:metadata":{"f:labels":{"f:b":{}}}}']);
});

// TestRenamingUpdatedFieldManagers
test('TestRenamingUpdatedFieldManagers: renaming two updaters to one merges their entries', async () => {
  const ns = await freshNamespace(s, 'rename-updated');
  await ok(apply(pods(ns, 'just-a-pod'), 'first', justAPod));
  await ok(request(s, 'PATCH', `${pods(ns, 'just-a-pod')}?fieldManager=multi_manager_one`, { metadata: { labels: { a: 'one' } } }, MERGE));
  await ok(request(s, 'PATCH', `${pods(ns, 'just-a-pod')}?fieldManager=multi_manager_two`, { metadata: { labels: { b: 'two' } } }, MERGE));
  const pod = await ok(request(s, 'GET', pods(ns, 'just-a-pod')));
  assert.deepEqual(pod.metadata.labels, { a: 'one', b: 'two' });
  for (const e of pod.metadata.managedFields) e.manager = 'multi_manager';
  const obj = await ok(request(s, 'PUT', pods(ns, 'just-a-pod'), pod));
  assert.equal(obj.metadata.managedFields.length, 2, JSON.stringify(obj.metadata.managedFields));
  const e = obj.metadata.managedFields[1];
  assert.deepEqual([e.manager, e.operation, JSON.stringify(e.fieldsV1)], ['multi_manager', 'Update', '{"f:metadata":{"f:labels":{"f:b":{}}}}']);
});

// TestDroppingSubresourceField
test('TestDroppingSubresourceField: an applier on the resource and on status; dropping subresource merges the entries', {
  skip: 'the Pod status strategy here keeps the stored metadata; upstream\'s (podStatusStrategy) lets a status write change labels, which this test applies through pods/status',
}, async () => {
  const ns = await freshNamespace(s, 'drop-subresource');
  await ok(apply(pods(ns, 'just-a-pod'), 'first', justAPod));
  await ok(apply(pods(ns, 'just-a-pod'), 'label_manager', { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'one' } } }));
  await ok(apply(`${pods(ns, 'just-a-pod')}/status`, 'label_manager', { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { b: 'two' } } }));
  const pod = await ok(request(s, 'GET', pods(ns, 'just-a-pod')));
  assert.deepEqual(pod.metadata.labels, { a: 'one', b: 'two' });
  const mf = pod.metadata.managedFields;
  assert.equal(mf.length, 3, JSON.stringify(mf));
  assert.deepEqual([mf[1].manager, mf[1].operation, mf[1].subresource], ['label_manager', 'Apply', undefined]);
  assert.deepEqual([mf[2].manager, mf[2].operation, mf[2].subresource], ['label_manager', 'Apply', 'status']);
  for (const e of mf) delete e.subresource;
  const obj = await ok(request(s, 'PUT', pods(ns, 'just-a-pod'), pod));
  assert.equal(obj.metadata.managedFields.length, 2, JSON.stringify(obj.metadata.managedFields));
  const e = obj.metadata.managedFields[1];
  assert.deepEqual([e.manager, e.operation, JSON.stringify(e.fieldsV1)], ['label_manager', 'Apply', '{"f:metadata":{"f:labels":{"f:b":{}}}}']);
});

// TestDroppingSubresourceFromSpecField
test('TestDroppingSubresourceFromSpecField: an updater on the resource and on status; dropping subresource merges the entries', async () => {
  const ns = await freshNamespace(s, 'drop-subresource-spec');
  await ok(apply(pods(ns, 'just-a-pod'), 'first', justAPod));
  await ok(request(s, 'PATCH', `${pods(ns, 'just-a-pod')}?fieldManager=manager`, { metadata: { labels: { a: 'two' } } }, MERGE));
  await ok(request(s, 'PATCH', `${pods(ns, 'just-a-pod')}/status?fieldManager=manager`, { status: { phase: 'Running' } }, MERGE));
  const pod = await ok(request(s, 'GET', pods(ns, 'just-a-pod')));
  assert.deepEqual(pod.metadata.labels, { a: 'two' });
  assert.equal(pod.status.phase, 'Running');
  const mf = pod.metadata.managedFields;
  assert.equal(mf.length, 3, JSON.stringify(mf));
  assert.deepEqual([mf[1].manager, mf[1].operation, mf[1].subresource], ['manager', 'Update', undefined]);
  assert.deepEqual([mf[2].manager, mf[2].operation, mf[2].subresource], ['manager', 'Update', 'status']);
  for (const e of mf) delete e.subresource;
  const obj = await ok(request(s, 'PUT', pods(ns, 'just-a-pod'), pod));
  assert.equal(obj.metadata.managedFields.length, 2, JSON.stringify(obj.metadata.managedFields));
  const e = obj.metadata.managedFields[1];
  assert.deepEqual([e.manager, e.operation, e.subresource], ['manager', 'Update', undefined]);
  // upstream's fields are {"f:status":{"f:phase":{}}}: its Pod create sets status (phase
  // Pending, qosClass), so the status patch does not create the status map. Here it does, and
  // the map itself ('.') is owned too (see the skipped test below).
  assert.deepEqual(Object.keys(e.fieldsV1), ['f:status']);
  assert.deepEqual(e.fieldsV1['f:status']['f:phase'], {});
});

test('TestDroppingSubresourceFromSpecField: the status updater owns exactly {"f:status":{"f:phase":{}}}', {
  skip: 'a Pod is created here without the status upstream\'s PrepareForCreate sets (phase Pending, qosClass), so the later status patch creates the status map and owns it (".")',
}, () => {});

// TestSubresourceField
test('TestSubresourceField: a merge patch of a Deployment\'s scale is an Update of the scale subresource', { skip: 'the scale subresource of built-in workloads (deployments/scale) is not served yet' }, () => {});

// TestApplyFormerlyAtomicFields
test('TestApplyFormerlyAtomicFields: a claimRef once owned atomically is shared granularly on re-apply', async () => {
  const oldPV = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { creationTimestamp: '2022-06-08T23:46:32Z', finalizers: ['kubernetes.io/pv-protection'], labels: { type: 'local' }, name: 'pv-storage', uid: '112b18f7-fde6-4e48-aa61-f5168bd576b8' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '16Mi' },
      claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: 'pvc-storage', namespace: 'default', resourceVersion: '15499', uid: '2018e302-7b12-406c-9fa2-e52535d29e48' },
      hostPath: { path: '“/tmp/mydata', type: '' },
      persistentVolumeReclaimPolicy: 'Retain',
      volumeMode: 'Filesystem',
    },
    status: { phase: 'Bound' },
  };
  const managedFields = [
    {
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:type': {} } }, 'f:spec': { 'f:accessModes': {}, 'f:capacity': { 'f:storage': {} }, 'f:hostPath': { 'f:path': {} }, 'f:storageClassName': {} } },
      manager: 'apply_test',
      operation: 'Apply',
      time: '2022-06-08T23:46:32Z',
    },
    { apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:phase': {} } }, manager: 'kube-controller-manager', operation: 'Update', subresource: 'status', time: '2022-06-08T23:46:32Z' },
    { apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:claimRef': {} } }, manager: 'kube-controller-manager', operation: 'Update', time: '2022-06-08T23:46:37Z' },
  ];
  const originalPV = {
    kind: 'PersistentVolume',
    apiVersion: 'v1',
    metadata: { labels: { type: 'local' }, name: 'pv-storage' },
    spec: { storageClassName: '', capacity: { storage: '16Mi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '“/tmp/mydata' }, claimRef: { name: 'pvc-storage', namespace: 'default' } },
  };
  const originalObj = await ok(request(s, 'POST', '/api/v1/persistentvolumes?fieldManager=apply_test', oldPV));
  await ok(request(s, 'PATCH', '/api/v1/persistentvolumes/pv-storage?fieldManager=apply_test', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-storage', managedFields } }, STRATEGIC));
  const newObj = await ok(apply('/api/v1/persistentvolumes/pv-storage', 'apply_test', originalPV));
  assert.deepEqual(newObj.spec.claimRef, originalObj.spec.claimRef);
  const wipe = (es: any[]) => es.map(({ time: _t, ...e }) => e);
  assert.deepEqual(wipe(newObj.metadata.managedFields), [
    {
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:type': {} } },
        'f:spec': { 'f:accessModes': {}, 'f:capacity': { 'f:storage': {} }, 'f:claimRef': { 'f:name': {}, 'f:namespace': {} }, 'f:hostPath': { 'f:path': {} }, 'f:storageClassName': {} },
      },
      manager: 'apply_test',
      operation: 'Apply',
    },
    { apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:phase': {} } }, manager: 'kube-controller-manager', operation: 'Update', subresource: 'status' },
    { apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:claimRef': {} } }, manager: 'kube-controller-manager', operation: 'Update' },
  ].map((e) => ({ manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, fieldsType: e.fieldsType, fieldsV1: e.fieldsV1, ...(e.subresource ? { subresource: e.subresource } : {}) })));
});

// TestDuplicatesInAssociativeLists
test('TestDuplicatesInAssociativeLists: a DaemonSet with duplicate list-map keys, created, applied, updated, force-applied', { skip: 'its expected managedFields include the DaemonSet\'s and Pod template\'s native defaults (revisionHistoryLimit, updateStrategy, imagePullPolicy, dnsPolicy, ...) and the deprecated.daemonset.template.generation annotation, which built-in kinds do not get yet' }, () => {});

// TestApplyMatchesFakeClientsetApply
test('TestApplyMatchesFakeClientsetApply: a real apply answers what client-go\'s fake clientset answers', { skip: 'compares against client-go\'s in-process fake clientset (Go only)' }, () => {});

// TestCreateOnApplyFailsWithForbidden
test('TestCreateOnApplyFailsWithForbidden: create-on-apply needs both patch and create permissions', { skip: 'authentication and RBAC authorization are not served yet (every request is allowed)' }, () => {});
