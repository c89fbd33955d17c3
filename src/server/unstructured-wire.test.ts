/**
 * Custom resources on the wire as kube-apiserver writes them: unstructured objects, whose JSON Go
 * writes from a map[string]interface{} with every key sorted (metadata and managedFields entries
 * included), lists as `apiVersion, items, kind, metadata` with `metadata.continue` always present
 * (UnstructuredList.SetContinue sets it, "" on the last page), and watch events carrying the sorted
 * object. Typed answers around them (Tables, Status, built-in lists) keep their own order.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJSON } from '../apimachinery/index.ts';
import { call, startCrontabFixture, type Fixture } from './testing/fixtures.ts';

let f: Fixture;
const ctPath = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io';

before(async () => {
  f = await startCrontabFixture();
});
after(async () => {
  await f.close();
});

/** Asserts that `text` is JSON with every object's keys sorted (it is its own canonical form). */
function assertSorted(text: string, what: string): void {
  assert.equal(text.trimEnd(), canonicalJSON(JSON.parse(text)), `${what}: keys not sorted:\n${text.slice(0, 400)}`);
}

// A body whose keys a client sends in no particular order, at every level.
const crontab = (name: string) => ({
  kind: 'CronTab',
  apiVersion: 'stable.example.com/v1',
  spec: { replicas: 1, image: 'img', cronSpec: '* * * * */5' },
  metadata: { name, labels: { zeta: '1', alpha: '2' }, annotations: { 'z.example.com/b': 'x', 'a.example.com/a': 'y' } },
});

