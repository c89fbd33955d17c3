/**
 * The Go net/netip port against Go's own tables (testdata/cel-kubernetes/go_netip.json): ParseAddr
 * and String round trips, rejected inputs, the classification predicates, prefix masking and
 * Contains; plus ParsePrefix's error messages as Kubernetes' cidr tests show them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as netip from './netip.ts';

const data = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../testdata/cel-kubernetes/go_netip.json', import.meta.url)), 'utf8'));

const addr = (s: string): netip.Addr => {
  const a = netip.parseAddr(s);
  assert.ok(typeof a !== 'string', `${s}: ${a}`);
  return a;
};
const prefix = (s: string): netip.Prefix => {
  const p = netip.parsePrefix(s);
  assert.ok(typeof p !== 'string', `${s}: ${p}`);
  return p;
};

test('ParseAddr / String (Go TestParseAddr)', () => {
  for (const c of data.valid as { in: string; str: string }[]) {
    const a = addr(c.in);
    assert.equal(netip.addrString(a), c.str, c.in);
    assert.deepEqual(addr(netip.addrString(a)), a, `${c.in}: String() parses back to the same address`);
  }
  for (const s of data.invalid as string[]) assert.equal(typeof netip.parseAddr(s), 'string', `${JSON.stringify(s)} parsed`);
  console.log(`netip ParseAddr: ${data.valid.length} valid, ${data.invalid.length} invalid`);
});

// The first two and the bad-bits message are the ones Kubernetes' ip/cidr tables quote; the others
// follow the wording of Go's netip source (Go 1.22 and later).
test('ParseAddr and ParsePrefix error messages', () => {
  assert.equal(netip.parseAddr('192.168.0.1.0'), 'ParseAddr("192.168.0.1.0"): IPv4 address too long');
  assert.equal(netip.parseAddr('2001:db8:::68'), 'ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")');
  assert.equal(netip.parseAddr(''), 'ParseAddr(""): unable to parse IP');
  assert.equal(netip.parseAddr('1.2.3'), 'ParseAddr("1.2.3"): IPv4 address too short');
  assert.equal(netip.parseAddr('1.2.3.256'), 'ParseAddr("1.2.3.256"): IPv4 field has value >255');
  assert.equal(netip.parseAddr('fe80::1%'), 'ParseAddr("fe80::1%"): zone must be a non-empty string');
  assert.equal(netip.parseAddr('1:2:3:4::5:6:7:8'), 'ParseAddr("1:2:3:4::5:6:7:8"): the :: must expand to at least one field of zeros');
  assert.equal(netip.parsePrefix('192.168.0.0/'), 'netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""');
  assert.equal(netip.parsePrefix('192.168.0.0/33'), 'netip.ParsePrefix("192.168.0.0/33"): prefix length out of range');
  assert.equal(netip.parsePrefix('192.168.0.0/024'), 'netip.ParsePrefix("192.168.0.0/024"): bad bits after slash: "024"');
  assert.equal(netip.parsePrefix('192.168.0.0'), `netip.ParsePrefix("192.168.0.0"): no '/'`);
  assert.equal(netip.parsePrefix('fe80::1%eth0/64'), 'netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix');
});

test('classification (Go TestIPProperties)', () => {
  for (const c of data.properties as Record<string, string | boolean>[]) {
    const a = addr(c.ip as string);
    assert.equal(netip.isGlobalUnicast(a), c.globalUnicast, `${c.ip} globalUnicast`);
    assert.equal(netip.isLinkLocalMulticast(a), c.linkLocalMulticast, `${c.ip} linkLocalMulticast`);
    assert.equal(netip.isLinkLocalUnicast(a), c.linkLocalUnicast, `${c.ip} linkLocalUnicast`);
    assert.equal(netip.isLoopback(a), c.loopback, `${c.ip} loopback`);
    assert.equal(netip.isMulticast(a), c.multicast, `${c.ip} multicast`);
    assert.equal(netip.isUnspecified(a), c.unspecified, `${c.ip} unspecified`);
  }
});

test('prefixes: Masked and Contains (Go TestPrefixMasked, TestPrefixMasking, TestPrefix)', () => {
  for (const [p, m] of data.masked as [string, string][]) assert.equal(netip.prefixString(netip.masked(prefix(p))), m, p);
  for (const c of data.prefix as { prefix: string; contains: string[]; notContains: string[] }[]) {
    const p = prefix(c.prefix);
    for (const s of c.contains) assert.ok(netip.prefixContains(p, addr(s)), `${c.prefix} contains ${s}`);
    for (const s of c.notContains) assert.ok(!netip.prefixContains(p, addr(s)), `${c.prefix} does not contain ${s}`);
  }
  assert.ok(netip.prefixOverlaps(prefix('10.0.0.0/8'), prefix('10.1.0.0/16')));
  assert.ok(!netip.prefixOverlaps(prefix('10.0.0.0/16'), prefix('10.1.0.0/16')));
  assert.ok(!netip.prefixOverlaps(prefix('0.0.0.0/0'), prefix('::/0')), 'families never overlap');
});
