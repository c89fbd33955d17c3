/**
 * A port of the parts of Go's net/netip the ip and cidr libraries use: ParseAddr and ParsePrefix
 * with Go's error messages, Addr.String (RFC 5952 form), the address classification predicates,
 * and Prefix Contains / Overlaps / Masked. An address is its bits as a bigint (32 or 128 wide).
 */

/** An IP address: 32-bit (IPv4) or 128-bit (IPv6) value, with an optional IPv6 zone. */
export interface Addr {
  bits: 32 | 128;
  v: bigint;
  zone: string;
}

/** A prefix: an address (not necessarily masked) and a prefix length. */
export interface Prefix {
  addr: Addr;
  bits: number;
}

/** strconv.Quote for the ASCII text these messages quote. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

class AddrError {
  constructor(
    readonly input: string,
    readonly msg: string,
    readonly at = '',
  ) {}
  toString(): string {
    return `ParseAddr(${goQuote(this.input)}): ${this.msg}${this.at ? ` (at ${goQuote(this.at)})` : ''}`;
  }
}

/** netip.ParseAddr: the address, or Go's error message. */
export function parseAddr(s: string): Addr | string {
  for (let i = 0; i < s.length; i++) {
    switch (s[i]) {
      case '.': {
        const r = parseIPv4(s);
        return r instanceof AddrError ? r.toString() : r;
      }
      case ':': {
        const r = parseIPv6(s);
        return r instanceof AddrError ? r.toString() : r;
      }
      case '%':
        return new AddrError(s, 'missing IPv6 address').toString();
    }
  }
  return new AddrError(s, 'unable to parse IP').toString();
}

function parseIPv4Fields(input: string, off: number, end: number): number[] | AddrError {
  const s = input.slice(off, end);
  const fields: number[] = [];
  let val = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digLen === 1 && val === 0) return new AddrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c.charCodeAt(0) - 48);
      digLen++;
      if (val > 255) return new AddrError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') return new AddrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (fields.length === 3) return new AddrError(input, 'IPv4 address too long');
      fields.push(val);
      val = 0;
      digLen = 0;
    } else return new AddrError(input, 'unexpected character', s.slice(i));
  }
  if (fields.length < 3) return new AddrError(input, 'IPv4 address too short');
  fields.push(val);
  return fields;
}

function parseIPv4(s: string): Addr | AddrError {
  const f = parseIPv4Fields(s, 0, s.length);
  if (f instanceof AddrError) return f;
  return { bits: 32, v: BigInt(((f[0]! << 24) >>> 0) + (f[1]! << 16) + (f[2]! << 8) + f[3]!), zone: '' };
}

function parseIPv6(input: string): Addr | AddrError {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct !== -1) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') return new AddrError(input, 'zone must be a non-empty string');
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { bits: 128, v: 0n, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const c = s[off]!;
      let d: number;
      if (c >= '0' && c <= '9') d = c.charCodeAt(0) - 48;
      else if (c >= 'a' && c <= 'f') d = c.charCodeAt(0) - 87;
      else if (c >= 'A' && c <= 'F') d = c.charCodeAt(0) - 55;
      else break;
      acc = acc * 16 + d;
      if (off > 3) return new AddrError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) return new AddrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) return new AddrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return new AddrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) return new AddrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      let end = input.length;
      if (zone.length > 0) end -= zone.length + 1;
      const f = parseIPv4Fields(input, end - s.length, end);
      if (f instanceof AddrError) return f;
      ip.set(f, i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') return new AddrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) return new AddrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return new AddrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return new AddrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) return new AddrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) return new AddrError(input, 'the :: must expand to at least one field of zeros');
  let v = 0n;
  for (const b of ip) v = (v << 8n) | BigInt(b);
  return { bits: 128, v, zone };
}

/** netip.ParsePrefix: the prefix, or Go's error message. */
export function parsePrefix(s: string): Prefix | string {
  const fail = (msg: string) => `netip.ParsePrefix(${goQuote(s)}): ${msg}`;
  const i = s.lastIndexOf('/');
  if (i < 0) return fail("no '/'");
  const addr = parseAddr(s.slice(0, i));
  if (typeof addr === 'string') return fail(addr);
  if (addr.bits === 128 && addr.zone !== '') return fail('IPv6 zones cannot be present in a prefix');
  const bitsStr = s.slice(i + 1);
  const bad = fail('bad bits after slash: ' + goQuote(bitsStr));
  if (bitsStr.length > 1 && (bitsStr[0]! < '1' || bitsStr[0]! > '9')) return bad;
  if (!/^[+-]?[0-9]+$/.test(bitsStr)) return bad;
  const n = BigInt(bitsStr);
  if (n < -(2n ** 63n) || n >= 2n ** 63n) return bad;
  if (n < 0n || n > BigInt(addr.bits)) return fail('prefix length out of range');
  return { addr, bits: Number(n) };
}

