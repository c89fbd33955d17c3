import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregatedDiscovery, apiGroupList, apiResourceList } from './documents.ts';
import { compareKubeAwareVersions, storageVersionHash, type DiscoveredResource } from './model.ts';

const crontabs: DiscoveredResource = {
  group: 'stable.example.com',
  version: 'v1',
  resource: 'crontabs',
  singular: 'crontab',
  kind: 'CronTab',
  namespaced: true,
  verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
  shortNames: ['ct'],
  categories: ['all'],
  subresources: [
    { subresource: 'status', responseKind: { group: 'stable.example.com', version: 'v1', kind: 'CronTab' }, verbs: ['get', 'patch', 'update'] },
    { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
  ],
};

test('aggregated discovery lists resources with verbs, short names, categories and subresources', () => {
  const doc = aggregatedDiscovery([{ name: 'stable.example.com', versions: ['v1'] }], [crontabs], 'v2');
  assert.equal(doc.apiVersion, 'apidiscovery.k8s.io/v2');
  const items = doc.items as any[];
  assert.equal(items[0].metadata.name, 'stable.example.com');
  const r = items[0].versions[0].resources[0];
  assert.equal(r.scope, 'Namespaced');
  assert.deepEqual(r.shortNames, ['ct']);
  assert.deepEqual(r.categories, ['all']);
  assert.deepEqual(r.subresources[1].responseKind, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  assert.equal(items[0].versions[0].freshness, 'Current');
});

test('APIResourceList lists subresources as resource/subresource', () => {
  const doc = apiResourceList('stable.example.com', 'v1', [crontabs]) as any;
  assert.equal(doc.groupVersion, 'stable.example.com/v1');
  assert.deepEqual(doc.resources.map((r: any) => r.name), ['crontabs', 'crontabs/status', 'crontabs/scale']);
  assert.equal(doc.resources[2].group, 'autoscaling');
  const groups = apiGroupList([{ name: '', versions: ['v1'] }, { name: 'g.io', versions: ['v2', 'v1'] }]) as any;
  assert.deepEqual(groups.groups, [
    { name: 'g.io', versions: [{ groupVersion: 'g.io/v2', version: 'v2' }, { groupVersion: 'g.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'g.io/v2', version: 'v2' } },
  ]);
});

test('versions sort as Kubernetes orders them; storage version hash is stable', () => {
  const vs = ['v1alpha1', 'foo', 'v2beta1', 'v1', 'v1beta2', 'v2', 'bar', 'v1beta1'];
  assert.deepEqual([...vs].sort(compareKubeAwareVersions), ['v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v1alpha1', 'bar', 'foo']);
  assert.equal(storageVersionHash('stable.example.com', 'v1', 'CronTab').length, 12);
});
