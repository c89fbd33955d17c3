/**
 * Timestamps and durations for the CEL runtime: RFC 3339 parsing (Go's time.Parse(time.RFC3339)),
 * Go duration syntax (time.ParseDuration), range checks and the calendar fields of a timestamp in
 * UTC, an IANA zone (via Intl) or a fixed `±HH:MM` offset.
 */
import { CelError, Duration, Timestamp, floorDiv } from './values.ts';

const NS = 1_000_000_000n;
export const MIN_UNIX = -62135596800n;
export const MAX_UNIX = 253402300799n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export const errTimestampOverflow = () => new CelError('timestamp overflow');
export const errDurationOverflow = () => new CelError('duration overflow');

/** A timestamp (at the given zone offset), or the overflow error outside years 0001..9999 UTC. */
export function makeTimestamp(ns: bigint, offset = 0): Timestamp | CelError {
  const s = floorDiv(ns, NS);
  return s < MIN_UNIX || s > MAX_UNIX ? errTimestampOverflow() : new Timestamp(ns, offset);
}

/** A duration, or the overflow error outside int64 nanoseconds. */
export function makeDuration(ns: bigint): Duration | CelError {
  return ns < INT64_MIN || ns > INT64_MAX ? errDurationOverflow() : new Duration(ns);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 timestamp as cel-go's timestamp(string) does. */
export function parseTimestamp(s: string): Timestamp | CelError {
  const m = RFC3339.exec(s);
  if (!m) return new CelError(`parsing time "${s}" as "2006-01-02T15:04:05Z07:00": cannot parse "${s}" as "2006"`);
  const [y, mo, d, h, mi, se] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > daysIn(y!, mo!) || h! > 23 || mi! > 59 || se! > 59) {
    return new CelError(`parsing time "${s}": day out of range`);
  }
  const frac = m[7] ? BigInt(m[7].slice(0, 9).padEnd(9, '0')) : 0n;
  let off = 0;
  if (m[9]) {
    off = (Number(m[10]) * 60 + Number(m[11])) * 60;
    if (m[9] === '-') off = -off;
  }
  const days = daysFromCivil(y!, mo!, d!);
  const secs = BigInt(days) * 86400n + BigInt(h! * 3600 + mi! * 60 + se!) - BigInt(off);
  return makeTimestamp(secs * NS + frac, off);
}

function daysIn(y: number, m: number): number {
  return [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n,
  'μs': 1000n,
  ms: 1_000_000n,
  s: NS,
  m: 60n * NS,
  h: 3600n * NS,
};

/** Parses Go duration syntax (`1h2m3.5s`, `-300ms`, `0`), as cel-go's duration(string). */
export function parseDuration(s: string): Duration | CelError {
  const bad = () => new CelError(`time: invalid duration "${s}"`);
  let i = 0;
  let neg = false;
  if (s[i] === '-' || s[i] === '+') {
    neg = s[i] === '-';
    i++;
  }
  if (s.slice(i) === '0') return new Duration(0n);
  if (i >= s.length) return bad();
  let total = 0n;
  const re = /(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/y;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) {
      return m ? bad() : new CelError(`time: ${/\d/.test(s[i] ?? '') ? 'missing unit in duration' : 'invalid duration'} "${s}"`);
    }
    const unit = UNITS[m[3]!]!;
    let v = BigInt(m[1] || '0') * unit;
    if (m[2]) {
      const frac = m[2];
      v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    }
    total += v;
    if (total > 2n ** 63n) return new CelError(`time: invalid duration "${s}"`);
    i = re.lastIndex;
  }
  if (neg) total = -total;
  return makeDuration(total);
}

/** Calendar fields of a timestamp in a zone. */
export interface CivilTime {
  year: number;
  month: number; // 0-based
  day: number; // 1-based
  dayOfWeek: number; // 0 = Sunday
  dayOfYear: number; // 0-based
  hours: number;
  minutes: number;
  seconds: number;
  millis: number;
}

const fmtCache = new Map<string, Intl.DateTimeFormat>();

/** Offset east of UTC in seconds of `tz` at the given instant, or an error for unknown zones. */
function zoneOffset(tz: string, epochMs: number): number | CelError {
  const colon = tz.indexOf(':');
  if (colon >= 0) {
    const hr = Number.parseInt(tz.slice(0, colon), 10);
    const minStr = tz.slice(colon + 1);
    if (!/^[+-]?\d+$/.test(tz.slice(0, colon))) return new CelError(`strconv.Atoi: parsing "${tz.slice(0, colon)}": invalid syntax`);
    if (!/^[+-]?\d+$/.test(minStr)) return new CelError(`strconv.Atoi: parsing "${minStr}": invalid syntax`);
    const min = Number(minStr);
    if (min < 0 || min > 59) return new CelError(`timezone offset minutes out of range [0, 59]: ${tz}`);
    const off = tz[0] === '-' ? hr * 60 - min : hr * 60 + min;
    return off * 60;
  }
  if (tz === 'UTC' || tz === '' || tz === 'Z') return 0;
  let f = fmtCache.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      });
    } catch {
      return new CelError(`unknown time zone ${tz}`);
    }
    fmtCache.set(tz, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  let y = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') y = 1 - y;
  const local =
    daysFromCivil(y, Number(parts.month), Number(parts.day)) * 86400 +
    Number(parts.hour) * 3600 +
    Number(parts.minute) * 60 +
    Number(parts.second);
  return local - Math.floor(epochMs / 1000);
}

/** The calendar fields of t in zone tz (undefined: the offset t was written with, as cel-go). */
export function civil(t: Timestamp, tz?: string): CivilTime | CelError {
  const sec = floorDiv(t.ns, NS);
  const nanos = Number(t.ns - sec * NS);
  let s = Number(sec);
  if (tz !== undefined) {
    const off = zoneOffset(tz, s * 1000);
    if (off instanceof CelError) return off;
    s += off;
  } else s += t.offset;
  const d = new Date(s * 1000);
  const year = d.getUTCFullYear();
  const start = Date.UTC(year, 0, 1);
  const startFixed = new Date(start);
  startFixed.setUTCFullYear(year); // Date.UTC maps years 0..99 to 1900s
  return {
    year,
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    dayOfWeek: d.getUTCDay(),
    dayOfYear: Math.floor((d.getTime() - startFixed.getTime()) / 86400000),
    hours: d.getUTCHours(),
    minutes: d.getUTCMinutes(),
    seconds: d.getUTCSeconds(),
    millis: Math.floor(nanos / 1_000_000),
  };
}
