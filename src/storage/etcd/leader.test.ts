/**
 * Leader election over the etcd store, with three candidates in this process, each on its own
 * connection to one real etcd member: exactly one leads, a crashed leader (its connection gone) is
 * replaced after the lease duration without two leading at once, and a leader that stops cleanly
 * releases the Lease so that the next takes over at once.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { openEtcdStore, type EtcdStore } from './store.ts';
import { leaseKey, runLeaderElection, type LeaderElector } from '../leader.ts';
import { etcdMissing, startEtcdCluster, type EtcdCluster } from './process.ts';

const missing = etcdMissing();
let cluster: EtcdCluster | undefined;
after(async () => cluster?.stop());

const timing = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 };

test('one leader at a time; a crashed leader is replaced after the lease duration; a stopped one hands over at once', { skip: missing }, async () => {
  cluster = await startEtcdCluster();
  const stores: EtcdStore[] = [];
  for (let i = 0; i < 3; i++) stores.push(await openEtcdStore({ endpoints: cluster.endpoints, prefix: '/leader', compactionIntervalMs: 0, requestTimeoutMs: 500 }));
  const leading = new Set<string>();
  const log: string[] = [];
  let overlap = false;
  const electors = new Map<string, LeaderElector>();
  const names = ['a', 'b', 'c'];
  names.forEach((id, i) => {
    electors.set(
      id,
      runLeaderElection({
        store: stores[i]!,
        name: 'crd-apiserver-controllers',
        identity: id,
        ...timing,
        onStartedLeading: () => {
          if (leading.size > 0) overlap = true;
          leading.add(id);
          log.push(`${Date.now()} start ${id}`);
        },
        onStoppedLeading: () => {
          leading.delete(id);
          log.push(`${Date.now()} stop ${id}`);
        },
      }),
    );
  });
  const until = async (what: string, cond: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${log.join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    await until('a leader', () => leading.size === 1, 5000);
    const first = [...leading][0]!;
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual([...leading], [first], 'the leader keeps the lease while it renews');
    for (const id of names) assert.equal(electors.get(id)!.leader(), first);

    const stored = JSON.parse((await stores[0]!.get(leaseKey('kube-system', 'crd-apiserver-controllers')))!.value);
    assert.equal(stored.apiVersion, 'coordination.k8s.io/v1');
    assert.equal(stored.kind, 'Lease');
    assert.deepEqual(stored.metadata, { name: 'crd-apiserver-controllers', namespace: 'kube-system' });
    assert.equal(stored.spec.holderIdentity, first);
    assert.equal(stored.spec.leaseDurationSeconds, 2);
    assert.match(stored.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    // Crash: the leader's connection goes away, so it can neither renew nor release.
    const crashedAt = Date.now();
    await stores[names.indexOf(first)]!.close();
    await until('the crashed leader to stop leading', () => !leading.has(first), 3000);
    await until('a new leader', () => leading.size === 1, 5000);
    const second = [...leading][0]!;
    assert.notEqual(second, first);
    assert.ok(Date.now() - crashedAt >= 1000, 'not before the old lease could have expired');
    assert.equal(overlap, false, `two leaders at once: ${log.join(', ')}`);

    // Clean stop: the Lease is released and the last candidate takes over well within a lease duration.
    const stoppedAt = Date.now();
    await electors.get(second)!.stop();
    const third = names.find((n) => n !== first && n !== second)!;
    await until('the last candidate to lead', () => leading.has(third), 3000);
    assert.ok(Date.now() - stoppedAt < timing.leaseDurationMs, `took over after ${Date.now() - stoppedAt} ms`);
    const record = JSON.parse((await stores[names.indexOf(third)]!.get(leaseKey('kube-system', 'crd-apiserver-controllers')))!.value);
    assert.equal(record.spec.holderIdentity, third);
    assert.equal(record.spec.leaseTransitions, 2);
    assert.equal(overlap, false, `two leaders at once: ${log.join(', ')}`);
  } finally {
    for (const e of electors.values()) await e.stop();
    for (const s of stores) await s.close();
  }
});
