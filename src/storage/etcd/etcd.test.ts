/**
 * The etcd store against a real etcd member on loopback: the Store contract suite (each case under
 * its own --etcd-prefix on one member), then what only this backend promises: kube-apiserver's key
 * layout in etcd, compact_rev_key, the compaction loop, TTL leases, progress notifications, and
 * failing fast with StorageUnavailableError when etcd is gone.
 */

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Etcd3 } from 'etcd3';
import { runStoreContract } from '../contract.ts';
import { CompactedError } from '../store.ts';
import { openEtcdStore, type EtcdStore } from './store.ts';
import { compactStep } from './compactor.ts';
import { KeyMapper } from './keys.ts';
import { StorageUnavailableError } from './errors.ts';
import { etcdMissing, freePort, startEtcdCluster, type EtcdCluster } from './process.ts';
import { clusterTLS, makeTestCertificates } from './certs.ts';
import { readFileSync } from 'node:fs';

const missing = etcdMissing();
let cluster: Promise<EtcdCluster> | undefined;
const etcd = () => (cluster ??= startEtcdCluster());
after(async () => {
  if (cluster) await (await cluster).stop();
});
let n = 0;

async function open(prefix = `/contract-${++n}`, extra: Partial<Parameters<typeof openEtcdStore>[0]> = {}): Promise<EtcdStore> {
  const c = await etcd();
  return openEtcdStore({ endpoints: c.endpoints, prefix, compactionIntervalMs: 0, ...extra });
}

if (missing) {
  test('Store contract: etcd', { skip: missing }, () => {});
} else {
  runStoreContract('etcd', async () => {
    const store = await open();
    return { store, cleanup: () => store.close() };
  });
}

