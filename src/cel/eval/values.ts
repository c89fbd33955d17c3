/**
 * CEL runtime values (cel-go's `common/types`): int is `bigint`, uint the `Uint` wrapper, double
 * `number`, string a JS string (sizes and indices count code points), bytes `Uint8Array`, bool,
 * `null`, list a frozen JS array, map a `CelMap`, plus timestamps, durations, type values,
 * optionals, error values and unknowns. Equality and ordering follow the spec (numbers compare
 * across int/uint/double). Nothing here throws on bad data: failures are `CelError` values carrying
 * cel-go's messages.
 *
 * Values supplied as data (custom-resource objects) may bring their own semantics, as cel-go's
 * custom ref.Val types do: a list may carry a ListBehavior (its own `==`, `in` and `+`; Kubernetes'
 * set and map lists), a map's entries may be LazyFields (converted on access, with a presence test
 * that can yield an error).
 */

/** An unsigned 64-bit integer (CEL `uint`). */
export class Uint {
  constructor(readonly v: bigint) {}
  toString(): string {
    return `${this.v}u`;
  }
}

/** A runtime error value (cel-go's `types.Err`). Errors are values: they flow through evaluation. */
export class CelError {
  constructor(
    readonly message: string,
    /** Expression id the error is attributed to, if known. */
    readonly id?: number,
  ) {}
  toString(): string {
    return this.message;
  }
}

/** An unknown value: the expression ids whose inputs were not available. */
export class Unknown {
  constructor(readonly ids: number[]) {}
  merge(o: Unknown): Unknown {
    return new Unknown([...this.ids, ...o.ids.filter((i) => !this.ids.includes(i))]);
  }
}

/** A type value (`int`, `list`, `type`, `google.protobuf.Timestamp`, an object type name). */
export class CelType {
  constructor(readonly name: string) {}
  toString(): string {
    return this.name;
  }
}

export const T = {
  null: new CelType('null_type'),
  bool: new CelType('bool'),
  int: new CelType('int'),
  uint: new CelType('uint'),
  double: new CelType('double'),
  string: new CelType('string'),
  bytes: new CelType('bytes'),
  list: new CelType('list'),
  map: new CelType('map'),
  type: new CelType('type'),
  timestamp: new CelType('google.protobuf.Timestamp'),
  duration: new CelType('google.protobuf.Duration'),
  optional: new CelType('optional_type'),
  error: new CelType('error'),
  unknown: new CelType('unknown'),
} as const;

/**
 * Nanoseconds since the Unix epoch, within 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999999Z.
 * `offset` (seconds east of UTC) is the zone offset the timestamp was written with: like Go's
 * time.Time from time.Parse, cel-go keeps it, so `string(t)` and `t.getHours()` (no zone argument)
 * use it. Equality and ordering ignore it.
 */
export class Timestamp {
  constructor(
    readonly ns: bigint,
    readonly offset = 0,
  ) {}
}

/** A signed duration in nanoseconds (int64 range, as Go's time.Duration). */
export class Duration {
  constructor(readonly ns: bigint) {}
}

/** `optional.of(x)` / `optional.none()`. */
export class Optional {
  static readonly none = new Optional(undefined);
  constructor(readonly value: Val | undefined) {}
  hasValue(): boolean {
    return this.value !== undefined;
  }
}

/**
 * Base class of library-defined values (Kubernetes' URL, IP, CIDR, Quantity, ...): the library
 * names their CEL type and may define equality, ordering and size. Dispatch matches them by type
 * name (an overload parameter declared `opaque('kubernetes.URL')` accepts values whose celType is
 * `kubernetes.URL`).
 */
export abstract class OpaqueValue {
  /** The CEL type of the value. */
  abstract readonly celType: CelType;
  /**
   * CEL equality with another value (default: identity). A library type may answer with an error
   * value, as a cel-go `Equal` may (Kubernetes' types do for an operand of another type): `==` then
   * yields the error and `!=` is true.
   */
  equal(other: Val): boolean | CelError {
    return this === other;
  }
  /** Ordering against another value, if the type is ordered. */
  compare?(other: Val): number | CelError;
  /** Size for cost tracking (default 1). */
  size?(): number;
  /** How the value prints in messages and JSON output. */
  abstract toString(): string;
}

