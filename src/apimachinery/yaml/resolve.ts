/**
 * Scalar resolution as go-yaml v2 does it (`resolve.go`, the version sigs.k8s.io/yaml and so
 * kubectl and kube-apiserver use): YAML 1.1 booleans (`yes`, `on`, `y`, ...), nulls, `.inf`/`.nan`,
 * integers through Go's `strconv.ParseInt(s, 0, 64)` (base prefixes `0x`, `0o`, `0b`, a leading
 * `0` for octal, underscores dropped first), then uint64, then floats of the YAML 1.1 shape. What
 * none of these reads stays a string: `.`, `12:30` (no sexagesimal numbers), `1e400` (out of range).
 */

export const tagPrefix = 'tag:yaml.org,2002:';
export const strTag = `${tagPrefix}str`;
export const boolTag = `${tagPrefix}bool`;
export const intTag = `${tagPrefix}int`;
export const floatTag = `${tagPrefix}float`;
export const nullTag = `${tagPrefix}null`;
export const timestampTag = `${tagPrefix}timestamp`;
export const binaryTag = `${tagPrefix}binary`;
export const mergeTag = `${tagPrefix}merge`;

/** A Go integer too large for int64 (go-yaml yields uint64 for these). */
export class GoUint64 {
  constructor(readonly value: bigint) {}
}

/**
 * A resolved scalar as Go holds it: string, boolean, null, a JS number for int and float64 (`int`
 * tells which), or GoUint64.
 */
export interface Resolved {
  tag: string;
  value: string | boolean | number | null | GoUint64;
}

/** A scalar that its explicit tag cannot read (go-yaml's `cannot decode !!str `x` as a !!int`). */
export class ResolveError extends Error {}

const resolveMap = new Map<string, Resolved>();
for (const [value, tag, words] of [
  [true, boolTag, ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']],
  [false, boolTag, ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']],
  [null, nullTag, ['', '~', 'null', 'Null', 'NULL']],
  [NaN, floatTag, ['.nan', '.NaN', '.NAN']],
  [Infinity, floatTag, ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']],
  [-Infinity, floatTag, ['-.inf', '-.Inf', '-.INF']],
  ['<<', mergeTag, ['<<']],
] as const) {
  for (const w of words) resolveMap.set(w, { tag, value });
}

/** resolveTable: the first character's hint (S sign, D digit, M in the map, . float). */
function hint(s: string): string {
  if (s === '') return 'N';
  const c = s[0]!;
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return '';
}

export function shortTag(tag: string): string {
  return tag.startsWith(tagPrefix) ? `!!${tag.slice(tagPrefix.length)}` : tag;
}

function resolvable(tag: string): boolean {
  return tag === '' || tag === strTag || tag === boolTag || tag === intTag || tag === floatTag || tag === nullTag || tag === timestampTag;
}

const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const dotFloat = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

/** strconv.ParseInt/ParseUint with base 0: the magnitude and sign, or undefined when not a number. */
function parseGoInteger(s: string, signed: boolean): bigint | undefined {
  let i = 0;
  let neg = false;
  if (signed && (s[0] === '+' || s[0] === '-')) {
    neg = s[0] === '-';
    i = 1;
  }
  let base = 10;
  let digits: string;
  const rest = s.slice(i);
  if (rest.length >= 2 && rest[0] === '0' && 'xXoObB'.includes(rest[1]!)) {
    base = 'xX'.includes(rest[1]!) ? 16 : 'oO'.includes(rest[1]!) ? 8 : 2;
    digits = rest.slice(2);
  } else if (rest.length >= 2 && rest[0] === '0') {
    base = 8;
    digits = rest.slice(1);
  } else {
    digits = rest;
  }
  const valid = base === 16 ? /^[0-9a-fA-F]+$/ : base === 10 ? /^[0-9]+$/ : base === 8 ? /^[0-7]+$/ : /^[01]+$/;
  if (!valid.test(digits)) return undefined;
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  const mag = BigInt(prefix + digits);
  const v = neg ? -mag : mag;
  if (signed ? v < int64Min || v > int64Max : v > uint64Max) return undefined;
  return v;
}

/** strconv.ParseFloat on a decimal literal: undefined when out of range (Go's ErrRange). */
function parseGoFloat(s: string): number | undefined {
  const f = Number(s);
  return Number.isFinite(f) ? f : undefined;
}

/**
 * parseTimestamp: the four layouts go-yaml tries (RFC 3339 with short fields, lower-case `t`, a
 * space-separated date and time without zone, a date alone), with time.Parse's range checks.
 */
export function isTimestamp(s: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:([Tt])|( ))(\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(s);
  if (!m) return false;
  const [, y, mo, d, t, sp, h, mi, se, , zone] = m;
  if (t && zone === undefined) return false;
  if (sp && zone !== undefined) return false;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const year = Number(y);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  if (day > days) return false;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(se) > 59)) return false;
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return false;
  return true;
}

function integer(v: bigint): Resolved {
  return v > int64Max ? { tag: intTag, value: new GoUint64(v) } : { tag: intTag, value: Number(v) };
}

/** The resolution of an untagged plain scalar or of a scalar with a resolvable tag (`!!int`, ...). */
function resolveUnchecked(tag: string, s: string): Resolved {
  const h = hint(s);
  if (h === '' || tag === strTag) return { tag: strTag, value: s };
  const known = resolveMap.get(s);
  if (known) return known;
  switch (h) {
    case '.':
      if (dotFloat.test(s)) {
        const f = parseGoFloat(s);
        if (f !== undefined) return { tag: floatTag, value: f };
      }
      break;
    case 'D':
    case 'S': {
      if ((tag === '' || tag === timestampTag) && isTimestamp(s)) return { tag: timestampTag, value: s };
      const plain = s.replaceAll('_', '');
      const i = parseGoInteger(plain, true) ?? parseGoInteger(plain, false);
      if (i !== undefined) return integer(i);
      if (yamlStyleFloat.test(plain)) {
        const f = parseGoFloat(plain);
        if (f !== undefined) return { tag: floatTag, value: f };
      }
      // go-yaml's own 0b/-0b fallback reads nothing ParseInt with base 0 has not already read.
      break;
    }
  }
  return { tag: strTag, value: s };
}

/**
 * resolve(tag, value): the Go value of a scalar. `tag` is the explicit tag in long form (`''` for
 * none; an untagged quoted or block scalar never comes here: it is a string). Tags outside the
 * resolvable set (`!foo`, `!`, `!!binary`, ...) leave the text as it is. An explicit tag the text
 * does not satisfy throws ResolveError with go-yaml's message; `!!float` accepts an integer.
 */
export function resolveScalar(tag: string, s: string): Resolved {
  if (!resolvable(tag)) return { tag, value: s };
  const r = resolveUnchecked(tag, s);
  if (tag === '' || tag === r.tag || tag === strTag) return r;
  if (tag === floatTag && r.tag === intTag && typeof r.value === 'number') return { tag: floatTag, value: r.value };
  throw new ResolveError(`cannot decode ${shortTag(r.tag)} \`${s}\` as a ${shortTag(tag)}`);
}
