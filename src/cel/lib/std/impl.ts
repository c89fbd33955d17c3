/**
 * Implementations of CEL's standard library, keyed by cel-go's overload ids (common/overloads):
 * arithmetic with overflow checks, comparisons across numeric types, size, string predicates,
 * regular expressions, conversions, timestamp/duration accessors. Each overload also carries the
 * runtime signature the dispatcher matches on and, where cel-go's runtimecost.go charges more than
 * the default 1, its call cost. Declarations for the checker live in std/decls.ts.
 */
import { type Kind, type RtOverload } from '../../eval/dispatch.ts';
import { actualSize, appendOwned, checkListSize } from '../../eval/planner.ts';
import {
  civil,
  makeTimestamp,
  parseDuration,
  parseTimestamp,
  type CivilTime,
} from '../../eval/time.ts';
import {
  CelError,
  CelMap,
  Duration,
  INT_MAX,
  INT_MIN,
  Timestamp,
  UINT_MAX,
  Uint,
  type Val,
  bytesToString,
  checkInt,
  checkUint,
  compare,
  equality,
  listBehaviorOf,
  listContains,
  errDivZero,
  errModZero,
  errOverflow,
  errUintOverflow,
  floorDiv,
  formatDouble,
  formatDuration,
  formatTimestamp,
  stringToBytes,
  typeOfValue,
} from '../../eval/values.ts';
import { RegexSyntaxError, compileRegex } from '../re2.ts';

type Impl = (...a: any[]) => Val;

const out: RtOverload[] = [];

/** Declares one overload: sig is the parameter kinds separated by spaces; a leading '.' marks receiver style. */
function def(id: string, name: string, sig: string, impl: Impl, cost?: RtOverload['cost']): void {
  const receiver = sig.startsWith('.');
  const kinds = (receiver ? sig.slice(1) : sig).split(' ').filter(Boolean) as Kind[];
  out.push({ id, name, receiver, kinds, impl, cost });
}

const traversal = (n: number) => Math.ceil(n * 0.1);
const costFirstArg: RtOverload['cost'] = (a) => traversal(actualSize(a[0]!));
/**
 * startsWith/endsWith: a traversal of the prefix or suffix. Kubernetes' pinned figures (cel-go
 * v0.29: `self.val1.startsWith('Rook')` costs 3 on a 12- and on a 3M-character val1) charge the
 * argument, not the receiver.
 */
const costSecondArg: RtOverload['cost'] = (a) => traversal(actualSize(a[1]!));
const costMin: RtOverload['cost'] = (a) => traversal(Math.min(actualSize(a[0]!), actualSize(a[1]!)));
const costSum: RtOverload['cost'] = (a) => traversal(actualSize(a[0]!) + actualSize(a[1]!));

const NS = 1_000_000_000n;
const conversionError = (from: string, to: string) => new CelError(`type conversion error from '${from}' to '${to}'`);

// ---- logic -------------------------------------------------------------------------------------

def('logical_not', '!_', 'z', (a: boolean) => !a);

// ---- arithmetic --------------------------------------------------------------------------------

def('add_int64', '_+_', 'i i', (a: bigint, b: bigint) => checkInt(a + b));
def('add_uint64', '_+_', 'u u', (a: Uint, b: Uint) => checkUint(a.v + b.v));
def('add_double', '_+_', 'd d', (a: number, b: number) => a + b);
def('add_string', '_+_', 's s', (a: string, b: string) => a + b, costSum);
def('add_bytes', '_+_', 'b b', (a: Uint8Array, b: Uint8Array) => {
  const r = new Uint8Array(a.length + b.length);
  r.set(a);
  r.set(b, a.length);
  return r;
}, costSum);
def('add_list', '_+_', 'l l', (a: Val[], b: Val[]) => {
  const lb = listBehaviorOf(a);
  if (lb !== undefined) return lb.add(a, b);
  const owned = appendOwned(a, b);
  if (owned !== undefined) return owned;
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  checkListSize(a.length + b.length);
  return [...a, ...b];
});
def('add_timestamp_duration', '_+_', 't D', (a: Timestamp, b: Duration) => makeTimestamp(a.ns + b.ns, a.offset));
def('add_duration_timestamp', '_+_', 'D t', (a: Duration, b: Timestamp) => makeTimestamp(a.ns + b.ns, b.offset));
def('add_duration_duration', '_+_', 'D D', (a: Duration, b: Duration) => durationOrOverflow(a.ns + b.ns));

