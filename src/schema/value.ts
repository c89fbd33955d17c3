/**
 * The JSON value model the schema algorithms share, with Go's decoding semantics.
 *
 * Kubernetes decodes JSON numbers into int64 when the literal is an integer and into float64
 * otherwise; several checks depend on that (integer vs number type errors, int32/int64 range checks,
 * set uniqueness). In JavaScript a value is:
 *   - `bigint`: an int64 (used for integers outside the safe range, e.g. 9223372036854775807);
 *   - `number`: an int64 when it is a safe integer, otherwise a float64;
 *   - `GoFloat` (from apimachinery/field/govalue.ts): a float64 even when integral (`1.0`).
 * Everything else is plain JSON: null, boolean, string, array, object.
 */
import { GoFloat, goFloatsMade } from '../apimachinery/index.ts';
import { writeJSONIteratively, type JSONWriter } from '../apimachinery/index.ts';

// Until the process has made a GoFloat no value is one: the instanceof (a generic one, costly on
// every object of a walk) is skipped.
const made = goFloatsMade;

export type GoKind = 'null' | 'bool' | 'int' | 'float' | 'string' | 'array' | 'object';

/** The Go dynamic type a decoded JSON value would have. */
export function goKind(v: unknown): GoKind {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isSafeInteger(v) && !Object.is(v, -0) ? 'int' : 'float';
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'object':
      if (v === null) return 'null';
      if (Array.isArray(v)) return 'array';
      if (made.any && v instanceof GoFloat) return 'float';
      return 'object';
    default:
      return 'null';
  }
}

/** True for a JSON object (a Go map[string]interface{}). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(made.any && v instanceof GoFloat);
}

/** The numeric value as a JS number (bigint and GoFloat unwrapped). */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof GoFloat) return v.value;
  return 0;
}

/** runtime.DeepCopyJSONValue: apimachinery's one deep copy (GoFloat and bigint kept). */
export { deepCopyJSON } from '../apimachinery/index.ts';

/**
 * reflect.DeepEqual over decoded JSON: int64 and float64 are different types in Go, so `1` and
 * `1.0` (GoFloat) differ; numbers of the same kind compare by value.
 */
export function deepEqualJSON(a: unknown, b: unknown): boolean {
  return equalAt(a, b, 0);
}

/** Levels compared by recursion; deeper pairs go on an explicit stack. */
const equalRecursionLimit = 200;

/** One level of deepEqualJSON; `sub` decides each pair of children. */
function equalLevel(a: unknown, b: unknown, sub: (x: unknown, y: unknown) => boolean): boolean {
  if (a === b) return true;
  const ka = goKind(a);
  const kb = goKind(b);
  if (ka !== kb) return false;
  switch (ka) {
    case 'int':
      return BigInt(typeof a === 'bigint' ? a : toNumber(a)) === BigInt(typeof b === 'bigint' ? b : toNumber(b));
    case 'float': {
      const x = toNumber(a);
      const y = toNumber(b);
      return x === y;
    }
    case 'array': {
      const x = a as unknown[];
      const y = b as unknown[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (!sub(x[i], y[i])) return false;
      return true;
    }
    case 'object': {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      for (const k of kx) {
        if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
        if (!sub(x[k], y[k])) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

function equalAt(a: unknown, b: unknown, depth: number): boolean {
  if (depth < equalRecursionLimit) return equalLevel(a, b, (x, y) => equalAt(x, y, depth + 1));
  // Containers are queued rather than compared; a queued pair that differs fails when popped.
  const pending: unknown[] = [a, b];
  const queue = (x: unknown, y: unknown): boolean => {
    const kx = goKind(x);
    if ((kx === 'array' || kx === 'object') && kx === goKind(y)) {
      pending.push(x, y);
      return true;
    }
    return equalLevel(x, y, queue);
  };
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (!equalLevel(x, y, queue)) return false;
  }
  return true;
}

/** encoding/json.Marshal of a decoded JSON value: object keys sorted, as Go marshals maps. */
export function goJSONMarshal(v: unknown): string {
  return marshal(v, 0);
}

/** Levels marshalled by recursion; deeper subtrees go to the explicit-stack writer. */
const marshalRecursionLimit = 200;

const goWriter: JSONWriter = {
  compareKeys: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  scalar: (v) => marshalScalar(v),
  isScalar: (v) => made.any && v instanceof GoFloat,
  key: (k) => goJSONString(k),
};

function marshalScalar(v: unknown): string {
  switch (goKind(v)) {
    case 'null':
      return 'null';
    case 'bool':
      return v ? 'true' : 'false';
    case 'int':
      return String(v);
    case 'float':
      return goFloatJSON(toNumber(v));
    default:
      return goJSONString(v as string);
  }
}

function marshal(v: unknown, depth: number): string {
  switch (goKind(v)) {
    case 'array':
      if (depth === marshalRecursionLimit) return writeJSONIteratively(v, goWriter);
      return '[' + (v as unknown[]).map((x) => marshal(x, depth + 1)).join(',') + ']';
    case 'object': {
      if (depth === marshalRecursionLimit) return writeJSONIteratively(v, goWriter);
      const o = v as Record<string, unknown>;
      return '{' + Object.keys(o).sort().map((k) => goJSONString(k) + ':' + marshal(o[k], depth + 1)).join(',') + '}';
    }
    default:
      return marshalScalar(v);
  }
}

/** Go's encoding/json float64 formatting ('f' unless the exponent is < -6 or >= 21). */
function goFloatJSON(f: number): string {
  const abs = Math.abs(f);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    // Go: strconv 'e' format, then "e-07" -> "e-7" cleanup.
    let s = f.toExponential();
    s = s.replace(/e([+-])(\d)$/, 'e$10$2');
    const m = /^(.*e[+-])0(\d)$/.exec(s);
    if (m) s = m[1]! + m[2]!;
    return s;
  }
  return String(f);
}

/** encoding/json string escaping (HTML-safe, as Go's default encoder). */
function goJSONString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c < 0x20) {
      if (ch === '\n') out += '\\n';
      else if (ch === '\r') out += '\\r';
      else if (ch === '\t') out += '\\t';
      else out += '\\u' + c.toString(16).padStart(4, '0');
    } else if (ch === '<' || ch === '>' || ch === '&') out += '\\u' + c.toString(16).padStart(4, '0');
    else if (c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16);
    else out += ch;
  }
  return out + '"';
}
