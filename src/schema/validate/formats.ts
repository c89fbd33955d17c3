/**
 * String formats: kube-openapi's strfmt registry (validate/strfmt) with the Go parsing semantics
 * behind each format, and Kubernetes' version gating of which formats a CRD may use
 * (apiextensions-apiserver pkg/apiserver/validation/formats.go). Unsupported formats are stripped
 * from the schema before validation, exactly as upstream strips them.
 */
import { compileRegex } from '../../cel/index.ts';
import { isCIDRSloppy, isIPSloppy, isIPStrict, isMAC, isRequestURI } from './net.ts';

export type FormatChecker = (s: string) => boolean;

// Compiled on first use: building these RE2 programs at import cost about 300 ms of every
// command's startup, and most runs check few or none of these formats.
const re = (p: string) => {
  let r: ReturnType<typeof compileRegex> | undefined;
  return (s: string) => (r ??= compileRegex(p)).test(s);
};

const rxHostname = re(
  '^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$',
);
const rxUUID = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$');
const rxUUID3 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$');
const rxUUID4 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$');
const rxUUID5 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$');
const rxCreditCard = re(
  '^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\d{3})\\d{11})$',
);
const rxISBN10 = re('^(?:[0-9]{9}X|[0-9]{10})$');
const rxISBN13 = re('^(?:[0-9]{13})$');
const rxHexcolor = re('^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$');
const rxRGBcolor = re(
  '^rgb\\(\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*\\)$',
);
const rxBase64 = re('^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$');
const rxSSN = re('^\\d{3}[- ]?\\d{2}[- ]?\\d{4}$');
const rxShortName = re('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$');
const rxLongName = re('^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$');
// strfmt's rxDateTime time part, `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`,
// as a native RegExp: fixed-width atoms and one `[0-9]+`, so backtracking stays linear; RE2's `.`
// is `[^\n]` over code points (the `u` flag), and `$` without `m` is the end of text in both.
const rxDateTime = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:[^\n][0-9]+)?(?:z|[+-][0-9]{2}:[0-9]{2})$/u;

function utf8Len(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function isHostname(s: string): boolean {
  if (!rxHostname(s)) return false;
  if (utf8Len(s) > 255) return false;
  for (const p of s.split('.')) if (utf8Len(p) > 63) return false;
  return true;
}

function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]+/g, '');
  if (!rxCreditCard(d)) return false;
  let sum = 0;
  let dbl = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let n = d.charCodeAt(i) - 48;
    if (dbl) {
      n *= 2;
      sum += n >= 10 ? (n % 10) + 1 : n;
    } else sum += n;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

// govalidator's whiteSpacesAndMinus is `[\s-]+` with Go's ASCII \s.
const stripISBN = (s: string) => s.replace(/[\t\n\f\r -]+/g, '');

