/**
 * Query parameters as kube-apiserver reads them: Go's strconv.ParseBool for booleans (Python sends
 * `watch=True`), integers that must parse, and the list/watch/write options the handlers need.
 * A malformed value is a 400 BadRequest, never a 500.
 */
import { newBadRequest } from '../../apimachinery/status.ts';

const goTrue = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const goFalse = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** strconv.ParseBool: true/false for Go's spellings, undefined for anything else. */
export function goParseBool(s: string): boolean | undefined {
  if (goTrue.has(s)) return true;
  if (goFalse.has(s)) return false;
  return undefined;
}

/** The decoded query of one request; repeated keys keep their first value, as url.Values.Get. */
export class Query {
  constructor(readonly params: URLSearchParams) {}

  has(key: string): boolean {
    return this.params.has(key);
  }

  /** The first value, or undefined when absent. */
  str(key: string): string | undefined {
    const v = this.params.get(key);
    return v === null ? undefined : v;
  }

  /** A Go bool; an empty value is false (as the query-parameter converter treats ""), a bad one 400. */
  bool(key: string): boolean | undefined {
    const v = this.str(key);
    if (v === undefined) return undefined;
    if (v === '') return false;
    const b = goParseBool(v);
    if (b === undefined) throw newBadRequest(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
    return b;
  }

  /** An int64 parameter; absent or empty gives undefined, malformed gives 400. */
  int(key: string): number | undefined {
    const v = this.str(key);
    if (v === undefined || v === '') return undefined;
    if (!/^[+-]?\d+$/.test(v)) throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
    return Number(v);
  }
}
