/**
 * Leader election by real clients against a real server process.
 *
 * - The Python client's `kubernetes.leaderelection` (ConfigMapLock: the record in the
 *   `control-plane.alpha.kubernetes.io/leader` annotation, replaced with the read
 *   resourceVersion): two electors in two processes, one leader, and hand-over to the other once
 *   the leader's process is gone and its lease has run out. Skipped without python3-kubernetes.
 * - A coordination.k8s.io/v1 Lease election as client-go's `leaderelection` runs it
 *   (tryAcquireOrRenew: create, or take an expired lease with leaseTransitions + 1, renewTime as
 *   a MicroTime, replace under the read resourceVersion), driven from `@kubernetes/client-node`
 *   (which has no elector): MicroTimes written by the client come back with microseconds, the
 *   loser of two writes on one resourceVersion gets 409 Conflict, and the lease passes to the
 *   other elector when the leader stops renewing.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { CoordinationV1Api, CoreV1Api, KubeConfig, type V1Lease } from '@kubernetes/client-node';
import { startServer, type ServerProcess } from './harness.ts';

const python = ['python3', '/usr/bin/python3'].find(
  (exe) => spawnSync(exe, ['-c', 'import kubernetes.leaderelection'], { encoding: 'utf8' }).status === 0,
);
const skipPython = python ? false : 'install python3-kubernetes';

let s: ServerProcess;
let kc: KubeConfig;
before(async () => {
  s = await startServer();
  kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
});
after(async () => {
  await s.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => Promise<T | undefined> | T | undefined, ms = 20000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const electorScript = String.raw`
import sys, time, uuid
from kubernetes import config
from kubernetes.leaderelection import leaderelection, electionconfig
from kubernetes.leaderelection.resourcelock.configmaplock import ConfigMapLock
config.load_kube_config(config_file=sys.argv[1])
identity = sys.argv[2]
def leading():
    print('LEADING ' + identity, flush=True)
def stopped():
    print('STOPPED ' + identity, flush=True)
lock = ConfigMapLock('py-election', 'default', identity)
# lease 3 s, renew deadline 2 s, retry every second: the library's smallest allowed periods.
leaderelection.LeaderElection(electionconfig.Config(lock, 3, 2, 1, leading, stopped)).run()
`;

interface Elector {
  proc: ChildProcess;
  out: () => string;
}

function startElector(identity: string): Elector {
  const proc = spawn(python!, ['-c', electorScript, s.kubeconfig, identity], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return { proc, out: () => out };
}

test('Python ConfigMapLock: one leader of two processes, hand-over when it stops', { skip: skipPython }, async () => {
  const core = kc.makeApiClient(CoreV1Api);
  const a = startElector('elector-a');
  const b = startElector('elector-b');
  try {
    const leader = await until('a leader', () => (a.out().includes('LEADING') ? a : b.out().includes('LEADING') ? b : undefined));
    const follower = leader === a ? b : a;
    const leaderId = leader === a ? 'elector-a' : 'elector-b';
    const record = async () => {
      const cm = await core.readNamespacedConfigMap({ name: 'py-election', namespace: 'default' });
      return JSON.parse(cm.metadata?.annotations?.['control-plane.alpha.kubernetes.io/leader'] ?? '{}') as { holderIdentity?: string; renewTime?: string };
    };
    assert.equal((await record()).holderIdentity, leaderId);
    // The leader keeps renewing; the follower stays a follower through more than a lease.
    const renewed = (await record()).renewTime;
    await sleep(4000);
    assert.ok(!follower.out().includes('LEADING'), `two leaders:\n${a.out()}\n${b.out()}`);
    const r = await record();
    assert.equal(r.holderIdentity, leaderId);
    assert.notEqual(r.renewTime, renewed, 'the leader renews its lease');
    // The leader's failed replaces (409 for the follower's tries) never reached the record.
    assert.match(follower.out(), /yet to finish lease_duration, lease held by elector-/);

    leader.proc.kill('SIGKILL');
    await until('the follower to lead', () => (follower.out().includes('LEADING') ? true : undefined));
    assert.equal((await record()).holderIdentity, leader === a ? 'elector-b' : 'elector-a');
  } finally {
    a.proc.kill('SIGKILL');
    b.proc.kill('SIGKILL');
  }
});

/** metav1.MicroTime as client-go writes it (a Date's toISOString has three digits, which a cluster refuses). */
const microTime = (d: Date): Date => d.toISOString().replace(/Z$/, '000Z') as unknown as Date;

/** A Lease elector in the manner of client-go's LeaderElector.tryAcquireOrRenew. */
class LeaseElector {
  private readonly api: CoordinationV1Api;
  conflicts = 0;
  constructor(
    readonly identity: string,
    private readonly name: string,
    private readonly leaseSeconds: number,
  ) {
    const own = new KubeConfig();
    own.loadFromFile(s.kubeconfig);
    this.api = own.makeApiClient(CoordinationV1Api);
  }

