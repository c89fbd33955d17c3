/**
 * A port of k8s.io/apimachinery `resource.Quantity` (quantity.go, amount.go, math.go, suffix.go):
 * parsing with upstream's errors, the two internal representations (an int64 amount with a decimal
 * scale, or an arbitrary-precision decimal rounded up to nanos), exact comparison, add/sub, the
 * int64 and approximate float conversions, and the canonical string form (`1Mi`, `500m`, `1e3`).
 *
 * Which representation a quantity has is observable (`AsInt64` fails for a decimal even when the
 * value is integral, as upstream), so the port keeps upstream's choice at every step.
 */

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE}'`;
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const NANO = -9;
const MAX_INT64_FACTORS = 18;

const inInt64 = (v: bigint) => v >= INT64_MIN && v <= INT64_MAX;

/**
 * The largest power of ten decimal arithmetic may build. Upstream aligns and rounds decimals
 * exactly whatever their exponents, so `1.0000000000000000001e999999999` or
 * `quantity('1e999999999').add(quantity('1'))` make a billion-digit number and run for minutes;
 * here such an operation throws a RangeError, which evaluation reports as a cancellation.
 */
export const MAX_DECIMAL_DIGITS = 100_000;
const pow10 = (n: number) => {
  if (n > MAX_DECIMAL_DIGITS) throw new RangeError(`quantity needs more than ${MAX_DECIMAL_DIGITS} decimal digits`);
  return 10n ** BigInt(n);
};

/** An int64 amount: value × 10^scale (upstream's int64Amount). */
interface IntAmount {
  value: bigint;
  scale: number;
}

/** An arbitrary-precision decimal: unscaled × 10^-scale (gopkg.in/inf.v0 Dec). */
interface Dec {
  unscaled: bigint;
  scale: number;
}

/** An error from parsing a quantity, carrying upstream's message. */
export class QuantityError extends Error {}

/** A resource quantity. Methods that change it say so; `copy()` gives an independent one. */
export class Quantity {
  /** The int64 form, when `d` is undefined. */
  i: IntAmount = { value: 0n, scale: 0 };
  /** The decimal form, once the quantity left int64 range or precision. */
  d: Dec | undefined;
  /** The string the quantity was parsed from, kept when it is already canonical. */
  s = '';
  format: QuantityFormat;

  constructor(format: QuantityFormat = 'DecimalSI') {
    this.format = format;
  }

  /** resource.NewQuantity(value, format). */
  static fromInt(value: bigint, format: QuantityFormat = 'DecimalExponent'): Quantity {
    const q = new Quantity(format);
    q.i = { value, scale: 0 };
    return q;
  }

  /**
   * A quantity in the int64 form: value × 10^scale (resource.NewScaledQuantity with a format, as
   * NewMilliQuantity is scale -3 and the tests' intQuantity any scale).
   */
  static fromScaled(value: bigint, scale: number, format: QuantityFormat = 'DecimalSI'): Quantity {
    const q = new Quantity(format);
    q.i = { value, scale };
    return q;
  }

  /** A quantity in the decimal form: unscaled × 10^exponent (the tests' decQuantity). */
  static fromDecimal(unscaled: bigint, exponent: number, format: QuantityFormat): Quantity {
    const q = new Quantity(format);
    q.d = { unscaled, scale: -exponent };
    return q;
  }

  copy(): Quantity {
    const q = new Quantity(this.format);
    q.i = { ...this.i };
    q.d = this.d && { ...this.d };
    q.s = this.s;
    return q;
  }

  isZero(): boolean {
    return this.d ? this.d.unscaled === 0n : this.i.value === 0n;
  }

  /** -1, 0 or 1. */
  sign(): number {
    const v = this.d ? this.d.unscaled : this.i.value;
    return v === 0n ? 0 : v > 0n ? 1 : -1;
  }

  /** The value as a decimal, converting this quantity to the decimal form (as upstream's AsDec does). */
  asDec(): Dec {
    if (!this.d) {
      this.d = intAsDec(this.i);
      this.i = { value: 0n, scale: 0 };
    }
    return this.d;
  }

  /** The value as an int64, if it is in the int64 form and integral within range (upstream's AsInt64). */
  asInt64(): bigint | undefined {
    if (this.d) return undefined;
    const a = this.i;
    if (a.scale === 0) return a.value;
    if (a.scale < 0) return undefined;
    return positiveScale(a.value, a.scale);
  }

