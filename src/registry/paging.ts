/**
 * Continue tokens as k8s.io/apiserver/pkg/storage encodes them: base64url (no padding) of
 * `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the list prefix>"}`, with upstream's
 * decode errors (`continue key is not valid: ...`). The start key is cleaned like a path so a
 * token can never reach outside the prefix it was issued for. Kept in the registry until
 * `src/apimachinery/continue-token.ts` carries it.
 */
import { posix } from 'node:path';

const errGenericInvalidKey = 'continue key is not valid';
const errInvalidStartRV = 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)';
const errEmptyStartKey = 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)';
const errUnrecognizedEncodedVersion = 'continue key is not valid: server does not recognize this encoded version';

/** EncodeContinue: the token for a page that continues at `key` (which must lie under `keyPrefix`). */
export function encodeContinue(key: string, keyPrefix: string, rv: number): string {
  if (!key.startsWith(keyPrefix) || key === keyPrefix) {
    throw new Error('unable to encode next field: the key and key prefix do not match');
  }
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: key.slice(keyPrefix.length) });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** base64.RawURLEncoding.DecodeString with Go's CorruptInputError text. */
function decodeRawURLBase64(s: string): Buffer {
  let valid = 0;
  let lastIndex = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\r' || c === '\n') continue;
    if (!/[A-Za-z0-9_-]/.test(c)) throw new Error(`illegal base64 data at input byte ${i}`);
    valid++;
    lastIndex = i;
  }
  if (valid % 4 === 1) throw new Error(`illegal base64 data at input byte ${lastIndex}`);
  return Buffer.from(s.replace(/[\r\n]/g, ''), 'base64url');
}

/** DecodeContinue: the key to continue at (prefixed) and the revision of the snapshot. */
export function decodeContinue(token: string, keyPrefix: string): { key: string; rv: number } {
  let data: Buffer;
  try {
    data = decodeRawURLBase64(token);
  } catch (e) {
    throw new Error(`${errGenericInvalidKey}: ${(e as Error).message}`);
  }
  let c: unknown;
  try {
    c = JSON.parse(data.toString('utf8'));
  } catch {
    throw new Error(`${errGenericInvalidKey}: ${data.length === 0 ? 'unexpected end of JSON input' : 'invalid character in JSON input'}`);
  }
  if (c === null || typeof c !== 'object' || Array.isArray(c)) {
    throw new Error(`${errGenericInvalidKey}: json: cannot unmarshal ${Array.isArray(c) ? 'array' : typeof c} into Go value of type storage.continueToken`);
  }
  const t = c as { v?: unknown; rv?: unknown; start?: unknown };
  if (t.rv !== undefined && (typeof t.rv !== 'number' || !Number.isInteger(t.rv))) {
    throw new Error(`${errGenericInvalidKey}: json: cannot unmarshal ${typeof t.rv === 'number' ? 'number' : typeof t.rv} into Go struct field continueToken.rv of type int64`);
  }
  const v = typeof t.v === 'string' ? t.v : '';
  if (v !== 'meta.k8s.io/v1') throw new Error(`${errUnrecognizedEncodedVersion} ${v}`);
  const rv = (t.rv as number | undefined) ?? 0;
  if (rv === 0) throw new Error(errInvalidStartRV);
  const start = typeof t.start === 'string' ? t.start : '';
  if (start.length === 0) throw new Error(errEmptyStartKey);
  const key = start.startsWith('/') ? start : '/' + start;
  if (posix.normalize(key).replace(/(.)\/$/, '$1') !== key || key.includes('//')) {
    throw new Error(`${errGenericInvalidKey}: ${start}`);
  }
  return { key: keyPrefix + key.slice(1), rv };
}
