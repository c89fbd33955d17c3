/**
 * Cron schedules as robfig/cron v3's standard parser reads them (cron.ParseStandard, which
 * kube-apiserver validates CronJob schedules with): five fields (minute, hour, day of month,
 * month, day of week; names for months and days), `*`/`?`, ranges, steps and lists, the
 * `@yearly`...`@hourly` and `@every <duration>` descriptors, and a `TZ=`/`CRON_TZ=` prefix. Errors
 * are robfig's messages, which kubectl shows after `Invalid value: "<schedule>": `.
 */
import { isTimeZone } from './time-zone.ts';

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const minutes: Bounds = { min: 0, max: 59 };
const hours: Bounds = { min: 0, max: 23 };
const dom: Bounds = { min: 1, max: 31 };
const months: Bounds = {
  min: 1,
  max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
const dow: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

class CronError extends Error {}

/** strconv.Atoi: an optional sign and decimal digits within int64. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) {
    throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  }
  return Number(n);
}

function mustParseInt(s: string): number {
  const n = atoi(s);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${s}`);
  return n;
}

function parseIntOrName(s: string, names: Record<string, number> | undefined): number {
  const named = names?.[s.toLowerCase()];
  return named !== undefined ? named : mustParseInt(s);
}

function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]!);
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) {
    throw new CronError(`too many slashes: ${expr}`);
  }
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

function checkField(field: string, r: Bounds): void {
  for (const expr of field.split(',').filter((s) => s !== '')) checkRange(expr, r);
}

const durationUnits: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** time.ParseDuration's acceptance and its error messages. */
function parseDuration(s: string): void {
  const orig = s;
  const quoted = JSON.stringify(orig);
  if (s.startsWith('-') || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return;
  if (s === '') throw new Error(`time: invalid duration ${quoted}`);
  while (s !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(s)!;
    if (num[0] === '' || num[0] === '.') throw new Error(`time: invalid duration ${quoted}`);
    s = s.slice(num[0].length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    if (durationUnits[unit] === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
  }
}

const descriptors = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** cron.ParseStandard: undefined when the schedule parses, else robfig's error message. */
export function parseStandardSchedule(spec: string): string | undefined {
  try {
    if (spec.length === 0) return 'empty spec string';
    if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
      const i = spec.indexOf(' ');
      const eq = spec.indexOf('=');
      const name = i < 0 ? spec.slice(eq + 1) : spec.slice(eq + 1, i);
      if (!isTimeZone(name)) return `provided bad location ${name}: unknown time zone ${name}`;
      spec = i < 0 ? '' : spec.slice(i).trim();
    }
    if (spec.startsWith('@')) {
      if (descriptors.has(spec)) return undefined;
      if (spec.startsWith('@every ')) {
        try {
          parseDuration(spec.slice('@every '.length));
        } catch (e) {
          return `failed to parse duration ${spec}: ${(e as Error).message}`;
        }
        return undefined;
      }
      return `unrecognized descriptor: ${spec}`;
    }
    const fields = spec.split(/[\t\n\v\f\r \u0085\u00a0]+/).filter((f) => f !== '');
    if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
    checkField(fields[0]!, minutes);
    checkField(fields[1]!, hours);
    checkField(fields[2]!, dom);
    checkField(fields[3]!, months);
    checkField(fields[4]!, dow);
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}
