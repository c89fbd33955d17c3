/**
 * resourceVersion parsing as the storage layer does it (storage.APIObjectVersioner): '' and '0'
 * mean "unset", anything else is Go's strconv.ParseUint(s, 10, 64), whose error text reaches
 * clients inside `invalid resource version: ...`. Kept in the registry until
 * `src/apimachinery/resource-version.ts` carries it.
 */
import { goQuote } from '../apimachinery/field/govalue.ts';
import { errorString, invalid } from '../apimachinery/field/errors.ts';
import { newBadRequest } from '../apimachinery/status.ts';

const maxUint64 = (1n << 64n) - 1n;

export type ParsedUint = { ok: true; value: bigint } | { ok: false; error: string };

/** strconv.ParseUint(s, 10, 64) with Go's error text. */
export function parseGoUint(s: string): ParsedUint {
  const fail = (why: string): ParsedUint => ({ ok: false, error: `strconv.ParseUint: parsing ${goQuote(s)}: ${why}` });
  if (s.length === 0) return fail('invalid syntax');
  let n = 0n;
  for (const ch of s) {
    if (ch < '0' || ch > '9') return fail('invalid syntax');
    n = n * 10n + BigInt(ch.charCodeAt(0) - 48);
    if (n > maxUint64) return fail('value out of range');
  }
  return { ok: true, value: n };
}

export type ParsedRV = { ok: true; value: number } | { ok: false; error: string };

/**
 * APIObjectVersioner.ParseResourceVersion: 0 for '' and '0'; the error is the InvalidError text
 * `resourceVersion: Invalid value: "x": strconv.ParseUint: ...`. Revisions beyond 2^53 cannot
 * exist in this store, so they are returned as Infinity (always "too large").
 */
export function parseResourceVersion(rv: string): ParsedRV {
  if (rv === '' || rv === '0') return { ok: true, value: 0 };
  const p = parseGoUint(rv);
  if (!p.ok) return { ok: false, error: errorString(invalid('resourceVersion', rv, p.error)) };
  return { ok: true, value: p.value > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(p.value) };
}

/** parseResourceVersion or 400 `invalid resource version: <err>` as etcd3's GetList answers. */
export function requireResourceVersion(rv: string): number {
  const p = parseResourceVersion(rv);
  if (!p.ok) throw newBadRequest(`invalid resource version: ${p.error}`);
  return p.value;
}
