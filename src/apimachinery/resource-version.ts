/**
 * resourceVersion and query-parameter scalars as the API server parses them: the storage
 * layer's APIObjectVersioner.ParseResourceVersion ('' and '0' mean "unset", otherwise Go's
 * strconv.ParseUint with its error text inside a field error), strconv.ParseInt / ParseBool,
 * and the lenient boolean of query parameters (runtime.Convert_Slice_string_To_bool).
 */
import { goQuote } from './field/govalue.ts';
import { errorString, invalid } from './field/errors.ts';
import { newBadRequest } from './status.ts';

const maxUint64 = (1n << 64n) - 1n;

export type ParsedUint = { ok: true; value: bigint } | { ok: false; error: string };

/** strconv.ParseUint(s, 10, 64) with Go's error text. */
export function parseGoUint(s: string): ParsedUint {
  const fail = (why: string): ParsedUint => ({ ok: false, error: `strconv.ParseUint: parsing ${goQuote(s)}: ${why}` });
  if (s.length === 0) return fail('invalid syntax');
  let n = 0n;
  let overflow = false;
  for (const ch of s) {
    if (ch < '0' || ch > '9') return fail('invalid syntax');
    if (!overflow) {
      n = n * 10n + BigInt(ch.charCodeAt(0) - 48);
      if (n > maxUint64) overflow = true;
    }
  }
  return overflow ? fail('value out of range') : { ok: true, value: n };
}

export type ParsedInt = { ok: true; value: bigint } | { ok: false; error: string };

/** strconv.ParseInt(s, 10, 64) with Go's error text (a leading '+' or '-' is accepted). */
export function parseGoInt(s: string): ParsedInt {
  const fail = (why: string): ParsedInt => ({ ok: false, error: `strconv.ParseInt: parsing ${goQuote(s)}: ${why}` });
  if (!/^[+-]?[0-9]+$/.test(s)) return fail('invalid syntax');
  const n = BigInt(s);
  if (n < -(2n ** 63n) || n >= 2n ** 63n) return fail('value out of range');
  return { ok: true, value: n };
}

export type ParsedBool = { ok: true; value: boolean } | { ok: false; error: string };

/** strconv.ParseBool: 1 t T TRUE true True / 0 f F FALSE false False. */
export function parseGoBool(s: string): ParsedBool {
  switch (s) {
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'true':
    case 'True':
      return { ok: true, value: true };
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'false':
    case 'False':
      return { ok: true, value: false };
  }
  return { ok: false, error: `strconv.ParseBool: parsing ${goQuote(s)}: invalid syntax` };
}

/**
 * A boolean query parameter as kube-apiserver converts it: absent, "0" or any casing of "false"
 * is false; anything else, the empty string included (`?watch`), is true.
 */
export function queryParamBool(values: readonly string[] | string | null | undefined): boolean {
  const v = typeof values === 'string' ? values : values?.[0];
  if (v === undefined || v === null) return false;
  return !(v === '0' || v.toLowerCase() === 'false');
}

export type ParsedRV = { ok: true; value: number } | { ok: false; error: string };

/**
 * APIObjectVersioner.ParseResourceVersion: 0 for '' and '0'; otherwise the revision, or the
 * InvalidError text `resourceVersion: Invalid value: "x": strconv.ParseUint: parsing "x": invalid
 * syntax`. Revisions beyond 2^53 cannot exist in a store here, so they come back as Infinity
 * (always "too large").
 */
export function parseResourceVersion(rv: string): ParsedRV {
  if (rv === '' || rv === '0') return { ok: true, value: 0 };
  const p = parseGoUint(rv);
  if (!p.ok) return { ok: false, error: errorString(invalid('resourceVersion', rv, p.error)) };
  return { ok: true, value: p.value > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(p.value) };
}

/** parseResourceVersion, or the 400 `invalid resource version: <err>` that list and watch answer. */
export function requireResourceVersion(rv: string): number {
  const p = parseResourceVersion(rv);
  if (!p.ok) throw newBadRequest(`invalid resource version: ${p.error}`);
  return p.value;
}
