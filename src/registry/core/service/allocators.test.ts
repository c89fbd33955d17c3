/**
 * The allocators over a real store, driven by upstream's ipallocator and portallocator tables
 * (testdata/k8s-native/service/allocators.json): a range hands out exactly its size, distinct and
 * in range, then is full; released values come back; out-of-range and taken values are refused
 * with upstream's messages; dry runs claim nothing; concurrent claims never share a value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatIP, parseCIDR, parseIP } from '../../../apimachinery/index.ts';
import { openTempStore } from '../../testing.ts';
import { AllocationError, IPAllocator } from './ipallocator.ts';
import { NodePortAllocator, parsePortRange } from './portallocator.ts';

const doc = JSON.parse(readFileSync(new URL('../../../../testdata/k8s-native/service/allocators.json', import.meta.url), 'utf8')) as {
  ip: Array<{ name: string; cidr: string; free: number; released: string; outOfRange: string[]; alreadyAllocated: string; skipped?: Array<{ value: string; reason: string }> }>;
  port: Array<{ name: string; range: string; free: number; released: number; outOfRange: number[]; alreadyAllocated: number }>;
};
const owner = { namespace: 'default', name: 'svc' };

async function refused(p: Promise<unknown>, message: string): Promise<void> {
  await assert.rejects(p, (e: unknown) => e instanceof AllocationError && e.message === message);
}

test('ipallocator vectors', async () => {
  assert.ok(doc.ip.length >= 3);
  let skipped = 0;
  for (const c of doc.ip) {
    const t = await openTempStore();
    try {
      const cidr = parseCIDR(c.cidr)!;
      const a = new IPAllocator(t.store, cidr);
      for (const v of c.outOfRange) {
        await refused(a.allocate(parseIP(v)!, owner, false), `the provided IP (${formatIP(parseIP(v)!)}) is not in the valid range. The range of valid IPs is ${c.cidr}`);
      }
      skipped += c.skipped?.length ?? 0;
      await a.allocate(parseIP(c.alreadyAllocated)!, owner, false);
      await refused(a.allocate(parseIP(c.alreadyAllocated)!, owner, false), 'provided IP is already allocated');
      await refused(a.allocate(parseIP(c.alreadyAllocated)!, owner, true), 'provided IP is already allocated');
      const seen = new Set([formatIP(parseIP(c.alreadyAllocated)!)]);
      for (let i = 1; i < c.free; i++) {
        const ip = formatIP(await a.allocateNext(owner, false));
        assert.ok(!seen.has(ip), `${c.name}: ${ip} handed out twice`);
        seen.add(ip);
      }
      assert.equal(seen.size, c.free);
      await refused(a.allocateNext(owner, false), 'range is full');
      await a.release(parseIP(c.released)!);
      // A dry run finds the free address but leaves it free.
      assert.equal(formatIP(await a.allocateNext(owner, true)), formatIP(parseIP(c.released)!));
      assert.equal(formatIP(await a.allocateNext(owner, false)), formatIP(parseIP(c.released)!));
    } finally {
      await t.close();
    }
  }
  console.log(`ipallocator: ${doc.ip.length} ranges, ${skipped} value(s) skipped (reasons in allocators.json)`);
});

test('portallocator vectors', async () => {
  assert.ok(doc.port.length >= 2);
  for (const c of doc.port) {
    const t = await openTempStore();
    try {
      const r = parsePortRange(c.range)!;
      const a = new NodePortAllocator(t.store, r);
      const rangeText = `${r.base}-${r.base + r.size - 1}`;
      for (const p of c.outOfRange) await refused(a.allocate(p, false), `provided port is not in the valid range. The range of valid ports is ${rangeText}`);
      await a.allocate(c.alreadyAllocated, false);
      await refused(a.allocate(c.alreadyAllocated, false), 'provided port is already allocated');
      const seen = new Set([c.alreadyAllocated]);
      for (let i = 1; i < c.free; i++) {
        const p = await a.allocateNext(false);
        assert.ok(p >= r.base && p < r.base + r.size && !seen.has(p));
        seen.add(p);
      }
      await refused(a.allocateNext(false), 'range is full');
      await a.release([c.released]);
      assert.equal(await a.allocateNext(true), c.released);
      assert.equal(await a.allocateNext(false), c.released);
      await refused(a.allocateNext(false), 'range is full');
    } finally {
      await t.close();
    }
  }
});

test('concurrent claims never share an address or a port', async () => {
  const t = await openTempStore();
  try {
    const a = new IPAllocator(t.store, parseCIDR('10.0.0.0/28')!);
    const b = new IPAllocator(t.store, parseCIDR('10.0.0.0/28')!); // a second server on the same store
    const got = await Promise.all(Array.from({ length: 14 }, (_, i) => (i % 2 ? a : b).allocateNext(owner, false).then(formatIP)));
    assert.equal(new Set(got).size, 14);
    await refused(a.allocateNext(owner, false), 'range is full');
    const p1 = new NodePortAllocator(t.store, parsePortRange('30000-30019')!);
    const p2 = new NodePortAllocator(t.store, parsePortRange('30000-30019')!);
    const ports = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? p1 : p2).allocateNext(false)));
    assert.equal(new Set(ports).size, 20);
    assert.equal((await p1.snapshot()).toString(2), '1'.repeat(20));
  } finally {
    await t.close();
  }
});
