/**
 * The strings extension library (cel-go ext/strings.go at its latest version): charAt, indexOf,
 * lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join, reverse,
 * strings.quote and format (cel-go's formatting_v2 rules). Indices count code points.
 */
import { DynType, IntType, StringType, listOf } from '../check/types.ts';
import { actualSize } from '../eval/planner.ts';
import {
  CelMap,
  CelType,
  Duration,
  Timestamp,
  Uint,
  type Val,
  compareStrings,
  formatDouble,
  formatDuration,
  formatTimestamp,
  isBmp,
  typeName,
} from '../eval/values.ts';
import type { Library } from './decls.ts';
import { err, fn, global, member } from './define.ts';

const S = StringType;
const I = IntType;

function cps(s: string): string[] {
  return isBmp(s) ? s.split('') : Array.from(s);
}

function charAt(s: string, ind: bigint): Val {
  const r = cps(s);
  if (ind < 0n || ind > BigInt(r.length)) return err(`index out of range: ${ind}`);
  return ind === BigInt(r.length) ? '' : r[Number(ind)]!;
}

function indexOf(s: string, sub: string, offset: bigint): Val {
  // A negative offset is an error; the empty string is found at the offset (clamped to the
  // length), as cel-go. A non-empty search from an offset at or past the end is an error, as the
  // cel-spec conformance suite requires (cel-go at HEAD returns -1 there).
  const r = cps(s);
  if (offset < 0n) return err(`index out of range: ${offset}`);
  if (sub === '') return offset > BigInt(r.length) ? BigInt(r.length) : offset;
  if (offset >= BigInt(r.length)) return err(`index out of range: ${offset}`);
  const off = Number(offset);
  const sr = cps(sub);
  outer: for (let i = off; i < r.length - (sr.length - 1); i++) {
    for (let j = 0; j < sr.length; j++) if (r[i + j] !== sr[j]) continue outer;
    return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, offset?: bigint): Val {
  const r = cps(s);
  if (offset === undefined) {
    if (sub === '') return BigInt(r.length);
    offset = BigInt(r.length - 1);
    if (r.length === 0) return -1n;
  } else {
    if (offset < 0n) return err(`index out of range: ${offset}`);
    if (sub === '') return offset > BigInt(r.length) ? BigInt(r.length) : offset;
  }
  if (offset < 0n || offset >= BigInt(r.length)) return err(`index out of range: ${offset}`);
  const sr = cps(sub);
  let off = Number(offset);
  if (off > r.length - sr.length) off = r.length - sr.length;
  outer: for (let i = off; i >= 0; i--) {
    for (let j = 0; j < sr.length; j++) if (r[i + j] !== sr[j]) continue outer;
    return BigInt(i);
  }
  return -1n;
}

const asciiMap = (s: string, f: (c: string) => string) => s.replace(/[A-Za-z]/g, f);

/** Go's strings.Replace(s, old, new, n) (n < 0: all). */
function replaceN(s: string, old: string, rep: string, n: bigint): string {
  if (n < 0n) return old === '' ? goReplaceEmpty(s, rep, -1) : s.split(old).join(rep);
  if (n === 0n || old === rep) return s;
  if (old === '') return goReplaceEmpty(s, rep, Number(n));
  let out = '';
  let rest = s;
  let k = Number(n);
  while (k-- > 0) {
    const i = rest.indexOf(old);
    if (i < 0) break;
    out += rest.slice(0, i) + rep;
    rest = rest.slice(i + old.length);
  }
  return out + rest;
}

function goReplaceEmpty(s: string, rep: string, n: number): string {
  // An empty old string matches before every code point and at the end.
  const r = cps(s);
  let out = '';
  let count = 0;
  for (let i = 0; i <= r.length; i++) {
    if (n < 0 || count < n) {
      out += rep;
      count++;
    }
    if (i < r.length) out += r[i];
  }
  return out;
}

/** Go's strings.SplitN(s, sep, n). */
function splitN(s: string, sep: string, n: bigint): Val {
  if (n === 0n) return [];
  const max = n < 0n ? Infinity : Number(n);
  if (sep === '') {
    const r = cps(s);
    if (r.length <= max) return r;
    return [...r.slice(0, max - 1), r.slice(max - 1).join('')];
  }
  const out: string[] = [];
  let rest = s;
  while (out.length < max - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

function substring(s: string, start: bigint, end?: bigint): Val {
  const r = cps(s);
  const l = BigInt(r.length);
  if (end === undefined) {
    if (start < 0n || start > l) return err(`index out of range: ${start}`);
    return r.slice(Number(start)).join('');
  }
  if (start > end) return err(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > l) return err(`index out of range: ${start}`);
  if (end < 0n || end > l) return err(`index out of range: ${end}`);
  return r.slice(Number(start), Number(end)).join('');
}

/** Go's strings.TrimSpace: Unicode White_Space at both ends. */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]';
const TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');
const trimSpace = (s: string) => s.replace(TRIM, '');

function join(l: Val[], sep: string): Val {
  for (const e of l) if (typeof e !== 'string') return err(`join: invalid input: ${String(e)}`);
  return (l as string[]).join(sep);
}

/** strings.quote: a double-quoted CEL string literal. */
export function quote(s: string): string {
  let out = '"';
  for (const c of s) {
    switch (c) {
      case '\x07':
        out += '\\a';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\v':
        out += '\\v';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '"':
        out += '\\"';
        break;
      default:
        out += c.length === 1 && c >= '\ud800' && c <= '\udfff' ? '\ufffd' : c;
    }
  }
  return out + '"';
}

// ---- format (cel-go formatting_v2) ---------------------------------------------------------------

class FormatError {
  constructor(readonly message: string) {}
}

function goFloatF(d: number): string {
  // strconv.FormatFloat(d, 'f', -1, 64): shortest digits, no exponent.
  if (Number.isInteger(d) && Math.abs(d) < 1e21) return String(d);
  const s = String(d);
  if (!/e/.test(s)) return s;
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s)!;
  const digits = m[2]! + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp < 0) return `${m[1]}0.${'0'.repeat(-exp - 1)}${digits}`;
  return m[1] + digits + '0'.repeat(Math.max(0, exp - digits.length + 1));
}