function isISBN10(s: string): boolean {
  const t = stripISBN(s);
  if (!rxISBN10(t)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * (t.charCodeAt(i) - 48);
  sum += t[9] === 'X' ? 100 : 10 * (t.charCodeAt(9) - 48);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const t = stripISBN(s);
  if (!rxISBN13(t)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (t.charCodeAt(i) - 48);
  return t.charCodeAt(12) - 48 - ((10 - (sum % 10)) % 10) === 0;
}

function isBSONObjectID(s: string): boolean {
  return s.length === 24 && /^[0-9a-fA-F]*$/.test(s);
}

const daysIn = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** time.Parse("2006-01-02", s) succeeds. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const max = mo === 2 && leap ? 29 : daysIn[mo - 1]!;
  return d <= max;
}

// The usual shape of a date-time, matched on the string as given: what isDateTime accepts when
// the character before the fraction digits is ASCII (lower-casing cannot change its length).
// matchesDateTimeASCII is this pattern written out; the tests hold the two together.
export const rxDateTimeASCII = /^(\d{4})-(\d{2})-(\d{2})[tT](\d{2}):(\d{2}):(\d{2})(?:[\x00-\x09\x0b-\x53\x55-\x73\x75-\x7f][0-9]+)?(?:[zZ]|[+-]\d{2}:\d{2})(?:[tT][^]*)?$/;

const nonASCII = /[^\x00-\x7f]/;

/** strfmt.IsDateTime: a loose RFC 3339 check (split on 't', date, then hh:mm:ss[.frac](z|±hh:mm)). */
export function isDateTime(s: string): boolean {
  if (matchesDateTimeASCII(s)) {
    const y = digits(s, 0, 4);
    const mo = digits(s, 5, 2);
    const d = digits(s, 8, 2);
    if (mo < 1 || mo > 12 || d < 1) return false;
    const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    if (d > (mo === 2 && leap ? 29 : daysIn[mo - 1]!)) return false;
    return digits(s, 11, 2) <= 23 && digits(s, 14, 2) <= 59 && digits(s, 17, 2) <= 59;
  }
  // On ASCII the pattern accepts exactly what the split does.
  return hasNonASCII(s) && isDateTimeSplit(s);
}

/**
 * rxDateTimeASCII.test(s), written out: a date-time is checked on every write of a status with
 * conditions, and a regular expression's match array costs more than the rest of the check.
 */
export function matchesDateTimeASCII(s: string): boolean {
  const n = s.length;
  if (n < 20) return false;
  for (let i = 0; i < 19; i++) {
    const c = s.charCodeAt(i);
    switch (i) {
      case 4:
      case 7:
        if (c !== 0x2d) return false; // '-'
        break;
      case 10:
        if (c !== 0x54 && c !== 0x74) return false; // 'T' or 't'
        break;
      case 13:
      case 16:
        if (c !== 0x3a) return false; // ':'
        break;
      default:
        if (c < 0x30 || c > 0x39) return false;
    }
  }
  // An optional fraction (any ASCII but '\n', 'T', 't', then digits), as the pattern tries it first.
  const c = s.charCodeAt(19);
  if (c <= 0x7f && c !== 0x0a && c !== 0x54 && c !== 0x74 && isDigitAt(s, 20)) {
    let j = 21;
    while (isDigitAt(s, j)) j++;
    if (zoneAndRest(s, j)) return true;
  }
  return zoneAndRest(s, 19);
}

/** `(?:[zZ]|[+-]\d{2}:\d{2})(?:[tT][^]*)?$` at i. */
function zoneAndRest(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c === 0x5a || c === 0x7a) i++;
  else if ((c === 0x2b || c === 0x2d) && isDigitAt(s, i + 1) && isDigitAt(s, i + 2) && s.charCodeAt(i + 3) === 0x3a && isDigitAt(s, i + 4) && isDigitAt(s, i + 5)) i += 6;
  else return false;
  if (i === s.length) return true;
  const t = s.charCodeAt(i);
  return t === 0x54 || t === 0x74;
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i); // NaN past the end
  return c >= 0x30 && c <= 0x39;
}

/** The decimal number of the n ASCII digits at i. */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) v = v * 10 + (s.charCodeAt(k) - 0x30);
  return v;
}

/** nonASCII.test(s), by a loop on short strings (cheaper than a regex call). */
function hasNonASCII(s: string): boolean {
  if (s.length > 64) return nonASCII.test(s);
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return true;
  return false;
}

/** isDateTime as strfmt writes it: lower-case, split on 't', check the first two parts. */
function isDateTimeSplit(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = rxDateTime.exec(parts[1]!);
  if (m === null) return false;
  return m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

const maxInt64 = 9223372036854775807n;

/** Go's time.ParseDuration succeeds. */
function isGoDuration(s: string): boolean {
  let i = 0;
  if (s[0] === '-' || s[0] === '+') i++;
  if (s.slice(i) === '0') return true;
  if (i === s.length) return false;
  let total = 0;
  while (i < s.length) {
    const m = /^([0-9]*)(\.[0-9]*)?/.exec(s.slice(i))!;
    const whole = m[1]!;
    const frac = m[2] ?? '';
    if (whole === '' && frac.length <= 1) return false;
    i += m[0].length;
    const u = /^[^0-9.]+/.exec(s.slice(i));
    if (!u) return false;
    const unit = u[0];
    const scale: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };
    if (!(unit in scale)) return false;
    i += unit.length;
    if (whole !== '' && BigInt(whole) > maxInt64) return false;
    total += Number(whole || '0') * scale[unit]!;
    if (total > 9.223372036854776e18) return false;
  }
  return true;
}

const timeUnits: string[][] = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** strfmt.ParseDuration: Go durations, else "<n> <unit>" pairs in many spellings. */
export function isDuration(s: string): boolean {
  if (isGoDuration(s)) return true;
  const rx = /(\d+)\s*([A-Za-zµ]+)/g;
  let ok = false;
  for (let m = rx.exec(s); m !== null; m = rx.exec(s)) {
    if (BigInt(m[1]!) > maxInt64) return false; // strconv.Atoi fails
    const unit = m[2]!.toLowerCase().trim();
    for (const variants of timeUnits) {
      const last = variants.length - 1;
      variants.forEach((v, i) => {
        if ((i === last && unit.startsWith(v)) || v.toLowerCase() === unit) ok = true;
      });
    }
  }
  return ok;
}

