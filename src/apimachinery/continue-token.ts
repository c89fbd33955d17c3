/**
 * Continue tokens of paginated lists, exactly as k8s.io/apiserver/pkg/storage encodes and
 * decodes them: base64url without padding of `{"v":"meta.k8s.io/v1","rv":N,"start":"..."}`,
 * where `start` is the key to continue at relative to the list's key prefix. Decoding reports
 * upstream's errors (`continue key is not valid: ...`, including Go's base64 and JSON messages);
 * kube-apiserver answers them with 400 `invalid continue token: <error>`. The start key is
 * cleaned like a path, so a token can never reach outside the prefix it is decoded against.
 */
import { JSONNumber, parseGoJSONText } from './json/go-json.ts';

export const ErrInvalidStartRV =
  'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)';
export const ErrEmptyStartKey = 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)';
export const ErrGenericInvalidKey = 'continue key is not valid';
export const ErrUnrecognizedEncodedVersion = 'continue key is not valid: server does not recognize this encoded version';

export class ContinueTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContinueTokenError';
  }
}

/**
 * EncodeContinue: the token for a page continuing at `key` (which must extend keyPrefix) in the
 * snapshot at revision rv (-1: "latest", as the compaction fallback token uses).
 */
export function encodeContinue(key: string, keyPrefix: string, rv: number): string {
  // strings.TrimPrefix leaves the key unchanged when the prefix does not match (or is empty).
  const next = key.startsWith(keyPrefix) ? key.slice(keyPrefix.length) : key;
  if (next === key) throw new ContinueTokenError('unable to encode next field: the key and key prefix do not match');
  // json.Marshal of continueToken: Go escapes <, >, & and U+2028/9 in strings.
  const start = JSON.stringify(next)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  const json = `{"v":"meta.k8s.io/v1","rv":${rv},"start":${start}}`;
  return Buffer.from(json, 'utf8').toString('base64url');
}

/**
 * PrepareContinueToken's key: the token for the page after the item stored at lastKey (the
 * next page starts just after it, at lastKey + "\x00").
 */
export function continueAfter(lastKey: string, keyPrefix: string, rv: number): string {
  return encodeContinue(lastKey + '\x00', keyPrefix, rv);
}

const b64url = (() => {
  const m = new Int16Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < alphabet.length; i++) m[alphabet.charCodeAt(i)] = i;
  return m;
})();

/** base64.RawURLEncoding.DecodeString, with Go's `illegal base64 data at input byte N`. */
export function decodeRawURLBase64(s: string): Buffer {
  const src = Buffer.from(s, 'utf8');
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const quantum: number[] = [];
    let j = 0;
    while (j < 4) {
      if (si === src.length) {
        if (j === 0) return Buffer.from(out);
        if (j === 1) throw new Error(`illegal base64 data at input byte ${si - j}`);
        break;
      }
      const c = src[si++]!;
      const v = b64url[c]!;
      if (v >= 0) {
        quantum.push(v);
        j++;
        continue;
      }
      if (c === 0x0a || c === 0x0d) continue;
      throw new Error(`illegal base64 data at input byte ${si - 1}`);
    }
    const [a, b, c = 0, d = 0] = quantum as [number, number, number?, number?];
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out.push((n >> 16) & 0xff);
    if (quantum.length > 2) out.push((n >> 8) & 0xff);
    if (quantum.length > 3) out.push(n & 0xff);
    if (quantum.length < 4) return Buffer.from(out);
  }
}

/** Go's path.Clean. */
export function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p[0] === '/';
  const n = p.length;
  let out = rooted ? '/' : '';
  let r = rooted ? 1 : 0;
  let dotdot = rooted ? 1 : 0;
  while (r < n) {
    if (p[r] === '/') r++;
    else if (p[r] === '.' && (r + 1 === n || p[r + 1] === '/')) r++;
    else if (p[r] === '.' && p[r + 1] === '.' && (r + 2 === n || p[r + 2] === '/')) {
      r += 2;
      if (out.length > dotdot) {
        let w = out.length - 1;
        while (w > dotdot && out[w] !== '/') w--;
        out = out.slice(0, w);
      } else if (!rooted) {
        if (out.length > 0) out += '/';
        out += '..';
        dotdot = out.length;
      }
    } else {
      if ((rooted && out.length !== 1) || (!rooted && out.length !== 0)) out += '/';
      while (r < n && p[r] !== '/') out += p[r++];
    }
  }
  return out === '' ? '.' : out;
}

function goKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (v instanceof JSONNumber) return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** json.Unmarshal into continueToken (encoding/json: field names match case-insensitively). */
function unmarshalToken(data: Buffer): { v: string; rv: number; start: string } {
  const parsed = parseGoJSONText(data.toString('utf8'));
  if (parsed.error !== undefined) throw new Error(parsed.error);
  const tok = { v: '', rv: 0, start: '' };
  const top = parsed.value;
  if (top === null) return tok;
  if (typeof top !== 'object' || Array.isArray(top) || top instanceof JSONNumber) {
    throw new Error(`json: cannot unmarshal ${goKind(top)} into Go value of type storage.continueToken`);
  }
  let saved: string | undefined;
  const typeErr = (value: string, field: string, type: string) => {
    saved ??= `json: cannot unmarshal ${value} into Go struct field continueToken.${field} of type ${type}`;
  };
  for (const [key, val] of Object.entries(top as Record<string, unknown>)) {
    const field = ['v', 'rv', 'start'].find((f) => f === key) ?? ['v', 'rv', 'start'].find((f) => f === key.toLowerCase());
    if (field === undefined || val === null) continue;
    if (field === 'rv') {
      if (!(val instanceof JSONNumber)) typeErr(goKind(val), 'rv', 'int64');
      else if (!/^-?\d+$/.test(val.text) || BigInt(val.text) < -(2n ** 63n) || BigInt(val.text) >= 2n ** 63n) {
        typeErr(`number ${val.text}`, 'rv', 'int64');
      } else tok.rv = Number(val.text);
    } else if (typeof val !== 'string') typeErr(goKind(val), field, 'string');
    else tok[field as 'v' | 'start'] = val;
  }
  if (saved !== undefined) throw new Error(saved);
  return tok;
}

/**
 * DecodeContinue: the key to continue at (keyPrefix + cleaned start) and the snapshot revision
 * (negative: the latest). Throws ContinueTokenError with upstream's message.
 */
export function decodeContinue(token: string, keyPrefix: string): { key: string; rv: number } {
  let data: Buffer;
  let c: { v: string; rv: number; start: string };
  try {
    data = decodeRawURLBase64(token);
    c = unmarshalToken(data);
  } catch (e) {
    throw new ContinueTokenError(`${ErrGenericInvalidKey}: ${(e as Error).message}`);
  }
  if (c.v !== 'meta.k8s.io/v1') throw new ContinueTokenError(`${ErrUnrecognizedEncodedVersion} ${c.v}`);
  if (c.rv === 0) throw new ContinueTokenError(ErrInvalidStartRV);
  if (c.start.length === 0) throw new ContinueTokenError(ErrEmptyStartKey);
  const key = c.start.startsWith('/') ? c.start : '/' + c.start;
  if (cleanPath(key) !== key) throw new ContinueTokenError(`${ErrGenericInvalidKey}: ${c.start}`);
  return { key: keyPrefix + key.slice(1), rv: c.rv };
}
