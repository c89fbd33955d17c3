/**
 * Two real server processes on one real etcd: a CRD registered and objects written through one
 * replica are served by the other within a bounded delay (kubectl against each), resourceVersions
 * are etcd's revisions, and a watch on one replica sees writes made through the other.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Etcd3 } from 'etcd3';
import { crontabCRDYAML, kubectl, manifest } from './harness.ts';
import { eventually, startReplica, type Replica } from './etcd-harness.ts';
import { etcdMissing, startEtcdCluster, type EtcdCluster } from '../../src/storage/etcd/process.ts';

const missing = etcdMissing();

describe('two replicas on one etcd', { skip: missing }, () => {
  let cluster: EtcdCluster;
  let a: Replica;
  let b: Replica;
  const prefix = '/replicas-e2e';

  before(async () => {
    cluster = await startEtcdCluster();
    [a, b] = await Promise.all([startReplica(cluster.endpoints, prefix), startReplica(cluster.endpoints, prefix)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await cluster?.stop();
  });

  test('a CRD applied through one replica is Established and served by the other', async () => {
    const r = await kubectl(a, ['apply', '-f', manifest(a, 'crd.yaml', crontabCRDYAML)]);
    assert.equal(r.stdout, 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n', r.stderr);
    const w = await kubectl(b, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s']);
    assert.equal(w.stdout, 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n', w.stderr);
    const started = Date.now();
    await eventually('replica B to serve crontabs', async () => (await kubectl(b, ['get', 'crontabs'])).code === 0, 10000);
    assert.ok(Date.now() - started < 10000);
  });

  test('objects written through either replica are read through the other, with the same resourceVersion, which is the etcd revision', async () => {
    const obj = (name: string) => `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\nspec:\n  cronSpec: "* * * * */5"\n  image: img\n`;
    const c1 = await kubectl(b, ['create', '-f', manifest(b, 'from-b.yaml', obj('from-b'))]);
    assert.equal(c1.stdout, 'crontab.stable.example.com/from-b created\n', c1.stderr);
    const c2 = await kubectl(a, ['create', '-f', manifest(a, 'from-a.yaml', obj('from-a'))]);
    assert.equal(c2.stdout, 'crontab.stable.example.com/from-a created\n', c2.stderr);

    const names = async (s: Replica) => (await kubectl(s, ['get', 'crontabs', '-o', 'name'])).stdout;
    assert.equal(await names(a), 'crontab.stable.example.com/from-a\ncrontab.stable.example.com/from-b\n');
    assert.equal(await names(b), 'crontab.stable.example.com/from-a\ncrontab.stable.example.com/from-b\n');

    const rvOf = async (s: Replica, name: string) => (await kubectl(s, ['get', 'crontab', name, '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout;
    const rvA = await rvOf(a, 'from-b');
    assert.equal(rvA, await rvOf(b, 'from-b'));
    const raw = new Etcd3({ hosts: cluster.endpoints });
    try {
      const kv = (await raw.kv.range({ key: Buffer.from(`${prefix}/stable.example.com/crontabs/default/from-b`) })).kvs[0];
      assert.ok(kv, 'stored at kube-apiserver\'s key under the prefix');
      assert.equal(rvA, kv.mod_revision);
      assert.equal(JSON.parse(kv.value.toString()).metadata.name, 'from-b', 'custom resources are stored as JSON');
    } finally {
      raw.close();
    }

    const patched = await kubectl(a, ['patch', 'crontab', 'from-b', '--type=merge', '-p', '{"spec":{"replicas":3}}']);
    assert.equal(patched.stdout, 'crontab.stable.example.com/from-b patched\n', patched.stderr);
    assert.equal((await kubectl(b, ['get', 'crontab', 'from-b', '-o', 'jsonpath={.spec.replicas}'])).stdout, '3');
    const del = await kubectl(b, ['delete', 'crontab', 'from-a']);
    assert.equal(del.stdout, 'crontab.stable.example.com "from-a" deleted\n', del.stderr);
    await eventually('the delete to be seen through A', async () => (await names(a)) === 'crontab.stable.example.com/from-b\n', 5000);
  });

  test('a namespace created through one replica admits writes through the other', async () => {
    assert.equal((await kubectl(a, ['create', 'namespace', 'team-x'])).code, 0);
    const obj = `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: in-team-x\n  namespace: team-x\nspec:\n  image: img\n`;
    const r = await eventually('B to admit a write into team-x', async () => {
      const c = await kubectl(b, ['create', '-f', manifest(b, 'team-x.yaml', obj)]);
      return c.code === 0 ? c : undefined;
    }, 5000);
    assert.equal(r.stdout, 'crontab.stable.example.com/in-team-x created\n');
  });

  test('a kubectl watch on one replica sees writes made through the other', async () => {
    const { spawn } = await import('node:child_process');
    const { join } = await import('node:path');
    const watch = spawn('/usr/bin/kubectl', ['--kubeconfig', a.kubeconfig, '--cache-dir', join(a.dir, 'kube-cache'), 'get', 'crontabs', '--watch-only', '-o', 'name'], {
      env: { ...process.env, HOME: a.dir },
    });
    let seen = '';
    watch.stdout.on('data', (d: Buffer) => (seen += d.toString()));
    try {
      await new Promise((r) => setTimeout(r, 1500));
      const obj = `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: watched\nspec:\n  image: img\n`;
      assert.equal((await kubectl(b, ['create', '-f', manifest(b, 'watched.yaml', obj)])).code, 0);
      await eventually('the watch on A to print the object created through B', async () => seen.includes('crontab.stable.example.com/watched'), 10000);
    } finally {
      watch.kill('SIGTERM');
    }
  });
});
