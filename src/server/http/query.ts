/**
 * Query parameters as kube-apiserver reads them. Booleans decoded into options (`watch`,
 * `allowWatchBookmarks`, `sendInitialEvents`, `force`) follow runtime.Convert_Slice_string_To_bool:
 * "0" and any casing of "false" are false, anything else (`True`, `1`, even an empty `?watch`) is
 * true. `pretty` alone uses strconv.ParseBool, an unparsable value meaning false. Integers must
 * parse (400 otherwise).
 */
import { newBadRequest } from '../../apimachinery/index.ts';
import { parseGoBool, parseGoInt, queryParamBool } from '../../apimachinery/index.ts';

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

  /** An options boolean (Convert_Slice_string_To_bool); undefined when absent. */
  bool(key: string): boolean | undefined {
    return this.params.has(key) ? queryParamBool(this.params.getAll(key)) : undefined;
  }

  /** strconv.ParseBool of the value (isPrettyPrint); undefined when absent or empty, false when unparsable. */
  goBool(key: string): boolean | undefined {
    const v = this.str(key);
    if (v === undefined || v === '') return undefined;
    const b = parseGoBool(v);
    return b.ok ? b.value : false;
  }

  /** An int64 parameter; absent or empty gives undefined, malformed gives 400 with Go's message. */
  int(key: string): number | undefined {
    const v = this.str(key);
    if (v === undefined || v === '') return undefined;
    const n = parseGoInt(v);
    if (!n.ok) throw newBadRequest(n.error);
    return Number(n.value);
  }
}
