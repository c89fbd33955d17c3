/**
 * A port of the parts of Go's net/url the url and format libraries use: Parse and ParseRequestURI
 * with Go's error messages (`parse "x": invalid port ":c" after host`), Hostname/Port,
 * EscapedPath, Query (ParseQuery, errors ignored) and String (for URL equality). Strings are
 * handled as UTF-8 bytes where Go does, so escaping matches.
 */
import { goQuote } from './netip.ts';

/** A parsed URL (Go's url.URL fields the libraries need). */
export interface GoURL {
  scheme: string;
  opaque: string;
  user?: { username: string; password?: string };
  host: string;
  path: string;
  rawPath: string;
  omitHost: boolean;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

class URLError {
  constructor(readonly message: string) {}
}

const isAlnum = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
const ishex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const unhex = (c: number) => (c <= 0x39 ? c - 0x30 : c <= 0x46 ? c - 0x41 + 10 : c - 0x61 + 10);

function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  const ch = String.fromCharCode(c);
  if ((mode === 'host' || mode === 'zone') && "!$&'()*+,;=:[]<>\"".includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case 'path':
        return ch === '?';
      case 'pathSegment':
        return ch === '/' || ch === ';' || ch === ',' || ch === '?';
      case 'userPassword':
        return ch === '@' || ch === '/' || ch === '?' || ch === ':';
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(ch)) return false;
  return true;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Go's unescape: percent-decoding with Go's validation and errors. */
function unescape(s: string, mode: Mode): string | URLError {
  const b = enc.encode(s);
  let hasEscape = false;
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c === 0x25) {
      hasEscape = true;
      if (i + 2 >= b.length || !ishex(b[i + 1]!) || !ishex(b[i + 2]!)) {
        return new URLError('invalid URL escape ' + goQuote(dec.decode(b.slice(i, Math.min(i + 3, b.length)))));
      }
      const seg = dec.decode(b.slice(i, i + 3));
      if (mode === 'host' && unhex(b[i + 1]!) < 8 && seg !== '%25') return new URLError('invalid URL escape ' + goQuote(seg));
      if (mode === 'zone') {
        const v = (unhex(b[i + 1]!) << 4) | unhex(b[i + 2]!);
        if (seg !== '%25' && v !== 0x20 && shouldEscape(v, 'host')) return new URLError('invalid URL escape ' + goQuote(seg));
      }
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode)) {
        return new URLError(`invalid character ${goQuote(String.fromCharCode(c))} in host name`);
      }
      if (c === 0x2b && mode === 'queryComponent') hasEscape = true;
      i++;
    }
  }
  if (!hasEscape) return s;
  const out: number[] = [];
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c === 0x25) {
      out.push((unhex(b[i + 1]!) << 4) | unhex(b[i + 2]!));
      i += 3;
    } else {
      out.push(c === 0x2b && mode === 'queryComponent' ? 0x20 : c);
      i++;
    }
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(new Uint8Array(out));
}

/** Go's escape. */
function escape(s: string, mode: Mode): string {
  let out = '';
  for (const c of enc.encode(s)) {
    if (shouldEscape(c, mode)) {
      if (c === 0x20 && mode === 'queryComponent') out += '+';
      else out += '%' + c.toString(16).toUpperCase().padStart(2, '0');
    } else out += String.fromCharCode(c);
  }
  return out;
}

function getScheme(raw: string): [string, string] | URLError {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c === '+' || c === '-' || c === '.') {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) return new URLError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  return /^[0-9]*$/.test(port.slice(1));
}

function parseHost(host: string): string | URLError {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) return new URLError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) return new URLError(`invalid port ${goQuote(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      const h1 = unescape(host.slice(0, zone), 'host');
      if (h1 instanceof URLError) return h1;
      const h2 = unescape(host.slice(zone, i), 'zone');
      if (h2 instanceof URLError) return h2;
      const h3 = unescape(host.slice(i), 'host');
      if (h3 instanceof URLError) return h3;
      return h1 + h2 + h3;
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) return new URLError(`invalid port ${goQuote(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

function validUserinfo(s: string): boolean {
  for (const r of s) {
    if (/[A-Za-z0-9]/.test(r)) continue;
    if ("-._:~!$&'()*+,;=%@".includes(r)) continue;
    return false;
  }
  return true;
}

function parseAuthority(authority: string): Pick<GoURL, 'user' | 'host'> | URLError {
  const i = authority.lastIndexOf('@');
  const host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (host instanceof URLError) return host;
  if (i < 0) return { host };
  const userinfo = authority.slice(0, i);
  if (!validUserinfo(userinfo)) return new URLError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) {
    const u = unescape(userinfo, 'userPassword');
    if (u instanceof URLError) return u;
    return { host, user: { username: u } };
  }
  const u = unescape(userinfo.slice(0, colon), 'userPassword');
  if (u instanceof URLError) return u;
  const p = unescape(userinfo.slice(colon + 1), 'userPassword');
  if (p instanceof URLError) return p;
  return { host, user: { username: u, password: p } };
}

function hasCTL(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function parse(raw: string, viaRequest: boolean): GoURL | URLError {
  if (hasCTL(raw)) return new URLError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) return new URLError('empty url');
  const url: GoURL = {
    scheme: '',
    opaque: '',
    host: '',
    path: '',
    rawPath: '',
    omitHost: false,
    forceQuery: false,
    rawQuery: '',
    fragment: '',
    rawFragment: '',
  };
  if (raw === '*') {
    url.path = '*';
    return url;
  }
  const sr = getScheme(raw);
  if (sr instanceof URLError) return sr;
  url.scheme = sr[0].toLowerCase();
  let rest = sr[1];
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest;
      return url;
    }
    if (viaRequest) return new URLError('invalid URI for request');
    const slash = rest.indexOf('/');
    const segment = slash < 0 ? rest : rest.slice(0, slash);
    if (segment.includes(':')) return new URLError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    const a = parseAuthority(authority);
    if (a instanceof URLError) return a;
    url.host = a.host;
    url.user = a.user;
  } else if (url.scheme !== '' && rest.startsWith('/')) url.omitHost = true;
  const p = unescape(rest, 'path');
  if (p instanceof URLError) return p;
  url.path = p;
  url.rawPath = escape(p, 'path') === rest ? '' : rest;
  return url;
}