test('a custom resource is answered with its keys sorted at every level, on every verb', async () => {
  const created = await call(f.base, 'POST', ctPath, crontab('wire-1'));
  assert.equal(created.status, 201, created.text);
  assertSorted(created.text, 'create');
  // Go's map order puts metadata's members, and each managedFields entry's, in sorted order too.
  assert.deepEqual(Object.keys(created.json.metadata), ['annotations', 'creationTimestamp', 'generation', 'labels', 'managedFields', 'name', 'namespace', 'resourceVersion', 'uid']);
  assert.deepEqual(Object.keys(created.json.metadata.managedFields[0]), ['apiVersion', 'fieldsType', 'fieldsV1', 'manager', 'operation', 'time']);
  assert.deepEqual(Object.keys(created.json), ['apiVersion', 'kind', 'metadata', 'spec']);
  const got = await call(f.base, 'GET', ctPath + '/wire-1');
  assertSorted(got.text, 'get');
  assert.equal(got.text, created.text, 'a read answers the text the create answered');
  const put = await call(f.base, 'PUT', ctPath + '/wire-1', { ...got.json, spec: { replicas: 2, image: 'img2' } });
  assert.equal(put.status, 200, put.text);
  assertSorted(put.text, 'update');
  const patched = await call(f.base, 'PATCH', ctPath + '/wire-1', '{"spec":{"cronSpec":"1 * * * *"}}', { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(patched.status, 200, patched.text);
  assertSorted(patched.text, 'patch');
  const status = await call(f.base, 'PUT', ctPath + '/wire-1/status', { ...patched.json, status: { replicas: 2 } });
  assert.equal(status.status, 200, status.text);
  assertSorted(status.text, 'status update');
  const pretty = await call(f.base, 'GET', ctPath + '/wire-1?pretty=true');
  assert.equal(pretty.text.trimEnd(), canonicalJSON(JSON.parse(pretty.text), 2));
  assert.match(pretty.text, /^\{\n {2}"apiVersion": "stable\.example\.com\/v1",\n {2}"kind": "CronTab",\n {2}"metadata": \{\n {4}"annotations"/);
  const dry = await call(f.base, 'POST', ctPath + '?dryRun=All', crontab('wire-dry'));
  assert.equal(dry.status, 201, dry.text);
  assertSorted(dry.text, 'dry-run create');
  // The typed Scale keeps Go's struct order: kind before apiVersion.
  const scale = await call(f.base, 'GET', ctPath + '/wire-1/scale');
  assert.equal(scale.status, 200, scale.text);
  assert.deepEqual(Object.keys(scale.json).slice(0, 2), ['kind', 'apiVersion']);
  // Deleting it answers a typed Status (the store does not return deleted custom resources).
  const deleted = await call(f.base, 'DELETE', ctPath + '/wire-1');
  assert.equal(deleted.status, 200, deleted.text);
  assert.match(deleted.text, /^\{"kind":"Status","apiVersion":"v1",/);
});

test('a custom-resource list is apiVersion, items, kind, metadata, with metadata.continue always there', async () => {
  const ns = 'wire-list';
  assert.equal((await call(f.base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
  const path = `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`;
  for (let i = 0; i < 3; i++) assert.equal((await call(f.base, 'POST', path, crontab(`list-${i}`))).status, 201);
  const list = await call(f.base, 'GET', path + '?labelSelector=alpha%3D2');
  assert.equal(list.status, 200, list.text);
  assertSorted(list.text, 'list');
  assert.deepEqual(Object.keys(list.json), ['apiVersion', 'items', 'kind', 'metadata']);
  // The last (only) page: continue is "" (clients that page until continue is absent loop on CRs).
  assert.deepEqual(Object.keys(list.json.metadata), ['continue', 'resourceVersion']);
  assert.equal(list.json.metadata.continue, '');
  const page = await call(f.base, 'GET', path + '?limit=1');
  assertSorted(page.text, 'first page');
  assert.deepEqual(Object.keys(page.json.metadata), ['continue', 'remainingItemCount', 'resourceVersion']);
  assert.notEqual(page.json.metadata.continue, '');
  assert.equal(page.json.metadata.remainingItemCount, 2);
  const rest = await call(f.base, 'GET', path + `?limit=5&continue=${encodeURIComponent(page.json.metadata.continue)}`);
  assert.equal(rest.json.items.length, 2);
  assert.equal(rest.json.metadata.continue, '');
  assert.equal('remainingItemCount' in rest.json.metadata, false);
  // A Table of them is typed: kind first, no empty continue.
  const table = await call(f.base, 'GET', path, undefined, { Accept: tableAccept });
  assert.deepEqual(Object.keys(table.json).slice(0, 2), ['kind', 'apiVersion']);
  assert.deepEqual(table.json.metadata, { resourceVersion: table.json.metadata.resourceVersion });
  // A built-in kind's list is typed too: ListMeta leaves an empty continue out.
  const cms = await call(f.base, 'GET', '/api/v1/namespaces/default/configmaps');
  assert.equal('continue' in cms.json.metadata, false);
});

test('a list long enough to be streamed in chunks is sorted the same way', async () => {
  const ns = 'wire-big';
  assert.equal((await call(f.base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
  const path = `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`;
  const writes = [];
  for (let i = 0; i < 520; i++) writes.push(call(f.base, 'POST', path, crontab(`big-${i}`)));
  for (const w of await Promise.all(writes)) assert.equal(w.status, 201, w.text);
  // Twice: the second list serves the watch cache's kept text of each item.
  for (const round of [1, 2]) {
    const list = await call(f.base, 'GET', path);
    assert.equal(list.json.items.length, 520);
    assertSorted(list.text, `streamed list, round ${round}`);
    assert.equal(list.json.metadata.continue, '');
    assert.match(list.text, /^\{"apiVersion":"stable\.example\.com\/v1","items":\[\{"apiVersion"/);
    assert.match(list.text, /\],"kind":"CronTabList","metadata":\{"continue":"","resourceVersion":"\d+"\}\}\n$/);
  }
  const all = await call(f.base, 'DELETE', path);
  assert.equal(all.status, 200, all.text);
  assertSorted(all.text, 'delete collection');
});

test('watch events carry the custom resource sorted; a Table row embeds it sorted in the typed Table', async () => {
  assert.equal((await call(f.base, 'POST', ctPath, crontab('watched'))).status, 201);
  const w = await call(f.base, 'GET', ctPath + '?watch=1&resourceVersion=0&timeoutSeconds=1&fieldSelector=metadata.name%3Dwatched');
  const lines = w.text.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, w.text);
  assert.match(lines[0]!, /^\{"type":"ADDED","object":\{"apiVersion":"stable\.example\.com\/v1","kind":"CronTab","metadata":\{"annotations"/);
  // The event is a typed WatchEvent (type, then object); its object is the sorted custom resource.
  const object = JSON.stringify(JSON.parse(lines[0]!).object);
  assert.equal(object, canonicalJSON(JSON.parse(object)));
  const row = await call(f.base, 'GET', ctPath + '/watched?includeObject=Object', undefined, { Accept: tableAccept });
  assert.deepEqual(Object.keys(row.json).slice(0, 2), ['kind', 'apiVersion']);
  const embedded = JSON.stringify(row.json.rows[0].object);
  assert.equal(embedded, canonicalJSON(row.json.rows[0].object));
  // With the default includeObject the row holds a typed PartialObjectMetadata: Go's ObjectMeta order.
  const meta = await call(f.base, 'GET', ctPath + '/watched', undefined, { Accept: tableAccept });
  assert.deepEqual(Object.keys(meta.json.rows[0].object.metadata).slice(0, 3), ['name', 'namespace', 'uid']);
});
