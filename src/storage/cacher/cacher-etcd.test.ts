/**
 * The watch cache over a real etcd member: the Store contract suite with every prefix cached,
 * where the cache learns it is fresh only from etcd's watch (no in-process progress), and a
 * second cacher on the same etcd following writes made through the first (replicas).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runStoreContract } from '../contract.ts';
import { openEtcdStore } from '../etcd/store.ts';
import { etcdMissing, startEtcdCluster, type EtcdCluster } from '../etcd/process.ts';
import { openCacher } from './cacher.ts';

const missing = etcdMissing();
let cluster: Promise<EtcdCluster> | undefined;
const etcd = () => (cluster ??= startEtcdCluster());
after(async () => {
  if (cluster) await (await cluster).stop();
});
let n = 0;

function firstSegment(prefix: string): string | undefined {
  const m = /^\/registry\/[^/]+\//.exec(prefix);
  return m ? m[0] : undefined;
}

async function open(prefix: string, opts: { historyRevisions?: number } = {}) {
  const c = await etcd();
  const raw = await openEtcdStore({ endpoints: c.endpoints, prefix, compactionIntervalMs: 0 });
  return openCacher(raw, { resourceOf: firstSegment, ...opts });
}

if (missing) {
  test('Store contract: watch cache over etcd', { skip: missing }, () => {});
} else {
  runStoreContract('watch cache over etcd', async () => {
    // At the current revision: the suite compacts the one etcd its cases share at "now", which
    // would cancel a store watch still replaying the history of the cases before (a server's
    // compactor compacts at a revision one interval old).
    const store = await open(`/cacher-contract-${++n}`, { historyRevisions: 0 });
    return { store, cleanup: () => store.close() };
  });
}

describe('watch cache over etcd', { skip: missing }, () => {
  test('two caches on one etcd: a write through one is in the other’s next consistent read', async () => {
    const prefix = `/cacher-replicas-${++n}`;
    const [a, b] = await Promise.all([open(prefix), open(prefix)]);
    try {
      assert.deepEqual((await b.range('/registry/w/')).items, []);
      for (let i = 0; i < 5; i++) {
        const kv = await a.create(`/registry/w/k${i}`, `v${i}`);
        const res = await b.range('/registry/w/');
        assert.equal(res.items.length, i + 1);
        assert.ok(res.revision >= kv.modRevision);
        assert.ok(Object.isFrozen(res.items[i]), 'served from the cache');
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