type MapKeyNorm = string | bigint | boolean;

/**
 * A CEL map. Keys are bool, int, uint or string; int and uint keys (and integral doubles on
 * lookup) are one key space, as the spec's numeric equality requires. `typeName` marks object values
 * (schema objects, messages) so that `type(x)` reports the object type.
 */
export class CelMap {
  /** Original keys, kept only when some key is a uint (otherwise the normalised key is the key). */
  private orig: Map<MapKeyNorm, Val> | undefined;
  constructor(
    readonly m: Map<MapKeyNorm, Val> = new Map(),
    readonly typeName?: string,
  ) {}

  /** Build from a plain object with string keys (values must already be CEL values). */
  static fromObject(o: Record<string, Val>, typeName?: string): CelMap {
    return new CelMap(new Map(Object.entries(o)), typeName);
  }

  get size(): number {
    return this.m.size;
  }

  /** The value under key k, or undefined. */
  get(k: Val): Val | undefined {
    if (typeof k === 'string') return this.m.get(k);
    const n = normKey(k, true);
    return n === undefined ? undefined : this.m.get(n);
  }

  has(k: Val): boolean {
    return this.get(k) !== undefined;
  }

  /**
   * Adds an entry while building a map; returns an error for unsupported or duplicate keys
   * (cel-go: `unsupported key type`, `Failed with repeated key`).
   */
  set(k: Val, v: Val): CelError | undefined {
    const n = normKey(k, false);
    if (n === undefined) return new CelError(`unsupported key type: ${typeName(k)}`);
    if (this.m.has(n)) return new CelError(`Failed with repeated key: ${formatGoValue(k)}`);
    this.m.set(n, v);
    if (k instanceof Uint) (this.orig ??= new Map()).set(n, k);
    else if (this.orig) this.orig.set(n, k);
    return undefined;
  }

  /** The CEL key stored under a normalised key of `m` (differs only for uint keys). */
  keyOf(n: MapKeyNorm): Val {
    return this.orig === undefined ? n : (this.orig.get(n) ?? n);
  }

  /** The keys as CEL values, in insertion order. */
  keys(): Val[] {
    const out: Val[] = [];
    for (const n of this.m.keys()) out.push(this.orig?.get(n) ?? n);
    return out;
  }

  *entries(): IterableIterator<[Val, Val]> {
    for (const [n, v] of this.m) yield [this.orig?.get(n) ?? n, v];
  }
}

/**
 * Keeps `instanceof` against a class on V8's fast path. A loader that renames classes after
 * defining them (tsx, as esbuild's keepNames, runs `Object.defineProperty(cls, 'name', ...)` on
 * every class) leaves the constructor with dictionary-mode properties, and every `instanceof`
 * against it then takes the generic path (three to five times slower; evaluation does several per
 * node). Becoming the prototype of another constructor, as a subclass makes it, turns the
 * constructor's properties fast again. A no-op where no loader renamed the class.
 */
export function keepInstanceofFast(c: abstract new (...args: never[]) => unknown): void {
  const base = c as unknown as new () => object;
  void class extends base {};
}

function normKey(k: Val, lookup: boolean): MapKeyNorm | undefined {
  switch (typeof k) {
    case 'string':
    case 'bigint':
    case 'boolean':
      return k;
    case 'number':
      if (lookup && Number.isInteger(k) && Math.abs(k) <= 2 ** 64) return BigInt(k);
      return undefined;
  }
  if (k instanceof Uint) return k.v;
  return undefined;
}

/** Every CEL runtime value. Lists are JS arrays (treated as immutable). */
export type Val =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | Uint
  | readonly Val[]
  | CelMap
  | Timestamp
  | Duration
  | CelType
  | Optional
  | CelError
  | Unknown
  | OpaqueValue;

