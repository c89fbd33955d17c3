/**
 * Rendering of bad values the way Go's fmt prints them in field errors: `%v` for numbers and
 * bools, `%q` for strings, `%#v` for maps and slices of unstructured JSON
 * (`map[string]interface {}{"a":1}`, `[]interface {}{"x"}`), `null` for nil.
 *
 * JSON numbers lose Go's int64/float64 distinction in JavaScript; a value known to be a Go
 * float64 can be wrapped in GoFloat so that it prints as Go prints floats (`1e+06`).
 */

/** A number that Go held as float64. */
export class GoFloat {
  constructor(readonly value: number) {}
}

/** Go's strconv.Quote for a string (%q). */
export function goQuote(s: string): string {
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
      case '\n':
        out += '\\n';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\r':
        out += '\\r';
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
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp >= 0x80 && cp < 0xa0) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/** Go's %v of a float64 (strconv.FormatFloat(f, 'g', -1, 64) with Go's exponent form). */
export function goFloatString(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const abs = Math.abs(f);
  const exp = Math.floor(Math.log10(abs));
  // %g uses scientific notation when exp < -4 || exp >= precision (shortest repr digits, min 21 for 'v').
  const shortest = String(f);
  const digits = shortest.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').length;
  const eprec = Math.max(digits, 1);
  if (exp < -4 || exp >= Math.max(eprec, 21)) {
    const [mant, e] = f.toExponential().split('e');
    const n = Number(e);
    const sign = n < 0 ? '-' : '+';
    return `${mant}e${sign}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  return abs >= 1e21 ? f.toFixed(0) : shortest;
}

function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloatString(v);
  if (typeof v === 'bigint') return String(v);
  if (v instanceof GoFloat) return goFloatString(v.value);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (typeof v === 'object') {
    const keys = Object.keys(v as object).sort();
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpV((v as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  return String(v);
}

/** The bad-value part of a field error as field.Error.ErrorBody() prints it. */
export function formatGoValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloatString(v);
  if (v instanceof GoFloat) return goFloatString(v.value);
  return goSharpV(v);
}