const wrap = (raw: string, e: URLError) => `parse ${goQuote(raw)}: ${e.message}`;

/** url.ParseRequestURI: the URL, or Go's error message. */
export function parseRequestURI(raw: string): GoURL | string {
  const u = parse(raw, true);
  return u instanceof URLError ? wrap(raw, u) : u;
}

/** url.Parse: the URL (with its fragment), or Go's error message. */
export function parseURL(raw: string): GoURL | string {
  const hash = raw.indexOf('#');
  const u = hash < 0 ? raw : raw.slice(0, hash);
  const url = parse(u, false);
  if (url instanceof URLError) return wrap(u, url);
  if (hash < 0) return url;
  const frag = raw.slice(hash + 1);
  const f = unescape(frag, 'fragment');
  if (f instanceof URLError) return wrap(raw, f);
  url.fragment = f;
  url.rawFragment = escape(f, 'fragment') === frag ? '' : frag;
  return url;
}

function validEncoded(s: string, mode: Mode): boolean {
  for (const c of enc.encode(s)) {
    if ("!$&'()*+,;=:@[]%".includes(String.fromCharCode(c))) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

/** URL.EscapedPath. */
export function escapedPath(u: GoURL): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, 'path')) {
    const p = unescape(u.rawPath, 'path');
    if (!(p instanceof URLError) && p === u.path) return u.rawPath;
  }
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

function escapedFragment(u: GoURL): string {
  if (u.rawFragment !== '' && validEncoded(u.rawFragment, 'fragment')) {
    const f = unescape(u.rawFragment, 'fragment');
    if (!(f instanceof URLError) && f === u.fragment) return u.rawFragment;
  }
  return escape(u.fragment, 'fragment');
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

/** URL.Hostname: the host without port or IPv6 brackets. */
export function hostname(u: GoURL): string {
  return splitHostPort(u.host)[0];
}

/** URL.Port. */
export function port(u: GoURL): string {
  return splitHostPort(u.host)[1];
}

/** URL.Query: the query as key -> values, in first-seen key order; malformed pairs are skipped. */
export function query(u: GoURL): Map<string, string[]> {
  const m = new Map<string, string[]>();
  let q = u.rawQuery;
  while (q !== '') {
    const amp = q.indexOf('&');
    const key0 = amp < 0 ? q : q.slice(0, amp);
    q = amp < 0 ? '' : q.slice(amp + 1);
    if (key0.includes(';') || key0 === '') continue;
    const eq = key0.indexOf('=');
    const k = unescape(eq < 0 ? key0 : key0.slice(0, eq), 'queryComponent');
    if (k instanceof URLError) continue;
    const v = unescape(eq < 0 ? '' : key0.slice(eq + 1), 'queryComponent');
    if (v instanceof URLError) continue;
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  }
  return m;
}

/** URL.String. */
export function urlString(u: GoURL): string {
  let buf = '';
  if (u.scheme !== '') buf += u.scheme + ':';
  if (u.opaque !== '') buf += u.opaque;
  else {
    if (u.scheme !== '' || u.host !== '' || u.user) {
      if (!(u.omitHost && u.host === '' && !u.user)) {
        if (u.host !== '' || u.path !== '' || u.user) buf += '//';
        if (u.user) {
          buf += escape(u.user.username, 'userPassword');
          if (u.user.password !== undefined) buf += ':' + escape(u.user.password, 'userPassword');
          buf += '@';
        }
        if (u.host !== '') buf += escape(u.host, 'host');
      }
    }
    const path = escapedPath(u);
    if (path !== '' && path[0] !== '/' && u.host !== '') buf += '/';
    if (buf.length === 0) {
      const slash = path.indexOf('/');
      if ((slash < 0 ? path : path.slice(0, slash)).includes(':')) buf += './';
    }
    buf += path;
  }
  if (u.forceQuery || u.rawQuery !== '') buf += '?' + u.rawQuery;
  if (u.fragment !== '') buf += '#' + escapedFragment(u);
  return buf;
}