// ---- integer ranges and checked arithmetic ----------------------------------------------------

export const INT_MIN = -(2n ** 63n);
export const INT_MAX = 2n ** 63n - 1n;
export const UINT_MAX = 2n ** 64n - 1n;

export const errOverflow = () => new CelError('integer overflow');
export const errUintOverflow = () => new CelError('unsigned integer overflow');
export const errDivZero = () => new CelError('division by zero');
export const errModZero = () => new CelError('modulus by zero');
export const errNoOverload = (fn?: string) => new CelError(fn ? `no such overload: ${fn}` : 'no such overload');
export const errNoSuchKey = (k: Val) => new CelError(`no such key: ${formatKey(k)}`);

function formatKey(k: Val): string {
  if (typeof k === 'string') return k;
  return formatValue(k);
}

/** An int result, or the overflow error if it leaves int64. */
export function checkInt(v: bigint): bigint | CelError {
  return v < INT_MIN || v > INT_MAX ? errOverflow() : v;
}

/** A uint result, or the overflow error if it leaves uint64. */
export function checkUint(v: bigint): Uint | CelError {
  return v < 0n || v > UINT_MAX ? errUintOverflow() : new Uint(v);
}

// ---- classification ----------------------------------------------------------------------------

export function isError(v: Val): v is CelError {
  return typeof v === 'object' && v instanceof CelError;
}
export function isUnknown(v: Val): v is Unknown {
  return v instanceof Unknown;
}
/** Error or unknown: a value that must be propagated rather than operated on. */
export function isErrorOrUnknown(v: Val): v is CelError | Unknown {
  // Primitives first: instanceof costs far more than typeof on them.
  return typeof v === 'object' && v !== null && (v instanceof CelError || v instanceof Unknown);
}
export function isList(v: Val): v is readonly Val[] {
  return Array.isArray(v);
}

/** The CEL type of a runtime value (what `type(v)` returns). */
export function typeOfValue(v: Val): CelType {
  switch (typeof v) {
    case 'boolean':
      return T.bool;
    case 'bigint':
      return T.int;
    case 'number':
      return T.double;
    case 'string':
      return T.string;
  }
  if (v === null) return T.null;
  if (v instanceof Uint) return T.uint;
  if (Array.isArray(v)) return T.list;
  if (v instanceof CelMap) return v.typeName ? new CelType(v.typeName) : T.map;
  if (v instanceof Uint8Array) return T.bytes;
  if (v instanceof Timestamp) return T.timestamp;
  if (v instanceof Duration) return T.duration;
  if (v instanceof CelType) return T.type;
  if (v instanceof Optional) return T.optional;
  if (v instanceof CelError) return T.error;
  if (v instanceof OpaqueValue) return v.celType;
  return T.unknown;
}

/** The type name used in messages (`int`, `list`, `google.protobuf.Timestamp`). */
export function typeName(v: Val): string {
  return typeOfValue(v).name;
}

// ---- strings -----------------------------------------------------------------------------------

const SURROGATE = /[\uD800-\uDFFF]/;

