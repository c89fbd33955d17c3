import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiate } from './negotiate.ts';
import { StatusError } from '../../apimachinery/index.ts';

const kubectlTable =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const kubectlAgg =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

test('negotiate picks Table for kubectl get on resources, JSON where tables are not produced', () => {
  const t = negotiate(kubectlTable, { table: true });
  assert.equal(t.target?.as, 'Table');
  assert.equal(t.contentType, 'application/json;as=Table;v=v1;g=meta.k8s.io');
  const plain = negotiate(kubectlTable, {});
  assert.equal(plain.target, undefined);
  assert.equal(plain.contentType, 'application/json');
});

test('negotiate answers aggregated discovery with the exact content type', () => {
  const n = negotiate(kubectlAgg, { aggregatedDiscovery: true });
  assert.equal(n.contentType, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  const old = negotiate('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json', {
    aggregatedDiscovery: true,
  });
  assert.equal(old.target?.version, 'v2beta1');
});

test('negotiate handles protobuf-first, YAML, wildcards, q-values and 406', () => {
  assert.equal(negotiate('application/vnd.kubernetes.protobuf,application/json', {}).encoding, 'json');
  assert.equal(negotiate('application/yaml', {}).contentType, 'application/yaml');
  assert.equal(negotiate('*/*', {}).encoding, 'json');
  assert.equal(negotiate(undefined, {}).encoding, 'json');
  assert.equal(negotiate('application/yaml;q=0.5, application/json', {}).encoding, 'json');
  assert.throws(
    () => negotiate('text/html', {}),
    (e: unknown) => e instanceof StatusError && e.code === 406,
  );
});

test('negotiate answers a repeated Accept header as it did the first time, each header on its own', () => {
  const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
  const first = negotiate(table, { table: true });
  assert.equal(first.contentType, 'application/json;as=Table;v=v1;g=meta.k8s.io');
  assert.deepEqual(negotiate(table, { table: true }), first);
  // The same header where Tables are not produced falls through to plain JSON.
  assert.deepEqual(negotiate(table, {}), { encoding: 'json', contentType: 'application/json', pretty: false });
  assert.deepEqual(negotiate(table, { table: true }, true), { ...first, pretty: true });
  for (let i = 0; i < 300; i++) negotiate(`application/json;x=${i}`, {});
  assert.deepEqual(negotiate(table, { table: true }), first);
});

test('protobuf is answered where the endpoint offers it, for plain objects only', () => {
  const client = 'application/vnd.kubernetes.protobuf,application/json';
  assert.deepEqual(negotiate(client, { protobuf: true }), { encoding: 'protobuf', contentType: 'application/vnd.kubernetes.protobuf', pretty: false });
  assert.equal(negotiate(client, { protobuf: false }).encoding, 'json');
  assert.equal(negotiate('application/json;q=0.9,application/vnd.kubernetes.protobuf', { protobuf: true }).encoding, 'protobuf');
  assert.equal(negotiate('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json', { protobuf: true, table: true }).encoding, 'json');
});