def('subtract_int64', '_-_', 'i i', (a: bigint, b: bigint) => checkInt(a - b));
def('subtract_uint64', '_-_', 'u u', (a: Uint, b: Uint) => checkUint(a.v - b.v));
def('subtract_double', '_-_', 'd d', (a: number, b: number) => a - b);
def('subtract_timestamp_timestamp', '_-_', 't t', (a: Timestamp, b: Timestamp) => durationOrOverflow(a.ns - b.ns));
def('subtract_timestamp_duration', '_-_', 't D', (a: Timestamp, b: Duration) => makeTimestamp(a.ns - b.ns, a.offset));
def('subtract_duration_duration', '_-_', 'D D', (a: Duration, b: Duration) => durationOrOverflow(a.ns - b.ns));

def('multiply_int64', '_*_', 'i i', (a: bigint, b: bigint) => checkInt(a * b));
def('multiply_uint64', '_*_', 'u u', (a: Uint, b: Uint) => checkUint(a.v * b.v));
def('multiply_double', '_*_', 'd d', (a: number, b: number) => a * b);

def('divide_int64', '_/_', 'i i', (a: bigint, b: bigint) => {
  if (b === 0n) return errDivZero();
  if (a === INT_MIN && b === -1n) return errOverflow();
  return a / b;
});
def('divide_uint64', '_/_', 'u u', (a: Uint, b: Uint) => (b.v === 0n ? errDivZero() : new Uint(a.v / b.v)));
def('divide_double', '_/_', 'd d', (a: number, b: number) => a / b);
def('modulo_int64', '_%_', 'i i', (a: bigint, b: bigint) => {
  if (b === 0n) return errModZero();
  if (a === INT_MIN && b === -1n) return errOverflow();
  return a % b;
});
def('modulo_uint64', '_%_', 'u u', (a: Uint, b: Uint) => (b.v === 0n ? errModZero() : new Uint(a.v % b.v)));
def('negate_int64', '-_', 'i', (a: bigint) => (a === INT_MIN ? errOverflow() : -a));
def('negate_double', '-_', 'd', (a: number) => -a);

function durationOrOverflow(ns: bigint): Val {
  return ns < INT_MIN || ns > INT_MAX ? errOverflow() : new Duration(ns);
}

// ---- comparisons -------------------------------------------------------------------------------

const ORDER_OPS: [string, string, (c: number) => boolean][] = [
  ['less', '_<_', (c) => c < 0],
  ['less_equals', '_<=_', (c) => c <= 0],
  ['greater', '_>_', (c) => c > 0],
  ['greater_equals', '_>=_', (c) => c >= 0],
];
const ORDER_TYPES: [string, string][] = [
  ['bool', 'z z'],
  ['int64', 'i i'],
  ['int64_double', 'i d'],
  ['int64_uint64', 'i u'],
  ['uint64', 'u u'],
  ['uint64_double', 'u d'],
  ['uint64_int64', 'u i'],
  ['double', 'd d'],
  ['double_int64', 'd i'],
  ['double_uint64', 'd u'],
  ['string', 's s'],
  ['bytes', 'b b'],
  ['timestamp', 't t'],
  ['duration', 'D D'],
];
for (const [prefix, op, test] of ORDER_OPS) {
  for (const [suffix, sig] of ORDER_TYPES) {
    const traversing = suffix === 'string' || suffix === 'bytes';
    def(`${prefix}_${suffix}`, op, sig, (a: Val, b: Val) => {
      const c = compare(a, b);
      return typeof c === 'number' ? test(c) : c;
    }, traversing ? costMin : undefined);
  }
}
def('equals', '_==_', '* *', (a: Val, b: Val) => equality(a, b), costMin);
def('not_equals', '_!=_', '* *', (a: Val, b: Val) => {
  const r = equality(a, b);
  return typeof r === 'boolean' ? !r : r;
}, costMin);

// ---- containers --------------------------------------------------------------------------------

def('in_list', '@in', '* l', (x: Val, l: Val[]) => listContains(l, x), (a) => actualSize(a[1]!));
def('in_map', '@in', '* m', (x: Val, m: CelMap) => m.has(x));