/** Number of code points in s. */
export function codePointLength(s: string): number {
  if (s.length <= 64) {
    // Short strings (most rule operands): a scan costs less than starting the regular expression.
    let i = 0;
    while (i < s.length && (s.charCodeAt(i) & 0xf800) !== 0xd800) i++;
    if (i === s.length) return i;
  } else if (!SURROGATE.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** True if s has no surrogate pairs (code-unit index == code-point index). */
export function isBmp(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return false;
  }
  return true;
}

/** Compares strings by code point (Go compares UTF-8 bytes, which orders the same way). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const cx = a.codePointAt(i)!;
      const cy = b.codePointAt(i)!;
      return cx < cy ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true });
export function stringToBytes(s: string): Uint8Array {
  return utf8.encode(s);
}
/** Decodes UTF-8; undefined if the bytes are not valid UTF-8. */
export function bytesToString(b: Uint8Array): string | undefined {
  try {
    return utf8Strict.decode(b);
  } catch {
    return undefined;
  }
}

// ---- equality and ordering ---------------------------------------------------------------------

function numericCompare(a: Val, b: Val): number | undefined {
  // -1/0/1, NaN for a NaN operand, undefined when either is not a number. Mixed double/integer
  // comparisons follow cel-go's compare.go: out-of-range doubles order outside, otherwise the
  // integer is converted to double (lossy, as cel-go does).
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'bigint' && tb === 'bigint') return (a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0;
  if (ta === 'number' && tb === 'number') return cmpNum(a as number, b as number);
  let x: bigint;
  let xu = false;
  if (ta === 'bigint') x = a as bigint;
  else if (a instanceof Uint) {
    x = a.v;
    xu = true;
  } else if (ta === 'number') {
    const r = cmpIntDouble(b, a as number);
    return r === undefined ? undefined : -r;
  } else return undefined;
  if (tb === 'number') return cmpIntDouble(a, b as number);
  let y: bigint;
  if (tb === 'bigint') y = b as bigint;
  else if (b instanceof Uint) y = b.v;
  else return undefined;
  void xu;
  return x < y ? -1 : x > y ? 1 : 0;
}

function cmpNum(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Compares an int or uint with a double as cel-go's compareIntDouble / compareUintDouble. */
function cmpIntDouble(i: Val, d: number): number | undefined {
  if (Number.isNaN(d)) return NaN;
  if (typeof i === 'bigint') {
    if (d < -9223372036854775808) return 1;
    if (d > 9223372036854775807) return -1;
    return cmpNum(Number(i), d);
  }
  if (i instanceof Uint) {
    if (d < 0) return 1;
    if (d > 18446744073709551615) return -1;
    return cmpNum(Number(i.v), d);
  }
  return undefined;
}

/**
 * Semantics a list value may carry beside CEL's (Kubernetes' list-type set and map lists, whose
 * `==` ignores order and whose `+` unions or merges by key, as unstructuredSetList and
 * unstructuredMapList do). Lists are plain frozen arrays, so the behaviour is attached beside them
 * (withListBehavior) and consulted by equality and by `+` whenever the list is the left operand.
 */
export interface ListBehavior {
  /** `self == other` for a list other of the same length: true, false or an error value. */
  equal(self: readonly Val[], other: readonly Val[]): boolean | CelError;
  /** `self + other`: the result (which should carry the behaviour on), or an error value. */
  add(self: readonly Val[], other: readonly Val[]): Val;
}

const listBehaviors = new WeakMap<readonly Val[], ListBehavior>();
/** Whether any list ever carried a behaviour: until then list operations skip the lookup. */
let listBehaviorsInUse = false;

/** Attaches behaviour b to list l (before it is handed to a program); returns l. */
export function withListBehavior(l: readonly Val[], b: ListBehavior): readonly Val[] {
  listBehaviorsInUse = true;
  listBehaviors.set(l, b);
  return l;
}

/** The behaviour attached to list l, if any. */
export function listBehaviorOf(l: readonly Val[]): ListBehavior | undefined {
  return listBehaviorsInUse ? listBehaviors.get(l) : undefined;
}

/**
 * A map's entries produced on demand (an object value converted from its data lazily, as
 * Kubernetes' unstructuredMap): `has(m.f)` asks testPresence, which may yield the error producing
 * the field raised (unstructuredMap.Contains on invalid data). The Map interface serves all else.
 */
export abstract class LazyFields extends Map<MapKeyNorm, Val> {
  /** Presence of field k for has(): true, false, or an error value. */
  abstract testPresence(k: string): boolean | CelError;
}

for (const c of [Uint, CelError, Unknown, CelType, Timestamp, Duration, Optional, OpaqueValue, CelMap, LazyFields]) keepInstanceofFast(c);

/**
 * CEL equality with the left operand's semantics (`_==_`, `@in`): true, false, or an error value
 * raised by a list's own equality (ListBehavior). Otherwise as equals().
 */
export function equality(a: Val, b: Val): boolean | CelError {
  // Error values only occur inside lists and maps supplied as data (invalid custom-resource
  // fields): comparing one yields it, as cel-go's Err.Equal does.
  if (typeof a !== 'object' || a === null) return b instanceof CelError ? b : equals(a, b);
  // cel-go's types.Equal settles null before asking either side.
  if (b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    const lb = listBehaviorsInUse ? listBehaviors.get(a) : undefined;
    if (lb !== undefined) return lb.equal(a, b);
    for (let i = 0; i < a.length; i++) {
      const r = equality(a[i], b[i]);
      // cel-go's baseList.Equal stops only at false: a library value's equality error is passed over.
      if (r !== true && !(r instanceof CelError && a[i] instanceof OpaqueValue && !(b[i] instanceof CelError))) return r;
    }
    return true;
  }
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    if ((a.typeName ?? '') !== (b.typeName ?? '')) return false;
    for (const [k, v] of a.entries()) {
      const w = b.get(k);
      if (w === undefined) return false;
      const r = equality(v, w);
      // As for lists (cel-go's baseMap.Equal).
      if (r !== true && !(r instanceof CelError && v instanceof OpaqueValue && !(w instanceof CelError))) return r;
    }
    return true;
  }
  if (a instanceof Optional && b instanceof Optional && a.value !== undefined && b.value !== undefined) return equality(a.value, b.value);
  if (a instanceof CelError) return a;
  if (b instanceof CelError) return b;
  if (a instanceof OpaqueValue) return a.equal(b);
  return equals(a, b);
}

/**
 * `x in l` as cel-go's baseList.Contains: true when x equals (with its own semantics) an element;
 * else the first error an equality raised, else false.
 */
export function listContains(l: readonly Val[], x: Val): boolean | CelError {
  let err: CelError | undefined;
  for (const e of l) {
    const r = equality(x, e);
    if (r === true) return true;
    // A library value's own equality error is no match (cel-go's baseList.Contains counts only true).
    if (r !== false && !(x instanceof OpaqueValue)) err ??= r;
  }
  return err ?? false;
}

/**
 * CEL equality (`_==_`): heterogeneous numeric equality, element-wise lists, key-wise maps; values of
 * different types are unequal. Errors and unknowns are handled by the caller.
 */
export function equals(a: Val, b: Val): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  switch (typeof a) {
    case 'string':
    case 'boolean':
      return false;
    case 'bigint':
    case 'number':
      return numericCompare(a, b) === 0;
  }
  if (a === null || b === null) return false;
  if (a instanceof Uint) return numericCompare(a, b) === 0;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    const lb = listBehaviorsInUse ? listBehaviors.get(a) : undefined;
    if (lb !== undefined) return lb.equal(a, b) === true;
    for (let i = 0; i < a.length; i++) if (!equals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    if ((a.typeName ?? '') !== (b.typeName ?? '')) return false;
    for (const [k, v] of a.entries()) {
      const w = b.get(k);
      if (w === undefined || !equals(v, w)) return false;
    }
    return true;
  }
  if (a instanceof Uint8Array) return b instanceof Uint8Array && compareBytes(a, b) === 0;
  if (a instanceof Timestamp) return b instanceof Timestamp && a.ns === b.ns;
  if (a instanceof Duration) return b instanceof Duration && a.ns === b.ns;
  if (a instanceof CelType) return b instanceof CelType && a.name === b.name;
  if (a instanceof Optional) {
    if (!(b instanceof Optional)) return false;
    if (a.value === undefined || b.value === undefined) return a.value === b.value;
    return equals(a.value, b.value);
  }
  if (a instanceof OpaqueValue) return a.equal(b) === true;
  return false;
}