function formatString(v: Val): string {
  switch (typeof v) {
    case 'boolean':
    case 'bigint':
    case 'string':
      return String(v);
    case 'number':
      if (Number.isNaN(v)) return 'NaN';
      if (v === Infinity) return 'Infinity';
      if (v === -Infinity) return '-Infinity';
      return goFloatF(v);
  }
  if (v === null) return 'null';
  if (v instanceof Uint) return String(v.v);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof Timestamp) return formatTimestamp(v, true);
  if (v instanceof CelType) return v.name;
  if (Array.isArray(v)) return `[${v.map(formatString).join(', ')}]`;
  if (v instanceof CelMap && !v.typeName) {
    const ents = [...v.entries()].map(([k, x]) => [formatString(k), formatString(x)] as const);
    ents.sort((a, b) => compareStrings(a[0], b[0]));
    return `{${ents.map(([k, x]) => `${k}: ${x}`).join(', ')}}`;
  }
  throw new FormatError(
    `string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(v)}`,
  );
}

function nonFinite(d: number): string | undefined {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  return undefined;
}

function numberArg(v: Val, clause: string): number {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Uint) return Number(v.v);
  if (typeof v === 'number') return v;
  throw new FormatError(`${clause} clause can only be used on ints, uints, and doubles, was given ${typeName(v)}`);
}

/** Go's %.Nf: the exact binary value rounded half-to-even at `prec` decimals. */
function fixed(d: number, prec: number): string {
  const nf = nonFinite(d);
  if (nf) return nf;
  const neg = d < 0 || Object.is(d, -0);
  // d = mant * 2^exp exactly.
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(d));
  const bits = buf.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let exp: number;
  if (e === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = e - 1075;
  }
  let num = mant * 10n ** BigInt(prec);
  let den = 1n;
  if (exp >= 0) num <<= BigInt(exp);
  else den <<= BigInt(-exp);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) q++;
  let digits = q.toString().padStart(prec + 1, '0');
  if (prec > 0) digits = `${digits.slice(0, -prec)}.${digits.slice(-prec)}`;
  return (neg ? '-' : '') + digits;
}

function scientific(d: number, prec: number): string {
  const nf = nonFinite(d);
  if (nf) return nf;
  const s = d.toExponential(prec);
  const m = /^(.*)e([+-])(\d+)$/.exec(s)!;
  return `${m[1]}e${m[2]}${m[3]!.padStart(2, '0')}`;
}