  /** float64 approximation: the mantissa as a float times Go's math.Pow10 of the exponent. */
  asApproximateFloat64(): number {
    let base: number;
    let exponent: number;
    if (this.d) {
      base = Number(this.d.unscaled);
      exponent = -this.d.scale;
    } else {
      base = Number(this.i.value);
      exponent = this.i.scale;
    }
    if (exponent === 0) return base;
    return base * goPow10(exponent);
  }

  /**
   * Compares with y: -1, 0 or 1. As upstream, comparing where either side is a decimal converts
   * this quantity to its decimal form (the value is unchanged).
   */
  cmp(y: Quantity): number {
    if (!this.d && !y.d) return cmpDec(intAsDec(this.i), intAsDec(y.i));
    return cmpDec(this.asDec(), y.d ?? intAsDec(y.i));
  }

  equal(y: Quantity): boolean {
    return this.cmp(y) === 0;
  }

  /** Adds y to this quantity, in place. */
  add(y: Quantity): void {
    this.s = '';
    if (!this.d && !y.d) {
      if (this.i.value === 0n) this.format = y.format;
      const r = intAdd(this.i, y.i);
      if (r) {
        this.i = r;
        return;
      }
    } else if (this.isZero()) this.format = y.format;
    this.d = decAdd(this.asDec(), y.d ?? intAsDec(y.i));
  }

  /** Subtracts y from this quantity, in place. */
  sub(y: Quantity): void {
    this.s = '';
    if (this.isZero()) this.format = y.format;
    if (!this.d && !y.d) {
      // Go negates the int64 with wrap-around.
      const r = intAdd(this.i, { value: BigInt.asIntN(64, -y.i.value), scale: y.i.scale });
      if (r) {
        this.i = r;
        return;
      }
    }
    const yd = y.d ?? intAsDec(y.i);
    this.d = decAdd(this.asDec(), { unscaled: -yd.unscaled, scale: yd.scale });
  }

  /** The canonical string (upstream's String): the parsed text when that was canonical. */
  toString(): string {
    if (this.s === '') {
      const [number, suffix] = this.canonicalize();
      this.s = number + suffix;
    }
    return this.s;
  }

  /** A value that is equal for equal quantities (for CEL equality). */
  equalityKey(): string {
    const d = this.d ?? intAsDec(this.i);
    if (d.unscaled === 0n) return '0';
    let u = d.unscaled;
    let e = -d.scale;
    while (u % 10n === 0n) {
      u /= 10n;
      e++;
    }
    return `${u}e${e}`;
  }

  private canonicalize(): [string, string] {
    if (this.isZero()) return ['0', ''];
    let format = this.format;
    // Format is a plain string upstream; one that is none of the three prints as DecimalExponent.
    if (format !== 'BinarySI' && format !== 'DecimalSI') format = 'DecimalExponent';
    let rounded: { int?: IntAmount; dec?: Dec } | undefined;
    if (format === 'BinarySI') {
      if (this.cmpInt64(-1024n) > 0 && this.cmpInt64(1024n) < 0) format = 'DecimalSI';
      else {
        let exact: boolean;
        if (this.d) {
          const r = decRoundUp(this.d, 0);
          rounded = { dec: r };
          exact = cmpDec(r, this.d) === 0;
        } else if (this.i.scale >= 0) {
          rounded = { int: this.i };
          exact = true;
        } else {
          const [v, ex] = negativeScale(this.i.value, -this.i.scale);
          rounded = { int: { value: v, scale: 0 } };
          exact = ex;
        }
        if (!exact) format = 'DecimalSI';
      }
    }
    if (format === 'DecimalExponent' || format === 'DecimalSI') {
      const [number, exponent] = this.d ? decCanonical(this.d) : intCanonical(this.i);
      return [number, constructSuffix(10, exponent, format)];
    }
    const [number, exponent] = rounded!.dec ? decCanonical1024(rounded!.dec) : intCanonical1024(rounded!.int!);
    return [number, constructSuffix(2, exponent * 10, format)];
  }

  private cmpInt64(y: bigint): number {
    return cmpDec(this.d ?? intAsDec(this.i), { unscaled: y, scale: 0 });
  }
}