  /** One try: true when this elector holds the lease afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = new Date();
    const stamp = microTime(now);
    let cur: V1Lease;
    try {
      cur = await this.api.readNamespacedLease({ name: this.name, namespace: 'default' });
    } catch (e) {
      if ((e as { code?: number }).code !== 404) throw e;
      try {
        await this.api.createNamespacedLease({
          namespace: 'default',
          body: {
            metadata: { name: this.name },
            spec: { holderIdentity: this.identity, leaseDurationSeconds: this.leaseSeconds, acquireTime: stamp, renewTime: stamp, leaseTransitions: 0 },
          },
        });
        return true;
      } catch (e2) {
        if ((e2 as { code?: number }).code === 409) return false;
        throw e2;
      }
    }
    const spec = cur.spec ?? {};
    const held = spec.holderIdentity && spec.holderIdentity !== this.identity;
    const renewed = spec.renewTime ? new Date(spec.renewTime).getTime() : 0;
    if (held && renewed + (spec.leaseDurationSeconds ?? 0) * 1000 > now.getTime()) return false;
    const next: V1Lease = {
      ...cur,
      spec: {
        ...spec,
        holderIdentity: this.identity,
        leaseDurationSeconds: this.leaseSeconds,
        renewTime: stamp,
        ...(spec.holderIdentity !== this.identity ? { acquireTime: stamp, leaseTransitions: (spec.leaseTransitions ?? 0) + 1 } : {}),
      },
    };
    try {
      await this.api.replaceNamespacedLease({ name: this.name, namespace: 'default', body: next });
      return true;
    } catch (e) {
      if ((e as { code?: number }).code === 409) {
        this.conflicts++;
        return false;
      }
      throw e;
    }
  }
}

test('Lease election from client-node: MicroTimes, 409 for the loser, hand-over', async () => {
  const coord = kc.makeApiClient(CoordinationV1Api);
  // client-node sends a Date as JSON does, with milliseconds: refused as kube-apiserver refuses it.
  const now = new Date();
  await assert.rejects(
    coord.createNamespacedLease({ namespace: 'default', body: { metadata: { name: 'node-election' }, spec: { holderIdentity: 'a', renewTime: now } } }),
    (e: { code?: number; body?: string }) => {
      assert.equal(e.code, 400);
      const st = JSON.parse(String(e.body)) as { reason: string; message: string };
      assert.equal(st.reason, 'BadRequest');
      const text = now.toISOString();
      assert.equal(
        st.message,
        `Lease in version "v1" cannot be handled as a Lease: parsing time "${text}" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "${text.slice(19)}" as ".000000"`,
      );
      return true;
    },
  );
  const a = new LeaseElector('a', 'node-election', 2);
  const b = new LeaseElector('b', 'node-election', 2);
  assert.equal(await a.tryAcquireOrRenew(), true);
  assert.equal(await b.tryAcquireOrRenew(), false);

  // What a cluster stores: MicroTimes with six fractional digits, the spec as sent.
  const raw = await s.fetch(`${s.url}/apis/coordination.k8s.io/v1/namespaces/default/leases/node-election`).then((r) => r.json() as Promise<{ spec: Record<string, unknown>; metadata: { resourceVersion: string } }>);
  assert.equal(raw.spec.holderIdentity, 'a');
  assert.equal(raw.spec.leaseDurationSeconds, 2);
  assert.equal(raw.spec.leaseTransitions, 0);
  assert.match(String(raw.spec.acquireTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.match(String(raw.spec.renewTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

  // Two writers on one resourceVersion: one wins, the other is refused as client-go expects.
  const read = await coord.readNamespacedLease({ name: 'node-election', namespace: 'default' });
  const attempt = (who: string) =>
    s.fetch(`${s.url}/apis/coordination.k8s.io/v1/namespaces/default/leases/node-election`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...raw, spec: { ...raw.spec, holderIdentity: who, renewTime: microTime(new Date()) } }),
    });
  const [r1, r2] = await Promise.all([attempt('x'), attempt('y')]);
  const codes = [r1.status, r2.status].sort();
  assert.deepEqual(codes, [200, 409]);
  const loser = r1.status === 409 ? r1 : r2;
  const status = (await loser.json()) as { reason: string; message: string; details: Record<string, unknown> };
  assert.equal(status.reason, 'Conflict');
  assert.equal(
    status.message,
    'Operation cannot be fulfilled on leases.coordination.k8s.io "node-election": the object has been modified; please apply your changes to the latest version and try again',
  );
  assert.deepEqual(status.details, { name: 'node-election', group: 'coordination.k8s.io', kind: 'leases' });

  // Hand the lease back to a, then let it lapse: b takes it with a transition counted.
  await coord.deleteNamespacedLease({ name: 'node-election', namespace: 'default' });
  assert.equal(await a.tryAcquireOrRenew(), true);
  assert.equal(await a.tryAcquireOrRenew(), true, 'the holder renews');
  assert.equal(await b.tryAcquireOrRenew(), false, 'a live lease is not taken');
  await sleep(2300);
  assert.equal(await b.tryAcquireOrRenew(), true, 'an expired lease is taken');
  const taken = await coord.readNamespacedLease({ name: 'node-election', namespace: 'default' });
  assert.equal(taken.spec?.holderIdentity, 'b');
  assert.equal(taken.spec?.leaseTransitions, 1);
  assert.ok(Date.parse(String(taken.spec!.acquireTime)) > Date.parse(String(read.spec!.acquireTime)));
  assert.equal(await a.tryAcquireOrRenew(), false, 'the old holder is now a follower');
});
