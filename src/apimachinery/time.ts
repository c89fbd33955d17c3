/**
 * metav1.Time on the wire: RFC 3339 in whole seconds, UTC (`2026-01-02T15:04:05Z`), and parsing
 * of such strings with the error texts of Go's time.Parse(time.RFC3339, s), which Kubernetes
 * returns verbatim when a timestamp in a request does not parse; metav1.MicroTime likewise, with
 * exactly six fractional digits (RFC3339Micro: a Lease's renewTime, an Event's eventTime).
 */

const RFC3339 = '2006-01-02T15:04:05Z07:00';
const RFC3339Micro = '2006-01-02T15:04:05.000000Z07:00';

/** Formats an instant as metav1.Time marshals it: RFC 3339, seconds, UTC. */
export function formatRFC3339(t: Date | number): string {
  const ms = typeof t === 'number' ? t : t.getTime();
  const sec = Math.floor(ms / 1000);
  // Writes stamp the current second over and over (creationTimestamp, managedFields' time):
  // the last second's text is kept.
  if (sec === lastFormatted.sec) return lastFormatted.text;
  const text = new Date(sec * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  lastFormatted = { sec, text };
  return text;
}
let lastFormatted = { sec: NaN, text: '' };

/** The current time as metav1.Now() serialises it. */
export function nowRFC3339(): string {
  return formatRFC3339(Date.now());
}

/** epochMs is the instant in milliseconds; micros the microseconds within its second. */
export type ParsedTime = { ok: true; epochMs: number; micros: number } | { ok: false; error: string };

function quote(s: string): string {
  // time.quote: Go-quoted, with \x escapes for bytes that are not printable ASCII.
  let out = '"';
  for (const ch of s) {
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch >= ' ' && ch <= '~') out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += '\\x' + b.toString(16).padStart(2, '0');
  }
  return out + '"';
}

function parseErrorIn(value: string, layoutElem: string, valueElem: string, message = '', layout = RFC3339): ParsedTime {
  if (message !== '') return { ok: false, error: `parsing time ${quote(value)}${message}` };
  return {
    ok: false,
    error: `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`,
  };
}

const isDigit = (s: string, i: number): boolean => i < s.length && s[i]! >= '0' && s[i]! <= '9';

/** getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) {
    if (fixed) return undefined;
    return [Number(s[0]), s.slice(1)];
  }
  return [Number(s.slice(0, 2)), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/**
 * time.Parse(time.RFC3339, value), walking the layout as Go does so that failures carry Go's
 * messages (`cannot parse "x" as "2006"`, `: month out of range`, `: extra text: "..."`).
 */
export function parseRFC3339(value: string): ParsedTime {
  return parseLayout(value, false);
}

/** time.Parse(RFC3339Micro, value): MicroTime.UnmarshalJSON's parse, six fractional digits required. */
export function parseRFC3339Micro(value: string): ParsedTime {
  return parseLayout(value, true);
}

/** MicroTime.MarshalJSON's text: UTC, six fractional digits. */
export function formatMicroTime(t: { epochMs: number; micros: number }): string {
  const sec = Math.floor(t.epochMs / 1000) * 1000;
  return new Date(sec).toISOString().replace(/\.\d{3}Z$/, `.${String(t.micros).padStart(6, '0')}Z`);
}

function parseLayout(value: string, micro: boolean): ParsedTime {
  const layout = micro ? RFC3339Micro : RFC3339;
  const parseError = (a: string, b: string, c: string, m = '') => parseErrorIn(a, b, c, m, layout);
  let v = value;
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let offsetSec = 0;
  const steps: Array<[string, string]> = [
    ['', '2006'],
    ['-', '01'],
    ['-', '02'],
    ['T', '15'],
    [':', '04'],
    [':', '05'],
    ...(micro ? ([['', '.000000']] as Array<[string, string]>) : []),
    ['', 'Z07:00'],
  ];
  for (const [prefix, std] of steps) {
    if (!v.startsWith(prefix)) return parseError(value, prefix, v);
    v = v.slice(prefix.length);
    const hold = v;
    let bad = false;
    let range = '';
    switch (std) {
      case '2006': {
        if (v.length < 4 || !/^\d{4}/.test(v)) bad = true;
        else {
          year = Number(v.slice(0, 4));
          v = v.slice(4);
        }
        break;
      }
      case '01':
      case '02':
      case '04':
      case '05':
      case '15': {
        const r = getnum(v, std !== '15');
        if (r === undefined) {
          bad = true;
          break;
        }
        const [n, rest] = r;
        v = rest;
        if (std === '01') {
          month = n;
          if (n <= 0 || n > 12) range = 'month';
        } else if (std === '02') day = n;
        else if (std === '15') {
          hour = n;
          if (n >= 24) range = 'hour';
        } else if (std === '04') {
          min = n;
          if (n >= 60) range = 'minute';
        } else {
          sec = n;
          if (n >= 60) {
            range = 'second';
            break;
          }
          // A fractional second is accepted although the layout has none.
          if (!micro && v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v, 1)) {
            let i = 2;
            while (isDigit(v, i)) i++;
            const frac = v.slice(1, i);
            if (frac.length > 9) {
              return parseError(value, '', '', ': fractional second out of range');
            }
            nsec = Number(frac.padEnd(9, '0'));
            v = v.slice(i);
          }
        }
        break;
      }
      case '.000000': {
        // stdFracSecond0: exactly the layout's digits after '.' or ','.
        if (v.length < 7 || (v[0] !== '.' && v[0] !== ',') || !/^\d{6}$/.test(v.slice(1, 7))) {
          bad = true;
          break;
        }
        nsec = Number(v.slice(1, 7)) * 1000;
        v = v.slice(7);
        break;
      }
      case 'Z07:00': {
        if (v.length >= 1 && v[0] === 'Z') {
          v = v.slice(1);
          break;
        }
        if (v.length < 6 || v[3] !== ':') {
          bad = true;
          break;
        }
        const sign = v[0];
        const hh = getnum(v.slice(1, 3), true);
        const mm = getnum(v.slice(4, 6), true);
        if (hh === undefined || mm === undefined || (sign !== '+' && sign !== '-')) {
          bad = true;
          break;
        }
        offsetSec = (hh[0] * 3600 + mm[0] * 60) * (sign === '-' ? -1 : 1);
        v = v.slice(6);
        if (hh[0] > 24) range = 'time zone offset hour';
        else if (mm[0] > 60) range = 'time zone offset minute';
        break;
      }
    }
    if (range !== '') return parseError(value, std, v, `: ${range} out of range`);
    if (bad) return parseError(value, std, hold);
  }
  if (v.length !== 0) return parseError(value, '', v, `: extra text: ${quote(v)}`);
  if (day < 1 || day > daysIn(month, year)) return parseError(value, '', v, ': day out of range');
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, min, sec, Math.floor(nsec / 1e6));
  return { ok: true, epochMs: d.getTime() - offsetSec * 1000, micros: Math.floor(nsec / 1000) };
}