// ---- parsing ------------------------------------------------------------------------------------

/** The parts parseQuantityString splits a quantity string into. */
export interface Parts {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** upstream's parseQuantityString: splits sign, number, fraction and suffix. */
export function parseQuantityString(str: string): Parts | QuantityError {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') pos++;
  }
  // Leading zeros.
  for (;;) {
    if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
    if (str[pos] !== '0') break;
    pos++;
  }
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  let num = str.slice(pos, i);
  pos = i;
  if (num.length === 0) num = '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    let j = pos;
    while (j < end && isDigit(str[j])) j++;
    if (j >= end) return { positive, value: str, num, denom: str.slice(pos), suffix: '' };
    denom = str.slice(pos, j);
    pos = j;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  let k = pos;
  while (k < end && 'eEinumkKMGTP'.includes(str[k]!)) k++;
  if (k >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  pos = k;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  for (let m = pos; ; m++) {
    if (m >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
    if (!isDigit(str[m])) break;
  }
  return new QuantityError(ERR_FORMAT_WRONG);
}

const DEC_SUFFIXES: Record<string, number> = { '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** upstream's suffixer.interpret: [base, exponent, format], or undefined. */
function interpretSuffix(s: string): [number, number, QuantityFormat] | undefined {
  if (Object.hasOwn(DEC_SUFFIXES, s)) return [10, DEC_SUFFIXES[s]!, 'DecimalSI'];
  if (Object.hasOwn(BIN_SUFFIXES, s)) return [2, BIN_SUFFIXES[s]!, 'BinarySI'];
  if (s.length > 1 && (s[0] === 'E' || s[0] === 'e')) {
    const parsed = goParseInt64(s.slice(1));
    if (parsed === undefined) return undefined;
    // int32(parsed): Go truncates the int64 exponent.
    return [10, Number(BigInt.asIntN(32, parsed)), 'DecimalExponent'];
  }
  return undefined;
}

/** strconv.ParseInt(s, 10, 64). */
function goParseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return inInt64(v) ? v : undefined;
}

function constructSuffix(base: number, exponent: number, format: QuantityFormat): string {
  switch (format) {
    case 'DecimalSI':
      for (const [s, e] of Object.entries(DEC_SUFFIXES)) if (base === 10 && e === exponent) return s;
      return '';
    case 'BinarySI':
      for (const [s, e] of Object.entries(BIN_SUFFIXES)) if (base === 2 && e === exponent) return s;
      return '';
    case 'DecimalExponent':
      if (base !== 10 || exponent === 0) return '';
      return `e${exponent}`;
  }
}

/** inf.Dec.SetString for the numeric part of a quantity. */
function decFromString(s: string): Dec | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  const u = BigInt((m[2] || '0') + frac);
  return { unscaled: m[1] === '-' ? -u : u, scale: frac.length };
}

const MAX_ALLOWED: Dec = { unscaled: INT64_MAX, scale: 0 };

/** Texts longer than this are not kept by canonicalQuantityText. */
const MAX_KEPT_TEXT = 64;
const canonicalTexts = new Map<string, string | QuantityError>();

/**
 * ParseQuantity, then String(): a quantity's canonical text, or the parse error. Manifests repeat
 * a few quantities (`100m`, `128Mi`) on every object, and a canonical form takes big-integer
 * divisions: short texts' results are kept (4,096 of them; the memo starts over when full).
 */
export function canonicalQuantityText(str: string): string | QuantityError {
  const known = canonicalTexts.get(str);
  if (known !== undefined) return known;
  const q = parseQuantity(str);
  const r = q instanceof QuantityError ? q : q.toString();
  if (str.length <= MAX_KEPT_TEXT) {
    if (canonicalTexts.size >= 4096) canonicalTexts.clear();
    canonicalTexts.set(str, r);
  }
  return r;
}

/** resource.ParseQuantity: the quantity, or an error with upstream's message. */
export function parseQuantity(str: string): Quantity | QuantityError {
  if (str.length === 0) return new QuantityError(ERR_FORMAT_WRONG);
  if (str === '0') {
    const q = new Quantity('DecimalSI');
    q.s = str;
    return q;
  }
  const parts = parseQuantityString(str);
  if (parts instanceof QuantityError) return parts;
  const { positive, value, num, denom, suffix } = parts;
  const interp = interpretSuffix(suffix);
  if (!interp) return new QuantityError(ERR_SUFFIX);
  const [base, exponent] = interp;
  let format = interp[2];

  let precision = 0;
  let scale = 0;
  let mantissa = 1n;
  switch (format) {
    case 'DecimalExponent':
    case 'DecimalSI':
      scale = exponent;
      precision = MAX_INT64_FACTORS - (num.length + denom.length);
      break;
    case 'BinarySI':
      scale = 0;
      if (exponent >= 0 && denom.length === 0) {
        mantissa = BigInt.asIntN(64, mantissa << BigInt(exponent));
        precision = 15 - num.length - Math.trunc(Math.fround((exponent * 3) / 10)) - 1;
      } else precision = -1;
      break;
  }

  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const shifted = num + denom;
      const v = goParseInt64(shifted);
      if (v === undefined) return new QuantityError(ERR_NUMERIC);
      const product = v * mantissa;
      if (inInt64(product)) {
        const result = positive ? product : -product;
        const q = new Quantity(format);
        q.i = { value: result, scale };
        if (format === 'BinarySI') {
          if (exponent % 10 === 0 && (v & 7n) !== 0n) q.s = str;
        } else if (scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') q.s = str;
        return q;
      }
    }
  }