const sizeOf = (v: Val) => BigInt(actualSize(v));
def('size_string', 'size', 's', sizeOf);
def('size_bytes', 'size', 'b', sizeOf);
def('size_list', 'size', 'l', sizeOf);
def('size_map', 'size', 'm', sizeOf);
def('string_size', 'size', '.s', sizeOf);
def('bytes_size', 'size', '.b', sizeOf);
def('list_size', 'size', '.l', sizeOf);
def('map_size', 'size', '.m', sizeOf);

// ---- strings -----------------------------------------------------------------------------------

def('contains_string', 'contains', '.s s', (s: string, sub: string) => s.includes(sub), (a) =>
  traversal(actualSize(a[0]!)) * traversal(actualSize(a[1]!)),
);
def('starts_with_string', 'startsWith', '.s s', (s: string, p: string) => s.startsWith(p), costSecondArg);
def('ends_with_string', 'endsWith', '.s s', (s: string, p: string) => s.endsWith(p), costSecondArg);

/** RE2 match (Go's MatchString); a bad pattern is an error value with Go's message. */
export function regexMatches(s: string, pattern: string): Val {
  try {
    return compileRegex(pattern).test(s);
  } catch (e) {
    if (e instanceof RegexSyntaxError) return new CelError(e.message);
    throw e;
  }
}
def('matches_string', 'matches', '.s s', regexMatches, (a) => matchCostFactor(a[0]!) * patternCostFactor(a[1]!));

/** ceil((1 + size) * 0.1): 1 for a string of at most 9 code units, which have at most 9 code points. */
function matchCostFactor(s: Val): number {
  return typeof s === 'string' && s.length <= 9 ? 1 : Math.ceil((1 + actualSize(s)) * 0.1);
}

/** ceil(size * 0.25) of the pattern, kept for the last pattern (a call site's is nearly always a constant). */
function patternCostFactor(p: Val): number {
  if (p !== lastCostPattern) {
    lastCostPattern = p;
    lastPatternFactor = Math.ceil(actualSize(p) * 0.25);
  }
  return lastPatternFactor;
}
let lastCostPattern: Val | undefined;
let lastPatternFactor = 0;
def('matches', 'matches', 's s', regexMatches);

// ---- conversions -------------------------------------------------------------------------------

def('int64_to_int64', 'int', 'i', (a: bigint) => a);
def('uint64_to_int64', 'int', 'u', (a: Uint) => (a.v > INT_MAX ? errOverflow() : a.v));
def('double_to_int64', 'int', 'd', (d: number) => {
  if (!Number.isFinite(d) || d <= -9223372036854775808 || d >= 9223372036854775807) return errOverflow();
  return BigInt(Math.trunc(d));
});
def('string_to_int64', 'int', 's', (s: string) => (/^[+-]?\d+$/.test(s) && inInt(BigInt(s)) ? BigInt(s) : conversionError('string', 'int')));
def('timestamp_to_int64', 'int', 't', (t: Timestamp) => floorDiv(t.ns, NS));
def('duration_to_int64', 'int', 'D', (d: Duration) => d.ns);

function inInt(b: bigint): boolean {
  return b >= INT_MIN && b <= INT_MAX;
}

def('uint64_to_uint64', 'uint', 'u', (a: Uint) => a);
def('int64_to_uint64', 'uint', 'i', (a: bigint) => (a < 0n ? errUintOverflow() : new Uint(a)));
def('double_to_uint64', 'uint', 'd', (d: number) => {
  if (!Number.isFinite(d) || d < 0 || d >= 18446744073709551616) return errUintOverflow();
  return new Uint(BigInt(Math.trunc(d)));
});
def('string_to_uint64', 'uint', 's', (s: string) => {
  if (!/^\d+$/.test(s)) return conversionError('string', 'uint'); // ParseUint takes no sign
  const b = BigInt(s);
  return b > UINT_MAX ? conversionError('string', 'uint') : new Uint(b);
});

def('double_to_double', 'double', 'd', (d: number) => d);
def('int64_to_double', 'double', 'i', (a: bigint) => Number(a));
def('uint64_to_double', 'double', 'u', (a: Uint) => Number(a.v));
def('string_to_double', 'double', 's', (s: string) => {
  const d = parseGoFloat(s);
  return d === undefined ? conversionError('string', 'double') : d;
});

/** Go's strconv.ParseFloat(s, 64) for decimal, exponent, inf and NaN forms. */
function parseGoFloat(s: string): number | undefined {
  if (/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)$/.test(s)) {
    const d = Number(s);
    return Number.isFinite(d) ? d : undefined; // beyond float64: ErrRange
  }
  const l = s.toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(l)) return l.startsWith('-') ? -Infinity : Infinity;
  if (l === 'nan') return NaN;
  return undefined;
}