/**
 * CEL ordering for `<`, `<=`, `>`, `>=`: -1/0/1, or a CelError for NaN (`NaN values cannot be
 * ordered`) and for types without an order between them (`no such overload`).
 */
export function compare(a: Val, b: Val): number | CelError {
  const n = numericCompare(a, b);
  if (n !== undefined) return Number.isNaN(n) ? new CelError('NaN values cannot be ordered') : n;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof Timestamp && b instanceof Timestamp) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
  if (a instanceof Duration && b instanceof Duration) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
  if (a instanceof OpaqueValue && a.compare) return a.compare(b);
  return errNoOverload();
}

// ---- formatting --------------------------------------------------------------------------------

/** Go's fmt.Sprintf("%g", f) (shortest digits; exponent form below 1e-4 and from 1e6), as cel-go's string(double). */
export function formatDouble(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const e = f.toExponential(); // shortest round-trip digits: d.ddde±x
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(e)!;
  const sign = m[1]!;
  const digits = m[2]! + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp < -4 || exp >= 6) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const ae = Math.abs(exp);
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`;
  }
  if (exp >= digits.length - 1) return sign + digits + '0'.repeat(exp - digits.length + 1);
  if (exp >= 0) return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
}

/**
 * RFC 3339 with nanoseconds, trailing zeros trimmed (Go's time.RFC3339Nano), at the timestamp's own
 * offset (`Z` for UTC), or in UTC when `utc` is set.
 */
export function formatTimestamp(t: Timestamp, utc = false): string {
  const offset = utc ? 0 : t.offset;
  const sec = floorDiv(t.ns, 1_000_000_000n) + BigInt(offset);
  const nanos = Number(t.ns - floorDiv(t.ns, 1_000_000_000n) * 1_000_000_000n);
  const d = new Date(Number(sec) * 1000);
  const y = d.getUTCFullYear();
  const p2 = (n: number) => String(n).padStart(2, '0');
  let s = `${String(y).padStart(4, '0')}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}T${p2(
    d.getUTCHours(),
  )}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
  if (nanos) s += '.' + String(nanos).padStart(9, '0').replace(/0+$/, '');
  if (offset === 0) return s + 'Z';
  const a = Math.abs(offset);
  return `${s}${offset < 0 ? '-' : '+'}${p2(Math.floor(a / 3600))}:${p2(Math.floor((a % 3600) / 60))}`;
}

