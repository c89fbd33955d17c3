/**
 * kube-apiserver's tests that go through every resource with a status subresource
 * (kubernetes/kubernetes test/integration/apiserver/apply/status_test.go TestApplyStatus,
 * apply_wipe_test.go TestApplyWipeManagedFields and TestWipeManagedFieldsForPod, reset_fields_test.go
 * TestApplyResetFields; Apache-2.0) against a real server process. Each resource discovery lists
 * with `/status` is created from upstream's etcd storage stub; the stubs are data
 * (testdata/k8s-apply/apply-status.json), and a discovered status resource without a case fails
 * the suite, as upstream's "no test data" does. One server.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, type ServerProcess } from './harness.ts';
import { APPLY, ok, request } from './apply-upstream-client.ts';

interface StatusCase {
  group: string;
  version: string;
  resource: string;
  stub: Record<string, any>;
  statusStub?: Record<string, unknown>;
  mutatedStub: Record<string, any>;
  mutatedStatusStub?: Record<string, unknown>;
}
const vectors = JSON.parse(readFileSync(new URL('../../testdata/k8s-apply/apply-status.json', import.meta.url), 'utf8')) as {
  namespace: string;
  defaultStatusStub: Record<string, unknown>;
  defaultMutatedStatusStub: Record<string, unknown>;
  noConflicts: Record<string, string>;
  crds: Record<string, any>[];
  cases: StatusCase[];
  skipped: { resource: string; reason: string }[];
};
const gvr = (g: string, v: string, r: string) => `${g === '' ? '' : `${g}/`}${v}/${r}`;
const cases = new Map(vectors.cases.map((c) => [gvr(c.group, c.version, c.resource), c]));
const skipped = new Map(vectors.skipped.map((s) => [s.resource, s.reason]));

let s: ServerProcess;
/** Every `<group/version/resource>` with a status subresource, from discovery, with its kind and scope. */
let discovered: Discovered[] = [];