function hexOf(v: Val, upper: boolean): string {
  let s: string;
  if (typeof v === 'bigint') s = v < 0n ? '-' + (-v).toString(16) : v.toString(16);
  else if (v instanceof Uint) s = v.v.toString(16);
  else if (typeof v === 'string') s = Buffer.from(v, 'utf8').toString('hex');
  else if (v instanceof Uint8Array) s = Buffer.from(v).toString('hex');
  else throw new FormatError(`only ints, uints, bytes, and strings can be formatted as hex, was given ${typeName(v)}`);
  return upper ? s.toUpperCase() : s;
}

const MAX_PRECISION = 1000;

/** `fmt.format(args)` with cel-go's formatting_v2 clauses: %s %d %f %e %b %x %X %o and %%. */
export function format(f: string, args: readonly Val[]): Val {
  let out = '';
  let argIndex = 0;
  try {
    for (let i = 0; i < f.length; ) {
      const c = f[i]!;
      if (c !== '%') {
        out += c;
        i++;
        continue;
      }
      if (f[i + 1] === '%') {
        out += '%';
        i += 2;
        continue;
      }
      if (argIndex >= args.length) return err(`index ${argIndex} out of range`);
      if (i + 1 >= f.length) return err('unexpected end of string');
      const arg = args[argIndex++]!;
      let j = i + 1;
      let prec = 6;
      if (f[j] === '.') {
        let k = j + 1;
        while (k < f.length && f[k]! >= '0' && f[k]! <= '9') k++;
        if (k >= f.length) return err('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
        prec = Number(f.slice(j + 1, k));
        if (prec > MAX_PRECISION) return err(`could not parse formatting clause: error while parsing precision: precision ${prec} exceeds maximum allowed precision ${MAX_PRECISION}`);
        j = k;
      }
      const clause = f[j];
      let s: string;
      try {
        switch (clause) {
          case 's':
            s = formatString(arg);
            break;
          case 'd': {
            if (typeof arg === 'bigint') s = String(arg);
            else if (arg instanceof Uint) s = String(arg.v);
            else if (typeof arg === 'number') s = nonFinite(arg) ?? goFloatF(arg);
            else throw new FormatError(`decimal clause can only be used on ints, uints, and doubles, was given ${typeName(arg)}`);
            break;
          }
          case 'f':
            s = fixed(numberArg(arg, 'fixed-point'), prec);
            break;
          case 'e':
            s = scientific(numberArg(arg, 'scientific'), prec);
            break;
          case 'b':
            if (typeof arg === 'boolean') s = arg ? '1' : '0';
            else if (typeof arg === 'bigint') s = arg < 0n ? '-' + (-arg).toString(2) : arg.toString(2);
            else if (arg instanceof Uint) s = arg.v.toString(2);
            else throw new FormatError(`only ints, uints, and bools can be formatted as binary, was given ${typeName(arg)}`);
            break;
          case 'x':
          case 'X':
            s = hexOf(arg, clause === 'X');
            break;
          case 'o':
            if (typeof arg === 'bigint') s = arg < 0n ? '-' + (-arg).toString(8) : arg.toString(8);
            else if (arg instanceof Uint) s = arg.v.toString(8);
            else throw new FormatError(`octal clause can only be used on ints and uints, was given ${typeName(arg)}`);
            break;
          default:
            return err(`could not parse formatting clause: unrecognized formatting clause "${clause ?? ''}"`);
        }
      } catch (e) {
        if (e instanceof FormatError) return err(`error during formatting: ${e.message}`);
        throw e;
      }
      out += s;
      i = j + 1;
    }
  } catch (e) {
    if (e instanceof FormatError) return err(e.message);
    throw e;
  }
  return out;
}

/**
 * strings.quote and format cost a traversal of their input (cel-go runtimecost.go). The other
 * functions cost 1, as in the strings library version Kubernetes installs; an Env's callCost
 * estimator supplies Kubernetes' own figures.
 */
const transformCost = (...a: Val[]) => Math.ceil(actualSize(a[0]!) * 0.1);

// ---- format as cel-go's strings library version 2 formats (formatting.go, en_US) ----------------
// Kubernetes installs strings version 2, whose format() predates formatting_v2: %d takes only
// integers, %f/%e only doubles (printed through x/text's en_US number formatting: grouped digits,
// `×10⁰⁰` exponents), and %s quotes strings inside lists and maps.

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

function groupThousands(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function localeFixed(d: number, prec: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return '∞';
  if (d === -Infinity) return '-∞';
  const s = fixed(d, prec);
  const neg = s.startsWith('-');
  const [i, frac] = (neg ? s.slice(1) : s).split('.');
  return (neg ? '-' : '') + groupThousands(i!) + (frac !== undefined ? '.' + frac : '');
}

function localeScientific(d: number, prec: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return '∞';
  if (d === -Infinity) return '-∞';
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(d.toExponential(prec))!;
  const exp = m[3]!.padStart(2, '0').replace(/\d/g, (c) => SUPERSCRIPT[Number(c)]!);
  return `${m[1]}×10${m[2] === '-' ? '⁻' : ''}${exp}`;
}

/** Go's %q: a double-quoted string with Go escapes. */
function goQuote(s: string): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (c === '"' || c === '\\') out += '\\' + c;
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else out += c;
  }
  return out + '"';
}