  let amount = decFromString(value);
  if (!amount) return new QuantityError(ERR_NUMERIC);
  if (base === 10) amount = { unscaled: amount.unscaled, scale: amount.scale - exponent };
  else if (base === 2) amount = { unscaled: amount.unscaled << BigInt(exponent), scale: amount.scale };
  const sign = amount.unscaled < 0n ? -1 : amount.unscaled > 0n ? 1 : 0;
  if (sign === -1) amount = { unscaled: -amount.unscaled, scale: amount.scale };
  // `v != 0 || !ok`: round unless the unscaled value is an int64 zero.
  if (amount.unscaled !== 0n) amount = decRoundUp(amount, -NANO);
  if (format === 'BinarySI' && cmpDec(amount, MAX_ALLOWED) > 0) amount = { ...MAX_ALLOWED };
  if (format === 'BinarySI' && cmpDec(amount, { unscaled: 1n, scale: 0 }) < 0 && amount.unscaled > 0n) format = 'DecimalSI';
  if (sign === -1) amount = { unscaled: -amount.unscaled, scale: amount.scale };
  const q = new Quantity(format);
  q.d = amount;
  return q;
}

// ---- int64 amounts -------------------------------------------------------------------------------

function intAsDec(a: IntAmount): Dec {
  return { unscaled: a.value, scale: -a.scale };
}

/** value × 10^scale if it stays in int64 (upstream's positiveScaleInt64). */
function positiveScale(value: bigint, scale: number): bigint | undefined {
  if (value === 0n) return 0n;
  if (scale > 19) return undefined;
  const r = value * pow10(scale);
  return inInt64(r) ? r : undefined;
}

/** upstream's negativeScaleInt64: value / 10^scale rounded away from zero, and whether exact. */
function negativeScale(base: bigint, scale: number): [bigint, boolean] {
  if (scale === 0) return [base, true];
  let value = base;
  let fraction = false;
  for (let i = 0; i < scale; i++) {
    if (!fraction && value % 10n !== 0n) fraction = true;
    value /= 10n;
    if (value === 0n) {
      if (fraction) return [base > 0n ? 1n : -1n, false];
      return [0n, true];
    }
  }
  if (fraction) value += base > 0n ? 1n : -1n;
  return [value, !fraction];
}

/** int64Amount.Add: the sum in int64 form, or undefined on overflow. */
function intAdd(a: IntAmount, b: IntAmount): IntAmount | undefined {
  if (b.value === 0n) return a;
  if (a.value === 0n) return { ...b };
  if (a.scale === b.scale) {
    const c = a.value + b.value;
    return inInt64(c) ? { value: c, scale: a.scale } : undefined;
  }
  if (a.scale > b.scale) {
    const c = positiveScale(a.value, a.scale - b.scale);
    if (c === undefined) return undefined;
    const s = c + b.value;
    return inInt64(s) ? { value: s, scale: b.scale } : undefined;
  }
  const c = positiveScale(b.value, b.scale - a.scale);
  if (c === undefined) return undefined;
  const s = a.value + c;
  return inInt64(s) ? { value: s, scale: a.scale } : undefined;
}

