// The column definitions of the built-in printers: names, types and priorities as
// pkg/printers/internalversion declares them, and descriptions resolved from the Swagger docs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultTableConvertor } from '../convert.ts';
import { swaggerDoc } from './descriptions.ts';
import { builtinTableConvertor, printedResources } from './index.ts';

const cols = (group: string, resource: string) => builtinTableConvertor(group, resource).columns.map((c) => `${c.name}:${c.type}:${c.priority}`);

test('column names, types and priorities follow upstream', () => {
  assert.deepEqual(cols('', 'events'), [
    'Last Seen:string:0',
    'Type:string:0',
    'Reason:string:0',
    'Object:string:0',
    'Subobject:string:1',
    'Source:string:1',
    'Message:string:0',
    'First Seen:string:1',
    'Count:string:1',
    'Name:string:1',
  ]);
  assert.deepEqual(cols('apps', 'deployments'), ['Name:string:0', 'Ready:string:0', 'Up-to-date:string:0', 'Available:string:0', 'Age:string:0', 'Containers:string:1', 'Images:string:1', 'Selector:string:1']);
  assert.deepEqual(cols('batch', 'cronjobs'), ['Name:string:0', 'Schedule:string:0', 'Timezone:string:0', 'Suspend:boolean:0', 'Active:integer:0', 'Last Schedule:string:0', 'Age:string:0', 'Containers:string:1', 'Images:string:1', 'Selector:string:1']);
  assert.deepEqual(cols('storage.k8s.io', 'volumeattachments')[1], 'Attacher:string:0');
  assert.equal(builtinTableConvertor('storage.k8s.io', 'volumeattachments').columns[1]!.format, 'name');
  assert.deepEqual(cols('certificates.k8s.io', 'certificatesigningrequests'), ['Name:string:0', 'Age:string:0', 'SignerName:string:0', 'Requestor:string:0', 'RequestedDuration:string:0', 'Condition:string:0']);
});

test('kinds without a printer upstream keep the default Name / Created At table', () => {
  for (const [g, r] of [['rbac.authorization.k8s.io', 'roles'], ['rbac.authorization.k8s.io', 'clusterroles'], ['', 'limitranges'], ['storage.k8s.io', 'csistoragecapacities']] as const) {
    assert.equal(builtinTableConvertor(g, r), defaultTableConvertor, `${g}/${r}`);
  }
});

test('APIServices print kube-aggregator\'s SERVICE and AVAILABLE', () => {
  const conv = builtinTableConvertor('apiregistration.k8s.io', 'apiservices');
  assert.deepEqual(cols('apiregistration.k8s.io', 'apiservices'), ['Name:string:0', 'Service:string:0', 'Available:string:0', 'Age:string:0']);
  const now = Date.parse('2026-01-10T00:00:00Z');
  const local = { metadata: { name: 'v1.apps', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { group: 'apps', version: 'v1' }, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] } };
  assert.deepEqual(conv.cells(local, now), ['v1.apps', 'Local', 'True', '9d']);
  const missing = { metadata: { name: 'v1beta1.metrics.k8s.io' }, spec: { service: { namespace: 'kube-system', name: 'metrics-server' } }, status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] } };
  assert.deepEqual(conv.cells(missing, now), ['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'False (MissingEndpoints)', '<unknown>']);
  assert.deepEqual(conv.cells({ metadata: { name: 'x' }, spec: {} }, now), ['x', 'Local', 'Unknown', '<unknown>']);
});

test('every description is a Swagger doc text or upstream literal, never an unresolved key', () => {
  const keys = new Set(Object.keys(swaggerDoc));
  for (const key of printedResources()) {
    const [group, res] = key.split('/') as [string, string];
    for (const c of builtinTableConvertor(group, res).columns) {
      assert.ok(!keys.has(c.description), `${key} ${c.name}: ${c.description}`);
      assert.ok(!/^[a-z0-9]+v\d\w*\.[A-Z]\w+\.\w+$/.test(c.description), `${key} ${c.name}: ${c.description}`);
    }
  }
  assert.equal(builtinTableConvertor('', 'pods').columns[6]!.description.slice(0, 54), 'NodeName indicates in which node this pod is scheduled');
});