function v1String(v: Val): string {
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return String(v);
    case 'number':
      return formatDouble(v);
  }
  if (v === null) return 'null';
  if (v instanceof Uint) return String(v.v);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof Timestamp) return formatTimestamp(v);
  if (v instanceof CelType) return v.name;
  if (Array.isArray(v)) return `[${v.map(v1Element).join(', ')}]`;
  if (v instanceof CelMap && !v.typeName) {
    const ents: [string, string][] = [];
    for (const [k, x] of v.entries()) {
      let key: string;
      if (typeof k === 'string' || typeof k === 'boolean') key = v1Quote(k, String(k));
      else if (typeof k === 'bigint') key = String(k);
      else if (k instanceof Uint) key = String(k.v);
      else throw new FormatError(`no formatting function for map key of type ${typeName(k)}`);
      ents.push([key, v1Element(x)]);
    }
    ents.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `{${ents.map(([k, x]) => `${k}:${x}`).join(', ')}}`;
  }
  throw new FormatError(
    `string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(v)}`,
  );
}

function v1Quote(v: Val, s: string): string {
  if (typeof v === 'string') return goQuote(s);
  if (v instanceof Uint8Array) return 'b' + goQuote(s);
  if (typeof v === 'number' && !Number.isFinite(v)) return goQuote(s);
  return s;
}

/** A list element or map value (cel-go's clauseForType, then quoteForCEL). */
function v1Element(v: Val): string {
  if (typeof v === 'bigint' || v instanceof Uint) return String(v instanceof Uint ? v.v : v);
  // Go's fmt.Sprintf("%.6f"): no grouping; NaN and ±Inf print as NaN, +Inf, -Inf (then quoted).
  if (typeof v === 'number') return v1Quote(v, Number.isFinite(v) ? fixed(v, 6) : formatDouble(v));
  if (v instanceof Timestamp) return `timestamp(${goQuote(formatTimestamp(v))})`;
  if (v instanceof Duration) return `duration(${goQuote(formatDuration(v))})`;
  return v1Quote(v, v1String(v));
}

const FLOAT_STRINGS = new Map([
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
]);

function v1Double(v: Val, clause: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && FLOAT_STRINGS.has(v)) return FLOAT_STRINGS.get(v)!;
  throw new FormatError(`${clause} clause can only be used on doubles, was given ${typeName(v)}`);
}

function v1Clause(clause: string, arg: Val, prec: number | undefined): string {
  switch (clause) {
    case 's':
      return v1String(arg);
    case 'd':
      if (typeof arg === 'bigint') return String(arg);
      if (arg instanceof Uint) return String(arg.v);
      throw new FormatError(`decimal clause can only be used on integers, was given ${typeName(arg)}`);
    case 'f':
      return localeFixed(v1Double(arg, 'fixed-point'), prec ?? 6);
    case 'e':
      return localeScientific(v1Double(arg, 'scientific'), prec ?? 6);
    case 'b':
      if (typeof arg === 'boolean') return arg ? '1' : '0';
      if (typeof arg === 'bigint') return arg < 0n ? '-' + (-arg).toString(2) : arg.toString(2);
      if (arg instanceof Uint) return arg.v.toString(2);
      throw new FormatError(`only integers and bools can be formatted as binary, was given ${typeName(arg)}`);
    case 'x':
    case 'X':
      if (typeof arg === 'number') throw new FormatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(arg)}`);
      try {
        return hexOf(arg, clause === 'X');
      } catch {
        throw new FormatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(arg)}`);
      }
    case 'o':
      if (typeof arg === 'bigint') return arg < 0n ? '-' + (-arg).toString(8) : arg.toString(8);
      if (arg instanceof Uint) return arg.v.toString(8);
      throw new FormatError(`octal clause can only be used on integers, was given ${typeName(arg)}`);
  }
  throw new FormatError(`unrecognized formatting clause "${clause}"`);
}