before(async () => {
  s = await startServer();
  // upstream creates its test CRDs first, so custom resources are among the status resources.
  for (const crd of vectors.crds) await ok(request(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd));
  for (const crd of vectors.crds) {
    for (let i = 0; ; i++) {
      const got = await ok(request(s, 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`));
      if (got.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True')) break;
      assert.ok(i < 100, `${crd.metadata.name} not Established`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await ok(request(s, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: vectors.namespace } }));
  const lists: { groupVersion: string; resources: any[] }[] = [{ groupVersion: 'v1', resources: (await ok(request(s, 'GET', '/api/v1'))).resources }];
  for (const g of (await ok(request(s, 'GET', '/apis'))).groups) {
    for (const v of g.versions) lists.push({ groupVersion: v.groupVersion, resources: (await ok(request(s, 'GET', `/apis/${v.groupVersion}`))).resources });
  }
  for (const l of lists) {
    const [group, version] = l.groupVersion.includes('/') ? l.groupVersion.split('/') : ['', l.groupVersion];
    for (const r of l.resources) {
      if (!r.name.endsWith('/status')) continue;
      const resource = r.name.slice(0, -'/status'.length);
      discovered.push({ key: gvr(group!, version!, resource), group: group!, version: version!, resource, kind: r.kind, namespaced: r.namespaced });
    }
  }
});

after(async () => {
  assert.equal(await s.stop(), 0, s.output());
});

test('TestApplyStatus: discovery lists the status resources the vectors cover', () => {
  assert.ok(vectors.cases.length >= 27, `only ${vectors.cases.length} cases`);
  assert.ok(discovered.length >= 26, discovered.map((d) => d.key).join(', '));
  const missing = discovered.filter((d) => !cases.has(d.key) && !skipped.has(d.key)).map((d) => d.key);
  assert.deepEqual(missing, [], 'no test data for these; add their stubs from upstream\'s etcd.GetEtcdStorageData()');
  console.log(`# TestApplyStatus: ${discovered.length} status resources, ${[...skipped.keys()].length} skipped`);
});

interface Discovered {
  key: string;
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
}

/** Runs `body` as a subtest per discovered status resource, with its case, base path and apiVersion. */
async function eachStatusResource(
  t: { test: (name: string, opts: { skip: string | false }, fn: () => Promise<void>) => Promise<void> },
  namespace: string,
  body: (c: StatusCase, d: Discovered, base: string, apiVersion: string) => Promise<void>,
  skipAlso: (d: Discovered) => string | undefined = () => undefined,
): Promise<void> {
  for (const d of discovered) {
    const c = cases.get(d.key);
    await t.test(d.key, { skip: skipped.get(d.key) ?? skipAlso(d) ?? (c ? false : 'no stub') }, async () => {
      const base = `${d.group === '' ? '/api' : `/apis/${d.group}`}/${d.version}${d.namespaced ? `/namespaces/${namespace}` : ''}/${d.resource}`;
      await body(c!, d, base, d.group === '' ? d.version : `${d.group}/${d.version}`);
    });
  }
}

/** Deletes with grace period 0 and waits until the object is gone (namespaces are finalized first). */
async function deleteAndWait(path: string): Promise<void> {
  const del = await request(s, 'DELETE', path, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
  assert.ok(del.status === 200 || del.status === 202, `deleting final object failed: ${del.status} ${JSON.stringify(del.json)}`);
  for (let i = 0; (await request(s, 'GET', path)).status !== 404; i++) {
    assert.ok(i < 200, `${path} still there`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// TestApplyStatus
test('TestApplyStatus: every status resource', async (t) => {
  await eachStatusResource(t, vectors.namespace, async (c, d, base, apiVersion) => {
    const obj: Record<string, any> = { apiVersion, kind: d.kind, ...structuredClone(c.stub) };
    const name = obj.metadata.name as string;
    await ok(request(s, 'POST', `${base}?fieldManager=create_test`, obj));
    const status = { ...(c.statusStub ?? vectors.defaultStatusStub), apiVersion, kind: d.kind, metadata: { name } };
    const applied = await ok(request(s, 'PATCH', `${base}/${name}/status?fieldManager=apply_status_test&force=true`, status, APPLY));
    const managers = (applied.metadata.managedFields ?? []).map((e: any) => e.manager);
    assert.ok(managers.includes('apply_status_test'), `Couldn't find apply_status_test: ${JSON.stringify(applied.metadata.managedFields)}`);
    assert.ok(managers.includes('create_test'), `Couldn't find create_test: ${JSON.stringify(applied.metadata.managedFields)}`);
    const entry = applied.metadata.managedFields.find((e: any) => e.manager === 'apply_status_test');
    assert.equal(entry.subresource, 'status');
    assert.ok(Object.keys(entry.fieldsV1).every((k) => k === 'f:status'), JSON.stringify(entry.fieldsV1));
    await deleteAndWait(`${base}/${name}`);
  });
});

const resetFieldsNamespace = 'reset-fields-namespace';

// TestApplyWipeManagedFields
test('TestApplyWipeManagedFields: a create with a status does not own it, so an unforced status apply does not conflict', async (t) => {
  await ok(request(s, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: resetFieldsNamespace } }));
  await eachStatusResource(t, resetFieldsNamespace, async (c, d, base, apiVersion) => {
    const status = c.statusStub ?? vectors.defaultStatusStub;
    const obj: Record<string, any> = { apiVersion, kind: d.kind, ...structuredClone(c.stub), ...structuredClone(status) };
    const name = obj.metadata.name as string;
    await ok(request(s, 'POST', `${base}?fieldManager=create_test`, obj));
    const r = await request(s, 'PATCH', `${base}/${name}/status?fieldManager=apply_status_test`, { ...status, apiVersion, kind: d.kind, metadata: { name } }, APPLY);
    assert.ok(r.status === 200, `Failed to apply: ${r.status} ${JSON.stringify(r.json)}`);
    await deleteAndWait(`${base}/${name}`);
  }, (d) => (d.resource === 'customresourcedefinitions' ? 'upstream skips it: a CRD\'s status is written by its controllers too, which own the conditions, so the unforced apply conflicts' : undefined));
});

// TestWipeManagedFieldsForPod
test('TestWipeManagedFieldsForPod: an applied Pod\'s status is reset on create and not owned', async () => {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'test-pod-with-status' }, spec: { containers: [{ name: 'test-container', image: 'test-image' }] }, status: { phase: 'testing' } };
  await ok(request(s, 'PATCH', '/api/v1/namespaces/default/pods/test-pod-with-status?fieldManager=apply_test', body, APPLY));
  const pod = await ok(request(s, 'GET', '/api/v1/namespaces/default/pods/test-pod-with-status'));
  assert.notEqual(pod.status?.phase, 'testing', 'Pod should not have .status.phase \'testing\'');
  assert.equal(JSON.stringify(pod.metadata.managedFields[0].fieldsV1), '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"test-container\\"}":{".":{},"f:image":{},"f:name":{}}}}}');
});

// TestApplyResetFields
test('TestApplyResetFields: the main resource\'s applier owns no status and the status applier no spec', async (t) => {
  await eachStatusResource(t, resetFieldsNamespace, async (c, d, base, apiVersion) => {
    const obj1: Record<string, any> = { ...structuredClone(c.stub), ...structuredClone(c.statusStub ?? vectors.defaultStatusStub), apiVersion, kind: d.kind };
    const name = obj1.metadata.name as string;
    await ok(request(s, 'PATCH', `${base}/${name}?fieldManager=fieldmanager1`, obj1, APPLY));
    // obj2: obj1 with the mutated stub and status merged over it at the top level, as json.Unmarshal into the object does.
    const obj2: Record<string, any> = { ...structuredClone(obj1), ...structuredClone(c.mutatedStub), ...structuredClone(c.mutatedStatusStub ?? vectors.defaultMutatedStatusStub) };
    if (obj2.metadata === undefined || !('name' in obj2.metadata)) obj2.metadata = { ...obj2.metadata, name };
    assert.notDeepEqual(obj1, obj2);
    // Applying obj2's status does not conflict with fieldmanager1: its status is not owned.
    let r = await request(s, 'PATCH', `${base}/${name}/status?fieldManager=fieldmanager2`, obj2, APPLY);
    assert.equal(r.status, 200, `Failed to apply obj2: ${JSON.stringify(r.json)}`);
    if (vectors.noConflicts[d.resource] === undefined) {
      r = await request(s, 'PATCH', `${base}/${name}?fieldManager=fieldmanager2`, obj2, APPLY);
      assert.equal(r.status, 409, `Did not get expected conflict in spec of ${d.key}: ${r.status} ${JSON.stringify(r.json)}`);
      assert.match(r.json.message, /conflict/);
      r = await request(s, 'PATCH', `${base}/${name}/status?fieldManager=fieldmanager1`, obj1, APPLY);
      assert.equal(r.status, 409, `Did not get expected conflict in status of ${d.key}: ${r.status} ${JSON.stringify(r.json)}`);
      assert.match(r.json.message, /conflict/);
    }
    await deleteAndWait(`${base}/${name}`);
  });
});
