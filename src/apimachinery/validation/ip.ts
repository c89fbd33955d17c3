/**
 * IP addresses and CIDRs as Kubernetes reads them: k8s.io/utils/net's ParseIPSloppy and
 * ParseCIDRSloppy (Go's net parsers before 1.17, which allowed leading zeros in IPv4 octets),
 * the textual forms Go's net.IP.String() writes, and apimachinery's IsValidIP / IsValidCIDR with
 * their messages. An address is kept as a 128-bit bigint with its family, so that ranges are
 * plain arithmetic.
 */
import { invalid, type FieldError } from '../field/errors.ts';
import { goQuote } from '../field/govalue.ts';
import type { Path } from '../field/path.ts';

export type IPFamily = 'IPv4' | 'IPv6';

/** A parsed address: `value` is the 32-bit (IPv4, also for IPv4-mapped IPv6) or 128-bit number. */
export interface IP {
  family: IPFamily;
  value: bigint;
}

function parseIPv4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseIPv6(s: string): bigint | undefined {
  let head = s;
  let tail = '';
  const dbl = s.indexOf('::');
  if (dbl >= 0) {
    head = s.slice(0, dbl);
    tail = s.slice(dbl + 2);
    if (tail.includes('::')) return undefined;
  }
  const groups = (part: string): bigint[] | undefined => {
    if (part === '') return [];
    const out: bigint[] = [];
    const fields = part.split(':');
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      if (i === fields.length - 1 && f.includes('.')) {
        const v4 = parseIPv4(f);
        if (v4 === undefined) return undefined;
        out.push(v4 >> 16n, v4 & 0xffffn);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(f)) return undefined;
      out.push(BigInt(parseInt(f, 16)));
    }
    return out;
  };
  const h = groups(head);
  const t = groups(tail);
  if (!h || !t) return undefined;
  if (head.includes('.') && dbl >= 0) return undefined; // an embedded IPv4 address ends the address
  const n = h.length + t.length;
  if (dbl < 0 ? n !== 8 : n > 7) return undefined;
  const all = [...h, ...Array<bigint>(8 - n).fill(0n), ...t];
  return all.reduce((acc, g) => (acc << 16n) | g, 0n);
}

const v4MappedPrefix = 0xffffn << 32n;

/** ParseIPSloppy: undefined when `s` is not an address. IPv4-mapped IPv6 addresses are IPv4, as Go's To4 says. */
export function parseIP(s: string): IP | undefined {
  if (s.includes(':')) {
    const v = parseIPv6(s);
    if (v === undefined) return undefined;
    if (v >> 32n === 0xffffn) return { family: 'IPv4', value: v - v4MappedPrefix };
    return { family: 'IPv6', value: v };
  }
  const v = parseIPv4(s);
  return v === undefined ? undefined : { family: 'IPv4', value: v };
}

/** net.IP.String(): dotted IPv4, RFC 5952 IPv6 (the longest run of two or more zero groups as `::`). */
export function formatIP(ip: IP): string {
  if (ip.family === 'IPv4') {
    const v = ip.value;
    return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
  }
  const g: number[] = [];
  for (let i = 7; i >= 0; i--) g.push(Number((ip.value >> BigInt(i * 16)) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(':');
  if (best < 0) return hex(g);
  return `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}

/** A parsed CIDR: its network address (host bits cleared), prefix length and the family's bit width. */
export interface CIDR {
  family: IPFamily;
  /** The network address. */
  base: bigint;
  prefix: number;
  bits: number;
}

/** ParseCIDRSloppy: undefined when `s` is not `address/prefix`. */
export function parseCIDR(s: string): CIDR | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const len = s.slice(slash + 1);
  // Go's dtoi: any run of digits (`/0032` is 32).
  if (!/^[0-9]+$/.test(len)) return undefined;
  const ip = addr.includes(':') ? parseIPv6(addr) : parseIPv4(addr);
  if (ip === undefined) return undefined;
  const bits = addr.includes(':') ? 128 : 32;
  const prefix = Number(len);
  if (prefix > bits) return undefined;
  const family: IPFamily = bits === 32 ? 'IPv4' : 'IPv6';
  const hostBits = BigInt(bits - prefix);
  const base = (ip >> hostBits) << hostBits;
  return { family, base, prefix, bits };
}

/** The CIDR as net.IPNet.String() writes it. */
export function formatCIDR(c: CIDR): string {
  return `${formatIP({ family: c.family, value: c.base })}/${c.prefix}`;
}

/** How many addresses the CIDR holds. */
export function cidrSize(c: CIDR): bigint {
  return 1n << BigInt(c.bits - c.prefix);
}

/** True when the CIDR holds the address. */
export function cidrContains(c: CIDR, ip: IP): boolean {
  if (ip.family !== c.family) return false;
  const hostBits = BigInt(c.bits - c.prefix);
  return ip.value >> hostBits === c.base >> hostBits;
}

/** netutils.IsIPv6String: an address that is not IPv4 (nor IPv4-mapped). */
export function isIPv6String(s: string): boolean {
  return parseIP(s)?.family === 'IPv6';
}

/** IsValidIP */
export function isValidIP(fldPath: Path, value: string): FieldError[] {
  if (parseIP(value) !== undefined) return [];
  return [{ ...invalid(fldPath, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'), origin: 'format=ip-sloppy' }];
}

/** IsValidCIDR */
export function isValidCIDR(fldPath: Path, value: string): FieldError[] {
  if (parseCIDR(value) !== undefined) return [];
  return [invalid(fldPath, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
}

/**
 * IsValidInterfaceAddress: ParseCIDRSloppy must accept it (else the CIDR-form message), and it
 * must be written as Go writes the address and its prefix (an IPv4-mapped address as IPv4, its
 * prefix less the 96 bits of the mapping).
 */
export function isValidInterfaceAddress(p: Path, value: string): FieldError[] {
  const cidr = parseCIDR(value);
  const slash = value.indexOf('/');
  const ip = cidr === undefined ? undefined : parseIP(value.slice(0, slash));
  if (cidr === undefined || ip === undefined) return [invalid(p, value, 'must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)')];
  let prefix = cidr.prefix;
  if (ip.family === 'IPv4' && prefix > 32) prefix -= 96;
  const canonical = `${formatIP(ip)}/${prefix}`;
  return value === canonical ? [] : [invalid(p, value, `must be in canonical form (${goQuote(canonical)})`)];
}