// net/mail.ParseAddress, reduced to what addresses look like in practice: an optional display
// name with <addr-spec>, or a bare addr-spec of dot-atoms or a quoted local part.
const atext = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~\\u0080-\\uffff]";
const dotAtom = `${atext}+(?:\\.${atext}+)*`;
const quoted = '"(?:[^"\\\\\\r\\n]|\\\\.)*"';
const addrSpec = `(?:${dotAtom}|${quoted})@(?:${dotAtom}|\\[[^\\[\\]\\\\]*\\])`;
const rxEmail = new RegExp(`^\\s*(?:${addrSpec}|(?:(?:${dotAtom}|${quoted})(?:\\s+(?:${dotAtom}|${quoted}))*\\s*)?<${addrSpec}>)\\s*$`, 'u');

export function isEmail(s: string): boolean {
  return rxEmail.test(s);
}

/** The default strfmt registry: normalized name (dashes removed) -> checker. */
export const formatCheckers: ReadonlyMap<string, FormatChecker> = new Map<string, FormatChecker>([
  ['uri', isRequestURI],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', (s) => isIPSloppy(s) && s.includes('.')],
  ['ipv6', (s) => isIPStrict(s) && s.includes(':')],
  ['cidr', isCIDRSloppy],
  ['mac', isMAC],
  ['uuid', rxUUID],
  ['uuid3', rxUUID3],
  ['uuid4', rxUUID4],
  ['uuid5', rxUUID5],
  ['isbn', (s) => isISBN10(s) || isISBN13(s)],
  ['isbn10', isISBN10],
  ['isbn13', isISBN13],
  ['creditcard', isCreditCard],
  ['ssn', (s) => s.length === 11 && rxSSN(s)],
  ['hexcolor', rxHexcolor],
  ['rgbcolor', rxRGBcolor],
  ['byte', rxBase64],
  ['password', () => true],
  ['date', isDate],
  ['datetime', isDateTime],
  ['duration', isDuration],
  ['bsonobjectid', isBSONObjectID],
  ['k8sshortname', (s) => s.length <= 63 && rxShortName(s)],
  ['k8slongname', (s) => s.length <= 253 && rxLongName(s)],
]);

/** strfmt's name normalizer: dashes removed (`date-time` == `datetime`). */
export function normalizeFormat(name: string): string {
  return name.replaceAll('-', '');
}

const versionedFormats: { since: [number, number]; formats: string[] }[] = [
  {
    since: [1, 0],
    formats: ['bsonobjectid', 'uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4', 'uuid5', 'isbn', 'isbn10', 'isbn13', 'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'byte', 'password', 'date', 'duration', 'datetime'],
  },
  { since: [1, 34], formats: ['k8s-short-name', 'k8s-long-name'] },
];

/** The compatibility version used when none is given (current upstream's default, n-1). */
export const defaultCompatibilityVersion = '1.35';

const supportedCache = new Map<string, Set<string>>();

/** Normalized string formats a CRD may use at a compatibility version ("major.minor"). */
export function supportedFormatsAt(version: string = defaultCompatibilityVersion): Set<string> {
  let set = supportedCache.get(version);
  if (set === undefined) {
    const [maj, min] = version.split('.').map(Number) as [number, number];
    set = new Set();
    for (const vf of versionedFormats) {
      if (maj > vf.since[0] || (maj === vf.since[0] && min >= vf.since[1])) for (const f of vf.formats) set.add(normalizeFormat(f));
    }
    supportedCache.set(version, set);
  }
  return set;
}

/**
 * StripUnsupportedFormatsPostProcessorForVersion: the format that survives for a schema node of
 * the given OpenAPI types ('' when it is dropped and not validated).
 */
export function effectiveFormat(format: string, types: readonly string[], version?: string): string {
  if (format.length === 0) return '';
  const t = types.length === 1 ? types[0]! : '';
  switch (t) {
    case '':
    case 'string':
      return supportedFormatsAt(version).has(normalizeFormat(format)) ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

/** GetUnrecognizedFormats: the formats a schema node uses that the version does not support. */
export function unrecognizedFormats(format: string, types: readonly string[], version?: string): string[] {
  if (format.length === 0) return [];
  return effectiveFormat(format, types, version) === '' ? [format] : [];
}