/** `fmt.format(args)` as cel-go's strings library version 2 (what Kubernetes installs) formats. */
export function formatV1(f: string, args: readonly Val[]): Val {
  let out = '';
  let argIndex = 0;
  for (let i = 0; i < f.length; ) {
    const c = f[i]!;
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    if (f[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (argIndex >= args.length) return err(`index ${argIndex} out of range`);
    if (i + 1 >= f.length) return err('unexpected end of string');
    const arg = args[argIndex++]!;
    let j = i + 1;
    let prec: number | undefined;
    if (f[j] === '.') {
      let k = j + 1;
      while (k < f.length && f[k]! >= '0' && f[k]! <= '9') k++;
      if (k >= f.length) return err('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
      prec = Number(f.slice(j + 1, k));
      if (prec > MAX_PRECISION) return err(`could not parse formatting clause: error while parsing precision: precision ${prec} exceeds maximum allowed precision ${MAX_PRECISION}`);
      j = k;
    }
    const clause = f[j]!;
    if (!'sdfebxXo'.includes(clause)) return err(`could not parse formatting clause: unrecognized formatting clause "${clause}"`);
    try {
      out += v1Clause(clause, arg, prec);
    } catch (e) {
      if (e instanceof FormatError) return err(`error during formatting: ${e.message}`);
      throw e;
    }
    i = j + 1;
  }
  return out;
}

/** The strings extension library. */
export const stringsLibrary: Library = {
  name: 'cel.lib.ext.strings',
  functions: [
    fn('charAt', member('string_char_at_int', [S, I], S, charAt)),
    fn(
      'indexOf',
      member('string_index_of_string', [S, S], I, (s: string, sub: string) => indexOf(s, sub, 0n)),
      member('string_index_of_string_int', [S, S, I], I, indexOf),
    ),
    fn(
      'lastIndexOf',
      member('string_last_index_of_string', [S, S], I, (s: string, sub: string) => lastIndexOf(s, sub)),
      member('string_last_index_of_string_int', [S, S, I], I, lastIndexOf),
    ),
    fn('lowerAscii', member('string_lower_ascii', [S], S, (s: string) => asciiMap(s, (c) => c.toLowerCase()))),
    fn('upperAscii', member('string_upper_ascii', [S], S, (s: string) => asciiMap(s, (c) => c.toUpperCase()))),
    fn(
      'replace',
      member('string_replace_string_string', [S, S, S], S, (s: string, o: string, n: string) => replaceN(s, o, n, -1n)),
      member('string_replace_string_string_int', [S, S, S, I], S, replaceN),
    ),
    fn(
      'split',
      member('string_split_string', [S, S], listOf(S), (s: string, sep: string) => splitN(s, sep, -1n)),
      member('string_split_string_int', [S, S, I], listOf(S), splitN),
    ),
    fn(
      'substring',
      member('string_substring_int', [S, I], S, (s: string, a: bigint) => substring(s, a)),
      member('string_substring_int_int', [S, I, I], S, substring),
    ),
    fn('trim', member('string_trim', [S], S, trimSpace)),
    fn('reverse', member('string_reverse', [S], S, (s: string) => cps(s).reverse().join(''))),
    fn(
      'join',
      member('list_join', [listOf(S)], S, (l: Val[]) => join(l, '')),
      member('list_join_string', [listOf(S), S], S, join),
    ),
    fn('strings.quote', global('strings_quote', [S], S, quote, { cost: transformCost })),
    fn('format', member('string_format', [S, listOf(DynType)], S, (f: string, a: Val[]) => format(f, a), { cost: transformCost })),
  ],
};

/**
 * The strings library as cel-go's version 2 declares it, which Kubernetes installs: the functions
 * up to version 2 (no `reverse`, which version 3 added), with format() following the version 2
 * rules (formatV1).
 */
export const stringsLibraryV2: Library = {
  name: 'cel.lib.ext.strings.v2',
  functions: stringsLibrary.functions
    .filter((f) => f.name !== 'reverse')
    .map((f) =>
      f.name === 'format'
        ? fn('format', member('string_format', [S, listOf(DynType)], S, (fmt: string, a: Val[]) => formatV1(fmt, a), { cost: transformCost }))
        : f,
    ),
};