describe('etcd store', { skip: missing }, () => {
  test('keys are laid out under --etcd-prefix as kube-apiserver lays them, values as written', async () => {
    const s = await open('/registry');
    const raw = new Etcd3({ hosts: (await etcd()).endpoints });
    try {
      const name = `x${Date.now()}`;
      await s.create(`/registry/stable.example.com/crontabs/default/${name}`, '{"kind":"CronTab"}');
      const got = await raw.get(`/registry/stable.example.com/crontabs/default/${name}`).string();
      assert.equal(got, '{"kind":"CronTab"}');
      const other = await open('/other/root/');
      await other.create('/registry/namespaces/n1', 'ns');
      assert.equal(await raw.get('/other/root/namespaces/n1').string(), 'ns');
      assert.equal(await other.get(`/registry/stable.example.com/crontabs/default/${name}`), undefined, 'prefixes do not see each other');
      await other.close();
    } finally {
      raw.close();
      await s.close();
    }
  });

  test('KeyMapper maps the /registry root onto the prefix and back', () => {
    const m = new KeyMapper('/tenant-a/');
    assert.equal(m.prefix, '/tenant-a');
    assert.equal(m.toEtcd('/registry/namespaces/a'), '/tenant-a/namespaces/a');
    assert.equal(m.fromEtcd('/tenant-a/namespaces/a'), '/registry/namespaces/a');
    assert.equal(new KeyMapper().toEtcd('/registry/apiextensions.k8s.io/customresourcedefinitions/a.b'), '/registry/apiextensions.k8s.io/customresourcedefinitions/a.b');
  });

  test('compaction is recorded in compact_rev_key, which every store on the etcd reads', async () => {
    const a = await open();
    const b = await open();
    try {
      const kv = await a.create('/registry/t/a', '1');
      await a.update('/registry/t/a', '2', kv.modRevision);
      const at = await a.currentRevision();
      await a.compact(at);
      assert.equal(await b.compactedRevision(), at);
      await assert.rejects(b.get('/registry/t/a', kv.modRevision), (e: unknown) => e instanceof CompactedError && e.compacted === at);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('the compaction step follows upstream: no compaction on the first step, then at the previous revision', async () => {
    const s = await open();
    try {
      const first = await compactStep(s.client.kv, await versionOfCompactKey(s), 0);
      const before = await s.compactedRevision();
      await s.create('/registry/t/x', '1');
      const second = await compactStep(s.client.kv, first.time, first.rev);
      assert.equal(second.time, first.time + 1);
      assert.equal(await s.compactedRevision(), first.rev);
      assert.ok(first.rev > before);
      // A lost compare-and-swap (another server compacted in between) is no error and adopts its count.
      const stale = await compactStep(s.client.kv, first.time, second.rev);
      assert.equal(stale.time, second.time);
      assert.equal(await s.compactedRevision(), first.rev);
    } finally {
      await s.close();
    }
  });

  test('the compaction loop compacts by itself at its interval', async () => {
    const s = await open(undefined, { compactionIntervalMs: 150 });
    try {
      const start = await s.compactedRevision();
      const kv = await s.create('/registry/t/loop', '1');
      const deadline = Date.now() + 5000;
      while ((await s.compactedRevision()) < kv.modRevision && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.ok((await s.compactedRevision()) >= kv.modRevision, `compacted ${await s.compactedRevision()} (from ${start})`);
    } finally {
      await s.close();
    }
  });

  test('a key written with a TTL expires with its lease; a burst of writes with one TTL shares a lease', async () => {
    const s = await open();
    try {
      const lease = async (key: string) => (await s.client.kv.range({ key: s.etcdKey(key) })).kvs[0]!.lease;
      // An Event's TTL (1 h): upstream reuses a lease for min(5% of it, 60 s).
      const e1 = await s.create('/registry/events/default/e1', 'E1', { ttlSeconds: 3600 });
      const e2 = await s.create('/registry/events/default/e2', 'E2', { ttlSeconds: 3600 });
      assert.notEqual(await lease(e1.key), '0');
      assert.equal(await lease(e1.key), await lease(e2.key), 'the second write reuses the first lease');
      const granted = await s.client.leaseClient.leaseTimeToLive({ ID: await lease(e1.key) });
      assert.ok(Number(granted.grantedTTL) === 3660, `granted ${granted.grantedTTL} s: the TTL plus the reuse window`);

      const a = await s.create('/registry/events/default/a', 'A', { ttlSeconds: 1 });
      assert.notEqual(await lease(a.key), await lease(e1.key), 'a shorter TTL gets its own lease');
      const plain = await s.create('/registry/events/default/plain', 'P');
      assert.equal(await lease(plain.key), '0');
      const updated = await s.update(a.key, 'A2', a.modRevision, { ttlSeconds: 1 });
      assert.equal(updated.value, 'A2');
      const deadline = Date.now() + 8000;
      while ((await s.get(a.key)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      assert.equal(await s.get(a.key), undefined, 'expired with its lease');
      assert.deepEqual(await s.get(plain.key), plain);
      assert.ok(await s.get(e1.key));
    } finally {
      await s.close();
    }
  });

  test('a watch reports etcd progress notifications through onProgress', async () => {
    const c = await startEtcdCluster({ extraArgs: ['--experimental-watch-progress-notify-interval=200ms'] });
    const s = await openEtcdStore({ endpoints: c.endpoints, prefix: '/progress', compactionIntervalMs: 0 });
    try {
      const kv = await s.create('/registry/t/a', '1');
      const progress: number[] = [];
      const events: number[] = [];
      const w = s.watch('/registry/t/', { afterRevision: kv.modRevision, onEvent: (e) => events.push(e.kv.modRevision), onProgress: (r) => progress.push(r) });
      const deadline = Date.now() + 5000;
      while (progress.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      w.cancel();
      assert.ok(progress.length >= 2, `progress notifications: ${progress.length}`);
      assert.ok(progress.every((r) => r >= kv.modRevision));
      assert.deepEqual(events, []);
    } finally {
      await s.close();
      await c.stop();
    }
  });

  test('with etcd unreachable every call fails fast with StorageUnavailableError', async () => {
    const port = await freePort();
    const s = new (await import('./store.ts')).EtcdStore({ endpoints: [`http://127.0.0.1:${port}`], compactionIntervalMs: 0, requestTimeoutMs: 1000 });
    try {
      const t0 = Date.now();
      await assert.rejects(s.get('/registry/t/a'), (e: unknown) => e instanceof StorageUnavailableError && e.message === 'context deadline exceeded');
      await assert.rejects(s.create('/registry/t/a', 'x'), StorageUnavailableError);
      await assert.rejects(s.checkHealth(), StorageUnavailableError);
      assert.ok(Date.now() - t0 < 10_000, `took ${Date.now() - t0} ms`);
    } finally {
      await s.close();
    }
  });

  test('openEtcdStore fails when no member answers', async () => {
    const port = await freePort();
    await assert.rejects(openEtcdStore({ endpoints: [`http://127.0.0.1:${port}`], compactionIntervalMs: 0, requestTimeoutMs: 500 }), StorageUnavailableError);
  });
});

async function versionOfCompactKey(s: EtcdStore): Promise<number> {
  const r = await s.client.kv.range({ key: Buffer.from('compact_rev_key') });
  return r.kvs[0] ? Number(r.kvs[0].version) : 0;
}

describe('etcd store over TLS', { skip: missing }, () => {
  test('with --etcd-cafile, --etcd-certfile and --etcd-keyfile it serves the contract; without a client certificate or with another CA it cannot connect', async () => {
    const certs = makeTestCertificates();
    const tls = clusterTLS(certs);
    const c = await startEtcdCluster({ tls });
    try {
      assert.match(c.endpoints[0]!, /^https:\/\/127\.0\.0\.1:\d+$/);
      const s = await openEtcdStore({ endpoints: c.endpoints, tls: { ca: tls.ca, cert: tls.cert, key: tls.key }, compactionIntervalMs: 0 });
      const kv = await s.create('/registry/t/a', 'secure');
      assert.deepEqual(await s.get('/registry/t/a'), kv);
      await s.close();

      await assert.rejects(
        openEtcdStore({ endpoints: c.endpoints, tls: { ca: tls.ca }, compactionIntervalMs: 0, requestTimeoutMs: 1500 }),
        'no client certificate: etcd (--client-cert-auth) refuses the connection',
      );
      await assert.rejects(
        openEtcdStore({ endpoints: c.endpoints, tls: { ca: readFileSync(certs.otherCaFile), cert: tls.cert, key: tls.key }, compactionIntervalMs: 0, requestTimeoutMs: 1500 }),
        'a CA that did not sign the server certificate',
      );
      await assert.rejects(openEtcdStore({ endpoints: [c.endpoints[0]!.replace('https', 'http')], compactionIntervalMs: 0, requestTimeoutMs: 1500 }), 'plain HTTP to a TLS member');
    } finally {
      await c.stop();
      certs.remove();
    }
  });
});