def('bool_to_bool', 'bool', 'z', (b: boolean) => b);
def('string_to_bool', 'bool', 's', (s: string) => {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return conversionError('string', 'bool');
});

def('bytes_to_bytes', 'bytes', 'b', (b: Uint8Array) => b);
def('string_to_bytes', 'bytes', 's', (s: string) => stringToBytes(s), costFirstArg);

def('string_to_string', 'string', 's', (s: string) => s);
def('bool_to_string', 'string', 'z', (b: boolean) => String(b));
const SAFE = 9007199254740991n;
/** Decimal text of an int (through Number when exact: V8 prints small numbers much faster than bigints). */
// (The bound's negation once: `-SAFE` in the test would allocate a BigInt per call.)
const NEG_SAFE = -SAFE;
const intText = (a: bigint) => (a >= NEG_SAFE && a <= SAFE ? String(Number(a)) : String(a));
def('int64_to_string', 'string', 'i', intText);
def('uint64_to_string', 'string', 'u', (a: Uint) => intText(a.v));
def('double_to_string', 'string', 'd', (d: number) => formatDouble(d));
def('bytes_to_string', 'string', 'b', (b: Uint8Array) => bytesToString(b) ?? new CelError('invalid UTF-8 in bytes, cannot convert to string'), costFirstArg);
def('timestamp_to_string', 'string', 't', (t: Timestamp) => formatTimestamp(t));
def('duration_to_string', 'string', 'D', (d: Duration) => formatDuration(d));

def('timestamp_to_timestamp', 'timestamp', 't', (t: Timestamp) => t);
def('string_to_timestamp', 'timestamp', 's', (s: string) => parseTimestamp(s));
def('int64_to_timestamp', 'timestamp', 'i', (a: bigint) => makeTimestamp(a * NS));
def('duration_to_duration', 'duration', 'D', (d: Duration) => d);
def('string_to_duration', 'duration', 's', (s: string) => parseDuration(s));

def('type', 'type', '*', (v: Val) => typeOfValue(v));
def('to_dyn', 'dyn', '*', (v: Val) => v);

// ---- timestamps and durations ------------------------------------------------------------------

const FIELDS: [string, string, (c: CivilTime) => number][] = [
  ['getFullYear', 'timestamp_to_year', (c) => c.year],
  ['getMonth', 'timestamp_to_month', (c) => c.month],
  ['getDayOfYear', 'timestamp_to_day_of_year', (c) => c.dayOfYear],
  ['getDayOfMonth', 'timestamp_to_day_of_month', (c) => c.day - 1],
  ['getDate', 'timestamp_to_day_of_month_1_based', (c) => c.day],
  ['getDayOfWeek', 'timestamp_to_day_of_week', (c) => c.dayOfWeek],
  ['getHours', 'timestamp_to_hours', (c) => c.hours],
  ['getMinutes', 'timestamp_to_minutes', (c) => c.minutes],
  ['getSeconds', 'timestamp_to_seconds', (c) => c.seconds],
  ['getMilliseconds', 'timestamp_to_milliseconds', (c) => c.millis],
];
for (const [name, id, get] of FIELDS) {
  def(id, name, '.t', (t: Timestamp) => {
    const c = civil(t);
    return c instanceof CelError ? c : BigInt(get(c));
  });
  const tzId = id === 'timestamp_to_seconds' ? 'timestamp_to_seconds_tz' : `${id}_with_tz`;
  def(tzId, name, '.t s', (t: Timestamp, tz: string) => {
    const c = civil(t, tz);
    return c instanceof CelError ? c : BigInt(get(c));
  });
}
def('duration_to_hours', 'getHours', '.D', (d: Duration) => d.ns / (3600n * NS));
def('duration_to_minutes', 'getMinutes', '.D', (d: Duration) => d.ns / (60n * NS));
def('duration_to_seconds', 'getSeconds', '.D', (d: Duration) => d.ns / NS);
def('duration_to_milliseconds', 'getMilliseconds', '.D', (d: Duration) => d.ns / 1_000_000n);

/** The standard library's runtime overloads. */
export const stdOverloads: readonly RtOverload[] = out;

/** Standard implementations by cel-go overload id (for attaching to declarations). */
export const stdImpls: ReadonlyMap<string, RtOverload> = new Map(out.map((o) => [o.id, o]));

