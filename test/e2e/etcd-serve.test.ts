/**
 * `serve`'s etcd flags: parsing as kube-apiserver's (pflag durations, comma-separated servers,
 * TLS files that go together), and a real process on a real etcd: where it says the objects are,
 * its failure when no member answers, and its keys under --etcd-prefix.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Etcd3 } from 'etcd3';
import { parseDuration, parseServeArgs } from '../../src/cli/serve.ts';
import { etcdMissing, freePort, startEtcdCluster } from '../../src/storage/etcd/process.ts';
import { kubectl } from './harness.ts';
import { startReplica } from './etcd-harness.ts';

const root = new URL('../..', import.meta.url).pathname;

describe('serve --etcd-* flags', () => {
  test('defaults follow kube-apiserver: prefix /registry, compaction every 5m0s', () => {
    const a = parseServeArgs(['--etcd-servers', 'http://127.0.0.1:2379,https://127.0.0.1:2381/']);
    assert.ok(a !== 'help');
    assert.deepEqual(a.etcd, { servers: ['http://127.0.0.1:2379', 'https://127.0.0.1:2381/'], prefix: '/registry', compactionIntervalMs: 300_000 });
    const b = parseServeArgs(['--etcd-servers=http://127.0.0.1:2379', '--etcd-prefix=/tenant', '--etcd-compaction-interval=0', '--etcd-cafile', 'ca.pem', '--etcd-certfile', 'c.pem', '--etcd-keyfile', 'k.pem']);
    assert.ok(b !== 'help');
    assert.deepEqual(b.etcd, { servers: ['http://127.0.0.1:2379'], prefix: '/tenant', compactionIntervalMs: 0, caFile: 'ca.pem', certFile: 'c.pem', keyFile: 'k.pem' });
    const sqlite = parseServeArgs([]);
    assert.ok(sqlite !== 'help');
    assert.equal(sqlite.etcd, undefined);
  });

  test('Go durations as pflag parses them', () => {
    assert.equal(parseDuration('--etcd-compaction-interval', '5m0s'), 300_000);
    assert.equal(parseDuration('--etcd-compaction-interval', '1h30m'), 5_400_000);
    assert.equal(parseDuration('--etcd-compaction-interval', '1.5s'), 1500);
    assert.equal(parseDuration('--etcd-compaction-interval', '250ms'), 250);
    assert.equal(parseDuration('--etcd-compaction-interval', '0'), 0);
    assert.throws(() => parseDuration('--etcd-compaction-interval', '5'), { message: 'invalid argument "5" for "--etcd-compaction-interval" flag: time: invalid duration "5"' });
    assert.throws(() => parseDuration('--etcd-compaction-interval', '5 m'), /invalid duration "5 m"/);
    assert.throws(() => parseDuration('--etcd-compaction-interval', ''), /invalid duration ""/);
  });

  test('bad combinations are refused', () => {
    assert.throws(() => parseServeArgs(['--etcd-servers', '127.0.0.1:2379']), /invalid --etcd-servers URL "127.0.0.1:2379"/);
    assert.throws(() => parseServeArgs(['--etcd-servers', ',']), /--etcd-servers must name at least one URL/);
    assert.throws(() => parseServeArgs(['--etcd-cafile', 'ca.pem']), /the --etcd-\* flags need --etcd-servers/);
    assert.throws(() => parseServeArgs(['--etcd-servers', 'http://127.0.0.1:2379', '--etcd-certfile', 'c.pem']), /--etcd-certfile and --etcd-keyfile go together/);
  });

  test('serve exits 1 naming etcd when no member answers, and 2 on a bad flag', async () => {
    const port = await freePort();
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--plain-http', '--listen', '127.0.0.1:0', '--data-dir', '/tmp/crd-apiserver-unused', '--etcd-servers', `http://127.0.0.1:${port}`], { cwd: root, encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stderr, `crd-apiserver serve: cannot open the store in etcd at http://127.0.0.1:${port}: context deadline exceeded\n`);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--etcd-compaction-interval', '5'], { cwd: root, encoding: 'utf8', timeout: 60000 });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^crd-apiserver serve: invalid argument "5" for "--etcd-compaction-interval" flag: time: invalid duration "5"\n/);
  });

  test('a server on etcd says where the objects are and keeps them under --etcd-prefix', { skip: etcdMissing() }, async () => {
    const cluster = await startEtcdCluster();
    const r = await startReplica(cluster.endpoints, '/serve-e2e/');
    const raw = new Etcd3({ hosts: cluster.endpoints });
    try {
      assert.match(r.output(), new RegExp(`^crd-apiserver listening on http://127\\.0\\.0\\.1:\\d+ \\(objects in etcd at ${cluster.endpoints[0]!.replace(/\./g, '\\.')} under /serve-e2e/\\)\\n`));
      assert.equal((await kubectl(r, ['create', 'namespace', 'n1'])).code, 0);
      const ns = JSON.parse((await raw.get('/serve-e2e/namespaces/n1').string())!);
      assert.equal(ns.metadata.name, 'n1');
      const keys = await raw.getAll().prefix('/serve-e2e/namespaces/').keys();
      assert.deepEqual(keys.sort(), ['default', 'kube-node-lease', 'kube-public', 'kube-system', 'n1'].map((n) => `/serve-e2e/namespaces/${n}`));
      // Events are kept on an hour's lease (kube-apiserver's --event-ttl); other objects on none.
      const ev = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { kind: 'Namespace', name: 'n1' }, reason: 'Test', message: 'hello' };
      const created = await fetch(`${r.url}/api/v1/namespaces/default/events`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ev) });
      assert.equal(created.status, 201, await created.text());
      const kv = (await raw.get('/serve-e2e/events/default/e1').exec()).kvs[0]!;
      assert.notEqual(String(kv.lease), '0');
      const granted = await raw.leaseClient.leaseTimeToLive({ ID: kv.lease });
      assert.ok(Number(granted.grantedTTL) >= 3600, `lease of ${granted.grantedTTL} s`);
      const nsKV = (await raw.get('/serve-e2e/namespaces/n1').exec()).kvs[0]!;
      assert.equal(String(nsKV.lease), '0');
    } finally {
      raw.close();
      await r.stop();
      await cluster.stop();
    }
  });
});