// ---- formatting -----------------------------------------------------------------------------------

function v4Bytes(a: Addr): number[] {
  const v = Number(a.v & 0xffffffffn);
  return [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

function v6Groups(a: Addr): number[] {
  const out: number[] = [];
  for (let i = 7; i >= 0; i--) out.push(Number((a.v >> BigInt(i * 16)) & 0xffffn));
  return out;
}

/** Addr.String: dotted quad, or RFC 5952 IPv6 (longest zero run as `::`, `::ffff:a.b.c.d` for mapped). */
export function addrString(a: Addr): string {
  if (a.bits === 32) return v4Bytes(a).join('.');
  const zone = a.zone ? `%${a.zone}` : '';
  if (is4In6(a)) return `::ffff:${v4Bytes(a).join('.')}${zone}`;
  const g = v6Groups(a);
  let zeroStart = 255;
  let zeroEnd = 255;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    const l = j - i;
    if (l >= 2 && l > zeroEnd - zeroStart) {
      zeroStart = i;
      zeroEnd = j;
    }
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::';
      i = zeroEnd;
      if (i >= 8) break;
    } else if (i > 0) out += ':';
    out += g[i]!.toString(16);
  }
  return out + zone;
}

/** Prefix.String. */
export function prefixString(p: Prefix): string {
  return `${addrString(p.addr)}/${p.bits}`;
}

// ---- classification --------------------------------------------------------------------------------

export function is4In6(a: Addr): boolean {
  return a.bits === 128 && a.v >> 32n === 0xffffn;
}

function unmap(a: Addr): Addr {
  return is4In6(a) ? { bits: 32, v: a.v & 0xffffffffn, zone: '' } : a;
}

const hi16 = (a: Addr) => Number(a.v >> 112n);

export function isUnspecified(a: Addr): boolean {
  return a.v === 0n;
}

export function isLoopback(a: Addr): boolean {
  a = unmap(a);
  return a.bits === 32 ? v4Bytes(a)[0] === 127 : a.v === 1n;
}

export function isMulticast(a: Addr): boolean {
  a = unmap(a);
  return a.bits === 32 ? (v4Bytes(a)[0]! & 0xf0) === 0xe0 : hi16(a) >> 8 === 0xff;
}

export function isLinkLocalMulticast(a: Addr): boolean {
  a = unmap(a);
  if (a.bits === 32) {
    const b = v4Bytes(a);
    return b[0] === 224 && b[1] === 0 && b[2] === 0;
  }
  return (hi16(a) & 0xff0f) === 0xff02;
}

export function isLinkLocalUnicast(a: Addr): boolean {
  a = unmap(a);
  if (a.bits === 32) {
    const b = v4Bytes(a);
    return b[0] === 169 && b[1] === 254;
  }
  return (hi16(a) & 0xffc0) === 0xfe80;
}

export function isGlobalUnicast(a: Addr): boolean {
  a = unmap(a);
  if (a.bits === 32 && (a.v === 0n || a.v === 0xffffffffn)) return false;
  if (a.bits === 128 && a.v === 0n) return false;
  return !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
}

// ---- prefixes ------------------------------------------------------------------------------------------

function mask(bits: 32 | 128, len: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return (all >> BigInt(bits - len)) << BigInt(bits - len);
}

/** Prefix.Masked: the prefix with the host bits cleared. */
export function masked(p: Prefix): Prefix {
  return { addr: { bits: p.addr.bits, v: p.addr.v & mask(p.addr.bits, p.bits), zone: '' }, bits: p.bits };
}

/** Prefix.Contains. */
export function prefixContains(p: Prefix, a: Addr): boolean {
  if (a.zone !== '' || a.bits !== p.addr.bits) return false;
  const m = mask(a.bits, p.bits);
  return ((a.v ^ p.addr.v) & m) === 0n;
}

/** Prefix.Overlaps. */
export function prefixOverlaps(p: Prefix, o: Prefix): boolean {
  if (p.addr.bits !== o.addr.bits) return false;
  const minBits = Math.min(p.bits, o.bits);
  if (minBits === 0) return true;
  const m = mask(p.addr.bits, minBits);
  return (p.addr.v & m) === (o.addr.v & m);
}
