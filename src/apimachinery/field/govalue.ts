/**
 * Rendering of bad values the way field.Error.ErrorBody() prints them in Kubernetes 1.34+:
 * `%v` for int64, float64 and bool, `%q` for strings, and `json.Marshal` for everything else
 * (maps as `{"a":1}` with sorted keys, slices as `["x"]`, nil as `null`).
 *
 * JSON numbers lose Go's int64/float64 distinction in JavaScript; an integral number prints as
 * int64 does. A value known to be a Go float64 can be wrapped in GoFloat so that it prints as Go
 * prints floats (`1e+06`). A bigint prints as an int64.
 */

import { writeJSONIteratively, type JSONWriter } from '../json/stringify.ts';

/** A number that Go held as float64. */
export class GoFloat {
  constructor(readonly value: number) {
    goFloatsMade.any = true;
  }
}

/**
 * Whether this process has made a GoFloat yet. Decoded requests and manifests never hold one
 * (only Kubernetes' test tables do, read by gojson.ts): until one exists, no value can be one, and
 * the generated validators skip the check (fastpath.ts).
 */
export const goFloatsMade = { any: false };

/**
 * A value whose Go JSON encoding is already known (a Go struct marshals its fields in
 * declaration order, which a plain object cannot carry through goJSON's map-style key sort).
 */
export class GoJSONText {
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

// Printable ASCII other than `"` and `\`: strconv.Quote copies such a string unchanged.
const plainASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * plainASCII.test(s): a loop over short strings, which costs a fraction of a regex call (error
 * messages quote a value each; most are short).
 */
function isPlainASCII(s: string): boolean {
  if (s.length > 64) return plainASCII.test(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** Go's strconv.Quote for a string (%q): Go escapes, non-printable runes as \x, \u or \U. */
export function goQuote(s: string): string {
  if (isPlainASCII(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
      // A lone surrogate cannot reach Go: its JSON decoder turns it into U+FFFD, which is printable.
      out += '\ufffd';
    } else if (cp < 0x20 || cp === 0x7f) {
      out += '\\x' + cp.toString(16).padStart(2, '0');
    } else if (printable.test(ch)) {
      out += ch;
    } else if (cp < 0x10000) {
      out += '\\u' + cp.toString(16).padStart(4, '0');
    } else {
      out += '\\U' + cp.toString(16).padStart(8, '0');
    }
  }
  return out + '"';
}

/**
 * Go's %v of a float64: strconv.FormatFloat(f, 'g', -1, 64), which switches to the exponent form
 * when the decimal exponent is < -4 or >= 6 (`1e+06`, `1.5e-05`, `123456`).
 */
export function goFloatString(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // toExponential() without an argument yields the shortest round-tripping digits, as Go's does.
  const [mant, e] = f.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mant}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  // In this range JavaScript prints the plain decimal form with the same shortest digits.
  return String(f);
}

/** Go's encoding/json output for a float64 (the exponent form below 1e-6 and from 1e21). */
function goJSONFloat(f: number): string {
  // JSON.stringify uses the same shortest digits and the same thresholds as Go's encoder
  // (which cleans `e-07` to `e-7`); non-finite values cannot be marshalled in Go.
  if (!Number.isFinite(f)) return 'null';
  return JSON.stringify(f);
}

/** Go's json.Marshal string escaping, including its HTML-safe escapes. */
/** Strings Go and JSON.stringify write alike: printable ASCII without `"`, `\\`, `<`, `>`, `&`. */
const plainJSONString = /^[\x20-\x21\x23-\x25\x27-\x3b\x3d\x3f-\x5b\x5d-\x7e]*$/;

function goJSONString(s: string): string {
  // The common case (field names, keys, values of managedFields) needs none of the rewriting below.
  if (plainJSONString.test(s)) return '"' + s + '"';
  return JSON.stringify(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Orders strings by their UTF-8 bytes, as Go sorts map keys. */
function compareUTF8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** json.Marshal of unstructured JSON data, byte for byte as Go writes it. */
export function goJSON(v: unknown): string {
  return marshal(v, 0);
}

/** Levels marshalled by recursion; deeper subtrees go to the explicit-stack writer. */
const marshalRecursionLimit = 200;

function marshalScalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJSONString(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return goJSONFloat(v);
  if (v instanceof GoFloat) return goJSONFloat(v.value);
  if (v instanceof GoJSONText) return v.text;
  return goJSONString(String(v));
}

const goWriter: JSONWriter = {
  compareKeys: compareUTF8,
  scalar: marshalScalar,
  isScalar: (v) => v instanceof GoFloat || v instanceof GoJSONText,
  key: goJSONString,
};

function marshal(v: unknown, depth: number): string {
  if (v === null || typeof v !== 'object' || v instanceof GoFloat || v instanceof GoJSONText) return marshalScalar(v);
  if (depth === marshalRecursionLimit) return writeJSONIteratively(v, goWriter);
  if (Array.isArray(v)) return `[${v.map((x) => marshal(x, depth + 1)).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort(compareUTF8);
  return `{${keys.map((k) => `${goJSONString(k)}:${marshal(o[k], depth + 1)}`).join(',')}}`;
}

/** The bad-value part of a field error as field.Error.ErrorBody() prints it. */
export function formatGoValue(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') {
    // Kubernetes' JSON decoder keeps integers that fit int64 as int64, everything else as float64.
    return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? String(BigInt(v)) : goFloatString(v);
  }
  if (v instanceof GoFloat) return goFloatString(v.value);
  return goJSON(v);
}
