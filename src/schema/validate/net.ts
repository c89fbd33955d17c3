/**
 * Go's net and net/url parsers as the schema formats use them: ParseIPSloppy (k8s.io/utils/net,
 * the pre-1.17 Go parser that accepts leading zeros in IPv4), net.ParseIP, ParseCIDRSloppy,
 * net.ParseMAC and url.ParseRequestURI. Each returns a boolean: formats only ask "does it parse".
 */

/** Parses dotted IPv4 into 4 bytes; `sloppy` accepts leading zeros (Go < 1.17). */
function parseIPv4(s: string, sloppy: boolean): number[] | undefined {
  const out: number[] = [];
  let i = 0;
  for (let part = 0; part < 4; part++) {
    if (part > 0) {
      if (s[i] !== '.') return undefined;
      i++;
    }
    let n = 0;
    const start = i;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) {
      n = n * 10 + (s.charCodeAt(i) - 48);
      if (n > 0xffffff) return undefined;
      i++;
    }
    if (i === start || n > 0xff) return undefined;
    if (!sloppy && (i - start > 3 || (i - start > 1 && s[start] === '0'))) return undefined;
    out.push(n);
  }
  return i === s.length ? out : undefined;
}

/** Parses IPv6 (no zone) into 16 bytes, with an optional trailing IPv4. */
function parseIPv6(s: string, sloppy: boolean): number[] | undefined {
  const ip: number[] = new Array(16).fill(0);
  let ellipsis = -1;
  let i = 0;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    i = 2;
    if (i === s.length) return ip;
  }
  let p = 0;
  while (p < 16) {
    // hex group
    let n = 0;
    let j = i;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      let d: number;
      if (c >= 48 && c <= 57) d = c - 48;
      else if (c >= 97 && c <= 102) d = c - 87;
      else if (c >= 65 && c <= 70) d = c - 55;
      else break;
      n = n * 16 + d;
      if (n > 0xffff) return undefined;
      j++;
    }
    if (j === i) return undefined;
    if (j - i > 4) return undefined;
    if (j < s.length && s[j] === '.') {
      if (ellipsis < 0 && p !== 12) return undefined;
      if (p + 4 > 16) return undefined;
      const v4 = parseIPv4(s.slice(i), sloppy);
      if (!v4) return undefined;
      ip[p] = v4[0]!;
      ip[p + 1] = v4[1]!;
      ip[p + 2] = v4[2]!;
      ip[p + 3] = v4[3]!;
      p += 4;
      i = s.length;
      break;
    }
    ip[p] = n >> 8;
    ip[p + 1] = n & 0xff;
    p += 2;
    i = j;
    if (i === s.length) break;
    if (s[i] !== ':' || i + 1 === s.length) return undefined;
    i++;
    if (s[i] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = p;
      i++;
      if (i === s.length) break;
    }
  }
  if (i !== s.length) return undefined;
  if (p < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - p;
    for (let j = p - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return ip;
}

/** netutils.ParseIPSloppy(s) != nil */
export function isIPSloppy(s: string): boolean {
  return (parseIPv4(s, true) ?? parseIPv6(s, true)) !== undefined;
}

/** net.ParseIP(s) != nil (modern Go: no leading zeros in IPv4 parts). */
export function isIPStrict(s: string): boolean {
  return (parseIPv4(s, false) ?? parseIPv6(s, false)) !== undefined;
}

/** netutils.ParseCIDRSloppy(s) succeeds. */
export function isCIDRSloppy(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  const v4 = parseIPv4(addr, true);
  const bits = v4 ? 32 : parseIPv6(addr, true) ? 128 : -1;
  if (bits < 0) return false;
  if (!/^[0-9]+$/.test(mask)) return false;
  const n = Number(mask);
  return n <= bits;
}

/** net.ParseMAC(s) succeeds: 6, 8 or 20 octets, `:`/`-` separated or dotted quads of hex. */
export function isMAC(s: string): boolean {
  if (s.length < 14) return false;
  const hex = (c: string) => /^[0-9a-fA-F]$/.test(c);
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let x = 0, i = 0; i < n; i++, x += 3) {
      if (!hex(s[x]!) || !hex(s[x + 1]!)) return false;
      if (x + 2 < s.length && s[x + 2] !== s[2]) return false;
    }
    return true;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = (2 * (s.length + 1)) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let x = 0, i = 0; i < n; i += 2, x += 5) {
      for (let k = 0; k < 4; k++) if (!hex(s[x + k]!)) return false;
      if (x + 4 < s.length && s[x + 4] !== '.') return false;
    }
    return true;
  }
  return false;
}

function validEscapes(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%') {
      if (i + 2 >= s.length) return false;
      if (!/^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) return false;
      i += 2;
    }
  }
  return true;
}

// url.shouldEscape(c, encodeHost) is false for these ASCII characters.
const hostOK = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"%]*$/;

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  return /^[0-9]*$/.test(port.slice(1));
}

function validHost(host: string): boolean {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) return false;
    if (!validOptionalPort(host.slice(i + 1))) return false;
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1 && !validOptionalPort(host.slice(i))) return false;
  }
  if (!validEscapes(host)) return false;
  for (let i = 0; i < host.length; i++) {
    if (host.charCodeAt(i) < 0x80 && !hostOK.test(host[i]!)) return false;
  }
  return true;
}

const userinfoOK = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/** url.ParseRequestURI(s) succeeds. */
export function isRequestURI(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  if (raw === '') return false;
  if (raw === '*') return true;
  // getScheme
  let scheme = '';
  let rest = raw;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c === '+' || c === '-' || c === '.') {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return false; // missing protocol scheme
      scheme = raw.slice(0, i);
      rest = raw.slice(i + 1);
    }
    break;
  }
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) return scheme !== ''; // opaque, or "invalid URI for request"
  if (scheme !== '' && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    let path = '';
    if (slash >= 0) {
      path = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const at = authority.lastIndexOf('@');
    const host = at < 0 ? authority : authority.slice(at + 1);
    if (!validHost(host)) return false;
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!userinfoOK.test(userinfo) || !validEscapes(userinfo)) return false;
    }
    rest = path;
  }
  return validEscapes(rest);
}
