import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinResources } from './catalog.ts';
import { openAPIDocument } from './openapi.ts';
import { kindSchema } from './schema.ts';
import type { JSONSchemaProps } from '../../schema/index.ts';

test('the catalog serves every stored kind of the default group-versions, with discovery facts', () => {
  const rs = builtinResources();
  assert.ok(rs.length >= 56, `only ${rs.length} resources`);
  const by = (g: string, r: string) => rs.find((x) => x.group === g && x.resource === r)!;
  const d = by('apps', 'deployments');
  assert.deepEqual(
    { kind: d.kind, namespaced: d.namespaced, verbs: d.verbs, status: d.hasStatus, scale: d.hasScale, short: d.shortNames, cat: d.categories },
    { kind: 'Deployment', namespaced: true, verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], status: true, scale: true, short: ['deploy'], cat: ['all'] },
  );
  assert.equal(by('', 'nodes').namespaced, false);
  assert.equal(by('', 'configmaps').hasStatus, false);
  assert.deepEqual(by('', 'pods').shortNames, ['po']);
  assert.equal(by('rbac.authorization.k8s.io', 'clusterroles').namespaced, false);
  // Not stored: bindings (create only), component statuses (read only); reviews are not in these group-versions.
  assert.equal(rs.find((x) => x.resource === 'bindings' || x.resource === 'componentstatuses'), undefined);
  assert.deepEqual([...new Set(rs.map((r) => r.group))].length, 18);
});

test('a kind schema inlines references and gives Go-decoded types their decoding shape', () => {
  const s = kindSchema(openAPIDocument('apps', 'v1').doc, 'io.k8s.api.apps.v1.Deployment');
  const c = s.properties!.spec!.properties!.template!.properties!.spec!.properties!.containers!;
  assert.equal(c['x-kubernetes-list-type'], 'map');
  assert.deepEqual(c['x-kubernetes-list-map-keys'], ['name']);
  const container = c.items as JSONSchemaProps;
  assert.deepEqual(container.required, ['name']);
  assert.equal(container.properties!.ports!.items && (container.properties!.ports!.items as JSONSchemaProps).properties!.containerPort!.type, 'integer');
  // Quantity takes any scalar, IntOrString its own shape; descriptions and defaults are left out.
  assert.deepEqual(container.properties!.resources!.properties!.limits!.additionalProperties, { 'x-kubernetes-preserve-unknown-fields': true });
  assert.deepEqual(s.properties!.spec!.properties!.strategy!.properties!.rollingUpdate!.properties!.maxSurge, { 'x-kubernetes-int-or-string': true });
  assert.equal(s.description, undefined);
  assert.deepEqual(s.properties!.metadata, { type: 'object' });
});
