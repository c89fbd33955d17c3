/**
 * kube-apiserver's TestApplyStatus (kubernetes/kubernetes test/integration/apiserver/apply/
 * status_test.go, Apache-2.0) against a real server process: every resource discovery lists with a
 * `/status` subresource is created from upstream's etcd storage stub by `create_test`, its status
 * applied through `/status` by `apply_status_test` (forced), and both managers must then be in
 * managedFields. The stubs are data (testdata/k8s-apply/apply-status.json); a discovered status
 * resource without a case fails the suite, as upstream's "no test data" does. One server.
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
}
const vectors = JSON.parse(readFileSync(new URL('../../testdata/k8s-apply/apply-status.json', import.meta.url), 'utf8')) as {
  namespace: string;
  defaultStatusStub: Record<string, unknown>;
  crds: Record<string, any>[];
  cases: StatusCase[];
  skipped: { resource: string; reason: string }[];
};
const gvr = (g: string, v: string, r: string) => `${g === '' ? '' : `${g}/`}${v}/${r}`;
const cases = new Map(vectors.cases.map((c) => [gvr(c.group, c.version, c.resource), c]));
const skipped = new Map(vectors.skipped.map((s) => [s.resource, s.reason]));

let s: ServerProcess;
/** Every `<group/version/resource>` with a status subresource, from discovery, with its kind and scope. */
let discovered: { key: string; group: string; version: string; resource: string; kind: string; namespaced: boolean }[] = [];

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

// One test per status resource, registered once discovery has run (node:test runs them in order).
test('TestApplyStatus: every status resource', async (t) => {
  for (const d of discovered) {
    const reason = skipped.get(d.key);
    const c = cases.get(d.key);
    await t.test(d.key, { skip: reason ?? (c ? false : 'no stub') }, async () => {
      const base = `${d.group === '' ? '/api' : `/apis/${d.group}`}/${d.version}${d.namespaced ? `/namespaces/${vectors.namespace}` : ''}/${d.resource}`;
      const apiVersion = d.group === '' ? d.version : `${d.group}/${d.version}`;
      const obj: Record<string, any> = { apiVersion, kind: d.kind, ...structuredClone(c!.stub) };
      const name = obj.metadata.name as string;
      await ok(request(s, 'POST', `${base}?fieldManager=create_test`, obj));
      const status = { ...(c!.statusStub ?? vectors.defaultStatusStub), apiVersion, kind: d.kind, metadata: { name } };
      const applied = await ok(request(s, 'PATCH', `${base}/${name}/status?fieldManager=apply_status_test&force=true`, status, APPLY));
      const managers = (applied.metadata.managedFields ?? []).map((e: any) => e.manager);
      assert.ok(managers.includes('apply_status_test'), `Couldn't find apply_status_test: ${JSON.stringify(applied.metadata.managedFields)}`);
      assert.ok(managers.includes('create_test'), `Couldn't find create_test: ${JSON.stringify(applied.metadata.managedFields)}`);
      const entry = applied.metadata.managedFields.find((e: any) => e.manager === 'apply_status_test');
      assert.equal(entry.subresource, 'status');
      assert.ok(Object.keys(entry.fieldsV1).every((k) => k === 'f:status'), JSON.stringify(entry.fieldsV1));
      const del = await request(s, 'DELETE', `${base}/${name}`, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
      assert.ok(del.status === 200 || del.status === 202, `deleting final object failed: ${del.status} ${JSON.stringify(del.json)}`);
    });
  }
});
