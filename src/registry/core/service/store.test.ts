/**
 * The Service store over a real SQLite store: what a write allocates is stored with it and given
 * back when the write fails (validation after allocation), on delete and on dry runs never
 * claimed; a second store over the same data (a restart, or another server) continues without
 * handing out what is held, and its repair re-claims addresses of Services whose IPAddress is
 * gone and rebuilds the node port bitmap from the stored Services.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatIP, isStatusError } from '../../../apimachinery/index.ts';
import { openTempStore, type TempStore } from '../../testing.ts';
import type { Obj } from '../../rest.ts';
import { serviceKind } from './definition.ts';
import type { ServiceStore } from './store.ts';

const svc = (name: string, spec: Record<string, unknown>): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec });
const storeOver = (t: TempStore, nodePortRange = '30000-30009') =>
  serviceKind({ store: t.store, serviceNetwork: { clusterIPRange: '10.0.0.0/29', nodePortRange } }).store as ServiceStore;
const ipKeys = async (t: TempStore) => (await t.store.range('/registry/networking.k8s.io/ipaddresses/')).items.map((kv) => kv.key.split('/').pop()).sort();

async function invalid(p: Promise<unknown>): Promise<string[]> {
  try {
    await p;
  } catch (e) {
    if (isStatusError(e)) return (e.status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
    throw e;
  }
  assert.fail('expected a refusal');
}

test('a failed write gives back what it allocated; a dry run claims nothing; delete releases', async () => {
  const t = await openTempStore();
  try {
    const s = storeOver(t);
    // Allocation happens, then validation refuses the type: the address and the port go back.
    const causes = await invalid(s.create('default', svc('bad', { type: 'NodePort', ports: [{ port: 80 }], externalIPs: ['127.0.0.1'] }), {}));
    assert.deepEqual(causes, ['spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']);
    assert.deepEqual(await ipKeys(t), []);
    assert.equal(await s.allocators.nodePorts.snapshot(), 0n);
    const dry = await s.create('default', svc('dry', { type: 'NodePort', ports: [{ port: 80 }] }), { dryRun: true });
    assert.match(String((dry.object.spec as Record<string, unknown>).clusterIP), /^10\.0\.0\.[1-6]$/);
    assert.deepEqual(await ipKeys(t), []);
    const made = await s.create('default', svc('a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30003 }] }), {});
    const ip = (made.object.spec as Record<string, unknown>).clusterIP as string;
    assert.deepEqual(await ipKeys(t), [ip]);
    assert.equal(await s.allocators.nodePorts.snapshot(), 1n << 3n);
    await s.delete('default', 'a', {});
    assert.deepEqual(await ipKeys(t), []);
    assert.equal(await s.allocators.nodePorts.snapshot(), 0n);
  } finally {
    await t.close();
  }
});

test('after a restart nothing held is handed out again; the repair re-claims and rebuilds from the stored Services', async () => {
  const t = await openTempStore();
  try {
    const first = storeOver(t);
    const held = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const r = await first.create('default', svc(`s${i}`, { type: 'NodePort', ports: [{ port: 80 }] }), {});
      held.add((r.object.spec as Record<string, unknown>).clusterIP as string);
    }
    // Lose one IPAddress and the bitmap, as a crash or an older server would leave them.
    await t.store.delete(`/registry/networking.k8s.io/ipaddresses/${[...held][0]}`, (await t.store.get(`/registry/networking.k8s.io/ipaddresses/${[...held][0]}`))!.modRevision);
    await t.store.delete('/registry/ranges/servicenodeports', (await t.store.get('/registry/ranges/servicenodeports'))!.modRevision);
    const second = storeOver(t);
    const fresh: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await second.create('default', svc(`t${i}`, { ports: [{ port: 80 }] }), {});
      fresh.push((r.object.spec as Record<string, unknown>).clusterIP as string);
    }
    for (const ip of fresh) assert.ok(!held.has(ip), `${ip} handed out twice`);
    assert.equal((await ipKeys(t)).length, 6);
    const ports = (await second.list('default', {})).items.flatMap((o) => ((o.spec as { ports: Array<{ nodePort?: number }> }).ports ?? []).map((p) => p.nodePort ?? 0)).filter((p) => p);
    const bits = await second.allocators.nodePorts.snapshot();
    assert.deepEqual(
      ports.map((p) => (bits >> BigInt(p - 30000)) & 1n),
      [1n, 1n, 1n],
    );
    // The range (10.0.0.1-10.0.0.6) is now full.
    const causes = await second.create('default', svc('full', { ports: [{ port: 80 }] }), {}).then(
      () => 'created',
      (e: unknown) => (isStatusError(e) ? e.status.message : String(e)),
    );
    assert.equal(causes, 'Internal error occurred: failed to allocate a serviceIP: range is full');
    assert.equal(formatIP(second.allocators.primary.firstAddress()), '10.0.0.1');
  } finally {
    await t.close();
  }
});

test('updates: a type change allocates and releases; omitted clusterIPs and nodePorts are kept', async () => {
  const t = await openTempStore();
  try {
    const s = storeOver(t);
    await s.create('default', svc('u', { ports: [{ name: 'a', port: 80 }] }), {});
    const toNodePort = await s.update('default', 'u', (cur) => ({ ...cur!, spec: { ...(cur!.spec as Obj), type: 'NodePort' } }), {});
    const np = ((toNodePort.object.spec as { ports: Array<{ nodePort: number }> }).ports[0]!).nodePort;
    assert.ok(np >= 30000 && np <= 30009);
    // A PUT that leaves out clusterIP and nodePort keeps both.
    const put = await s.update('default', 'u', (cur) => ({ ...cur!, spec: { type: 'NodePort', ports: [{ name: 'a', port: 80 }] } }), {});
    const spec = put.object.spec as { clusterIP: string; ports: Array<{ nodePort: number }> };
    assert.equal(spec.ports[0]!.nodePort, np);
    assert.equal(spec.clusterIP, (toNodePort.object.spec as { clusterIP: string }).clusterIP);
    const toName = await s.update('default', 'u', (cur) => ({ ...cur!, spec: { ...(cur!.spec as Obj), type: 'ExternalName', externalName: 'example.com' } }), {});
    const en = toName.object.spec as Record<string, unknown>;
    assert.equal(en.clusterIP, undefined);
    assert.equal(en.ipFamilies, undefined);
    assert.deepEqual(await ipKeys(t), []);
    assert.equal(await s.allocators.nodePorts.snapshot(), 0n);
    const errs = await invalid(s.update('default', 'u', (cur) => ({ ...cur!, spec: { ...(cur!.spec as Obj), type: 'ClusterIP', clusterIP: '10.9.9.9' } }), {}));
    assert.deepEqual(errs, ['spec.clusterIPs: Invalid value: ["10.9.9.9"]: failed to allocate IP 10.9.9.9: the provided IP (10.9.9.9) is not in the valid range. The range of valid IPs is 10.0.0.0/29']);
  } finally {
    await t.close();
  }
});