/** Seconds with the fraction Go prints (`3723s`, `1.5s`), as cel-go's string(duration). */
export function formatDuration(d: Duration): string {
  const neg = d.ns < 0n;
  const a = neg ? -d.ns : d.ns;
  const s = a / 1_000_000_000n;
  const f = a % 1_000_000_000n;
  let out = `${neg ? '-' : ''}${s}`;
  if (f) out += '.' + String(f).padStart(9, '0').replace(/0+$/, '');
  return out + 's';
}

export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

function quoteString(s: string): string {
  return JSON.stringify(s);
}

/** A value as Go's `%v` prints a cel-go value in error messages: strings bare, uints without `u`. */
export function formatGoValue(v: Val): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint) return String(v.v);
  return formatValue(v);
}

/** A debug rendering of a value, as cel-go prints values in error messages. */
export function formatValue(v: Val): string {
  switch (typeof v) {
    case 'string':
      return quoteString(v);
    case 'bigint':
      return String(v);
    case 'number':
      return formatDouble(v);
    case 'boolean':
      return String(v);
  }
  if (v === null) return 'null';
  if (v instanceof Uint) return `${v.v}u`;
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`;
  if (v instanceof CelMap) return `{${[...v.entries()].map(([k, x]) => `${formatValue(k)}: ${formatValue(x)}`).join(', ')}}`;
  if (v instanceof Uint8Array) return `b${quoteString(new TextDecoder().decode(v))}`;
  if (v instanceof Timestamp) return formatTimestamp(v, true);
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof CelType) return v.name;
  if (v instanceof Optional) return v.value === undefined ? 'optional.none()' : `optional.of(${formatValue(v.value)})`;
  if (v instanceof CelError) return v.message;
  if (v instanceof Unknown) return `unknown(${v.ids.join(', ')})`;
  return String(v);
}

// ---- JSON-like data ----------------------------------------------------------------------------

/** How to read numbers when converting JSON-like data. */
export interface FromJSONOptions {
  /** Treat every JSON number as a double (default: integral numbers become int). */
  numbersAsDouble?: boolean;
  /**
   * Decides per number from its path (object keys and list indices from the root): 'int',
   * 'double', or undefined for the default. The schema layer uses it to follow `type: integer` /
   * `type: number`.
   */
  numberKind?: (path: readonly (string | number)[], n: number) => 'int' | 'double' | undefined;
}

/**
 * Converts JSON-like data (objects, arrays, numbers, strings, booleans, null; bigint as int) into a
 * CEL value: objects become maps with string keys; integral numbers become int unless the options
 * say otherwise (a non-integral number asked to be int stays a double).
 */
export function fromJSON(x: unknown, opts: FromJSONOptions = {}): Val {
  return opts.numberKind ? convert(x, opts, []) : convert(x, opts, undefined);
}

function convert(x: unknown, opts: FromJSONOptions, path: (string | number)[] | undefined): Val {
  switch (typeof x) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return x;
    case 'number': {
      const kind = path ? opts.numberKind!(path, x) : undefined;
      const asInt = kind === 'int' || (kind === undefined && !opts.numbersAsDouble);
      if (asInt && Number.isInteger(x) && !Object.is(x, -0)) return BigInt(x);
      return x;
    }
    case 'undefined':
      return null;
  }
  if (x === null) return null;
  if (Array.isArray(x)) {
    const out: Val[] = new Array(x.length);
    for (let i = 0; i < x.length; i++) {
      if (path) path.push(i);
      out[i] = convert(x[i], opts, path);
      if (path) path.pop();
    }
    return out;
  }
  if (x instanceof Uint || x instanceof Uint8Array || x instanceof CelMap || x instanceof Timestamp) return x as Val;
  if (x instanceof Duration || x instanceof CelType || x instanceof Optional) return x as Val;
  const m = new Map<MapKeyNorm, Val>();
  for (const k of Object.keys(x as object)) {
    if (path) path.push(k);
    m.set(k, convert((x as Record<string, unknown>)[k], opts, path));
    if (path) path.pop();
  }
  return new CelMap(m);
}

export function base64Encode(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}

/**
 * Converts a CEL value into JSON-like data: int/uint as numbers (as decimal strings beyond 2^53),
 * doubles as numbers (NaN, Infinity, -Infinity as strings, as proto3 JSON), bytes base64, timestamps RFC 3339, durations
 * `"3723s"`, maps as objects (keys printed), optionals as their value or null, types by name.
 */
export function toJSON(v: Val): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'bigint':
      return bigToJSON(v);
    case 'number':
      return Number.isFinite(v) ? v : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity'; // proto3 JSON spelling
  }
  if (v === null) return null;
  if (v instanceof Uint) return bigToJSON(v.v);
  if (Array.isArray(v)) return v.map(toJSON);
  if (v instanceof CelMap) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.entries()) o[typeof k === 'string' ? k : formatValue(k).replace(/u$/, '')] = toJSON(x);
    return o;
  }
  if (v instanceof Uint8Array) return base64Encode(v);
  if (v instanceof Timestamp) return formatTimestamp(v);
  if (v instanceof Duration) return formatDuration(v);
  if (v instanceof CelType) return v.name;
  if (v instanceof Optional) return v.value === undefined ? null : toJSON(v.value);
  if (v instanceof CelError) return { error: v.message };
  if (v instanceof OpaqueValue) return v.toString();
  return null;
}

function bigToJSON(b: bigint): number | string {
  return b >= -(2n ** 53n) && b <= 2n ** 53n ? Number(b) : String(b);
}