/** Strips factors of `factor` from |v| (upstream's removeInt64Factors / removeBigIntFactors). */
function removeFactors(v: bigint, factor: bigint): [bigint, number] {
  let times = 0;
  if (v === 0n) return [v, 0];
  while (v % factor === 0n) {
    v /= factor;
    times++;
  }
  return [v, times];
}

function intCanonical(a: IntAmount): [string, number] {
  let exponent = a.scale;
  let [amount, times] = a.value === 0n ? [0n, 0] : removeFactors(a.value, 10n);
  // removeInt64Factors stops below 10; a value of 0 has no factors removed.
  exponent += times;
  const r = exponent % 3;
  if (r === 1 || r === -2) {
    amount *= 10n;
    if (!inInt64(amount)) return decCanonical(intAsDec(a));
    exponent -= 1;
  } else if (r === 2 || r === -1) {
    amount *= 100n;
    if (!inInt64(amount)) return decCanonical(intAsDec(a));
    exponent -= 2;
  }
  return [String(amount), exponent];
}

function intCanonical1024(a: IntAmount): [string, number] {
  const v = a.scale < 0 ? negativeScale(a.value, -a.scale)[0] : positiveScale(a.value, a.scale);
  if (v === undefined) return decCanonical1024(intAsDec(a));
  const [amount, exponent] = removeFactors(v, 1024n);
  return [String(amount), exponent];
}

// ---- decimals -----------------------------------------------------------------------------------

function digits(v: bigint): number {
  return (v < 0n ? -v : v).toString().length;
}

/** Exact comparison of two decimals without aligning scales that are far apart. */
function cmpDec(a: Dec, b: Dec): number {
  const sa = a.unscaled === 0n ? 0 : a.unscaled > 0n ? 1 : -1;
  const sb = b.unscaled === 0n ? 0 : b.unscaled > 0n ? 1 : -1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  // Magnitudes: |a| in [10^(ma-1), 10^ma).
  const ma = digits(a.unscaled) - a.scale;
  const mb = digits(b.unscaled) - b.scale;
  if (ma !== mb) return (ma < mb ? -1 : 1) * sa;
  const s = Math.max(a.scale, b.scale);
  const x = a.unscaled * pow10(s - a.scale);
  const y = b.unscaled * pow10(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

function decAdd(a: Dec, b: Dec): Dec {
  const s = Math.max(a.scale, b.scale);
  return { unscaled: a.unscaled * pow10(s - a.scale) + b.unscaled * pow10(s - b.scale), scale: s };
}

/** inf.Dec.Round(x, scale, inf.RoundUp): to exactly `scale`, rounding away from zero. */
function decRoundUp(x: Dec, scale: number): Dec {
  if (x.scale <= scale) return { unscaled: x.unscaled * pow10(scale - x.scale), scale };
  const div = pow10(x.scale - scale);
  let q = x.unscaled / div;
  if (x.unscaled % div !== 0n) q += x.unscaled > 0n ? 1n : -1n;
  return { unscaled: q, scale };
}

function decCanonical(d: Dec): [string, number] {
  let [amount, times] = removeFactors(d.unscaled, 10n);
  let exponent = -d.scale + times;
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  return [String(amount), exponent];
}

function decCanonical1024(d: Dec): [string, number] {
  const r = decRoundUp(d, 0);
  const [amount, exponent] = removeFactors(r.unscaled, 1024n);
  return [String(amount), exponent];
}

// ---- Go's math.Pow10 ------------------------------------------------------------------------------

const POW10_TAB = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS32 = Array.from({ length: 10 }, (_, i) => Number(`1e${i * 32}`));
const POW10_NEG32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${i * 32}`));

/** math.Pow10(n), with Go's table-based rounding. */
export function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS32[Math.trunc(n / 32)]! * POW10_TAB[n % 32]!;
  if (n >= -323 && n <= 0) return POW10_NEG32[Math.trunc(-n / 32)]! / POW10_TAB[-n % 32]!;
  return n > 0 ? Infinity : 0;
}
