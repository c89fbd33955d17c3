/**
 * The API types whose protobuf or JSON form upstream writes by hand: metav1.Time (seconds only,
 * time_proto.go), MicroTime (microseconds), Duration (Go's time.Duration.String()), IntOrString,
 * resource.Quantity (parsed on decode, its canonical string in JSON), and the raw JSON holders
 * runtime.RawExtension and metav1.FieldsV1. Each has a decoder from its message bytes to its JSON
 * value, its zero value's JSON, and an encoder back.
 */
import { parseQuantity, Quantity } from '../../cel/index.ts';
import { goJSONSyntaxError } from '../json/go-json.ts';
import { nestingDepthError } from '../json/depth.ts';
import type { SpecialKind } from './descriptors.ts';
import { ProtoError, Reader, Writer } from './wire.ts';

/** Seconds of Go's zero time.Time (0001-01-01T00:00:00Z) since the Unix epoch. */
const zeroTimeSeconds = -62135596800;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Go's Format of a UTC instant with layout `2006-01-02T15:04:05` (any year, as Go writes it). */
function formatCivil(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const rem = seconds - days * 86400;
  // civil_from_days (H. Hinnant), exact over the whole int53 range of days.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const year = y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  return `${year}-${pad(m, 2)}-${pad(d, 2)}T${pad(Math.floor(rem / 3600), 2)}:${pad(Math.floor((rem % 3600) / 60), 2)}:${pad(rem % 60, 2)}`;
}

/** metav1.Timestamp's fields. */
function decodeTimestamp(buf: Uint8Array): { seconds: number; nanos: number } {
  const r = new Reader(buf);
  let seconds = 0;
  let nanos = 0;
  while (!r.eof()) {
    const start = r.pos;
    const { field, wire, raw } = r.tag();
    if (wire === 4) throw new ProtoError('proto: Timestamp: wiretype end group for non-group');
    if (field <= 0) throw new ProtoError(`proto: Timestamp: illegal tag ${field} (wire type ${raw})`);
    if (field === 1 || field === 2) {
      if (wire !== 0) throw new ProtoError(`proto: wrong wireType = ${wire} for field ${field === 1 ? 'Seconds' : 'Nanos'}`);
      if (field === 1) seconds = r.int64();
      else nanos = r.int32();
    } else r.skip(start);
  }
  return { seconds, nanos };
}

/** One-field messages (IntOrString aside): the field's bytes or varint, with the generated decoder's checks. */
function decodeFields(buf: Uint8Array, goType: string, names: Record<number, [string, number]>, on: (field: number, r: Reader) => void): void {
  const r = new Reader(buf);
  while (!r.eof()) {
    const start = r.pos;
    const { field, wire, raw } = r.tag();
    if (wire === 4) throw new ProtoError(`proto: ${goType}: wiretype end group for non-group`);
    if (field <= 0) throw new ProtoError(`proto: ${goType}: illegal tag ${field} (wire type ${raw})`);
    const known = names[field];
    if (known === undefined) {
      r.skip(start);
      continue;
    }
    if (wire !== known[1]) throw new ProtoError(`proto: wrong wireType = ${wire} for field ${known[0]}`);
    on(field, r);
  }
}

/** Go's time.Duration.String(). */
export function goDurationString(d: bigint): string {
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out = '';
  const frac = (v: bigint, prec: number): bigint => {
    let digits = '';
    let print = false;
    for (let i = 0; i < prec; i++) {
      const digit = v % 10n;
      print ||= digit !== 0n;
      if (print) digits = String(digit) + digits;
      v /= 10n;
    }
    if (print) out = '.' + digits + out;
    return v;
  };
  if (u < 1_000_000_000n) {
    if (u === 0n) return '0s';
    let prec: number;
    if (u < 1000n) {
      prec = 0;
      out = 'ns';
    } else if (u < 1_000_000n) {
      prec = 3;
      out = 'µs';
    } else {
      prec = 6;
      out = 'ms';
    }
    u = frac(u, prec);
    out = String(u) + out;
  } else {
    out = 's';
    u = frac(u, 9);
    out = String(u % 60n) + out;
    u /= 60n;
    if (u > 0n) {
      out = String(u % 60n) + 'm' + out;
      u /= 60n;
      if (u > 0n) out = String(u) + 'h' + out;
    }
  }
  return neg ? '-' + out : out;
}

/** A raw JSON holder's bytes as a JSON value; invalid JSON fails as Go's json.Marshal fails on it. */
function rawJSON(b: Uint8Array, goType: string): unknown {
  const text = Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8');
  const bad = goJSONSyntaxError(b) ?? nestingDepthError(text);
  if (bad !== undefined) throw new ProtoError(`json: error calling MarshalJSON for type ${goType}: ${bad}`);
  return JSON.parse(text);
}

const rawGoTypes: Record<string, string> = {
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'runtime.RawExtension',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'v1.FieldsV1',
};

/**
 * Decodes a special message into its JSON value, as the Go value's MarshalJSON renders it.
 * `fullName` names the message (the raw holders word their errors by Go type).
 */
export function decodeSpecial(kind: SpecialKind, fullName: string, buf: Uint8Array): unknown {
  switch (kind) {
    case 'time': {
      if (buf.length === 0) return null;
      const { seconds } = decodeTimestamp(buf);
      return seconds === zeroTimeSeconds ? null : formatCivil(seconds) + 'Z';
    }
    case 'microtime': {
      if (buf.length === 0) return null;
      const { seconds, nanos } = decodeTimestamp(buf);
      // time.Duration(nanos).Truncate(time.Microsecond), then time.Unix normalises.
      const truncated = nanos > 0 ? nanos - (nanos % 1000) : nanos;
      let s = seconds + Math.floor(truncated / 1e9);
      let n = truncated - Math.floor(truncated / 1e9) * 1e9;
      if (n < 0) {
        n += 1e9;
        s -= 1;
      }
      if (s === zeroTimeSeconds && n === 0) return null;
      return `${formatCivil(s)}.${pad(Math.floor(n / 1000), 6)}Z`;
    }
    case 'duration': {
      let d = 0n;
      decodeFields(buf, 'Duration', { 1: ['Duration', 0] }, (_f, r) => (d = r.int64Big()));
      return goDurationString(d);
    }
    case 'intstr': {
      let type = 0;
      let intVal = 0;
      let strVal = '';
      decodeFields(buf, 'IntOrString', { 1: ['Type', 0], 2: ['IntVal', 0], 3: ['StrVal', 2] }, (f, r) => {
        if (f === 1) type = r.int64();
        else if (f === 2) intVal = r.int32();
        else strVal = r.string();
      });
      if (type === 1) return strVal;
      if (type === 0) return intVal;
      throw new ProtoError('json: error calling MarshalJSON for type intstr.IntOrString: impossible IntOrString.Type');
    }
    case 'quantity': {
      let q: Quantity | undefined;
      decodeFields(buf, 'Quantity', { 1: ['String_', 2] }, (_f, r) => {
        const p = parseQuantity(r.string());
        if (p instanceof Error) throw new ProtoError(p.message);
        q = p;
      });
      return q === undefined ? '0' : q.toString();
    }
    case 'rawjson': {
      let value: unknown = null;
      decodeFields(buf, fullName.slice(fullName.lastIndexOf('.') + 1), { 1: ['Raw', 2] }, (_f, r) => {
        value = rawJSON(r.bytes(), rawGoTypes[fullName] ?? fullName);
      });
      return value;
    }
  }
}

/** The JSON of a special type's zero value (an absent non-pointer field). */
export function specialZero(kind: SpecialKind): unknown {
  switch (kind) {
    case 'time':
    case 'microtime':
    case 'rawjson':
      return null;
    case 'duration':
      return '0s';
    case 'intstr':
      return 0;
    case 'quantity':
      return '0';
  }
}

/** Whether a decoded special value is its type's zero value (for omitzero: Time's IsZero). */
export function specialIsZero(kind: SpecialKind, v: unknown): boolean {
  return kind === 'time' || kind === 'microtime' ? v === null : v === specialZero(kind);
}

const rfc3339 = /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

/** Seconds since the epoch (and nanos) of an RFC 3339 timestamp; undefined for another string. */
function parseTimestamp(s: string): { seconds: number; nanos: number } | undefined {
  const m = rfc3339.exec(s);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (!Number.isFinite(ms)) return undefined;
  let seconds = Math.floor(ms / 1000);
  if (m[8] !== 'Z') {
    const sign = m[8]![0] === '-' ? -1 : 1;
    seconds -= sign * (Number(m[8]!.slice(1, 3)) * 3600 + Number(m[8]!.slice(4, 6)) * 60);
  }
  const nanos = m[7] === undefined ? 0 : Number(m[7].slice(0, 9).padEnd(9, '0'));
  return { seconds, nanos };
}

/** Go's time.ParseDuration for the strings Duration.String() writes (and the other units it reads). */
function parseDuration(s: string): bigint | undefined {
  const units: Record<string, bigint> = { ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };
  let rest = s;
  let neg = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    neg = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  const re = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== '') {
    const m = re.exec(rest);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
    const unit = units[m[3]!]!;
    total += BigInt(m[1] || '0') * unit;
    if (m[2]) total += (BigInt(m[2]) * unit) / 10n ** BigInt(m[2].length);
    rest = rest.slice(m[0].length);
  }
  return neg ? -total : total;
}

/**
 * Encodes a special type's JSON value as its message bytes (as the hand-written Marshal methods
 * do: a zero Time is an empty message). Values that are not the type's JSON form encode as zero.
 */
export function encodeSpecial(kind: SpecialKind, v: unknown): Uint8Array {
  const w = new Writer();
  switch (kind) {
    case 'time':
    case 'microtime': {
      const t = typeof v === 'string' ? parseTimestamp(v) : undefined;
      if (t === undefined || t.seconds === zeroTimeSeconds) break;
      w.tag(1, 0);
      w.int64(t.seconds);
      // Timestamp's generated Marshal writes both fields, zero or not; Time drops the nanos.
      w.tag(2, 0);
      w.int64(kind === 'microtime' ? t.nanos - (t.nanos % 1000) : 0);
      break;
    }
    case 'duration': {
      const d = typeof v === 'string' ? parseDuration(v) : undefined;
      w.tag(1, 0);
      w.int64(d ?? 0n);
      break;
    }
    case 'intstr': {
      const isStr = typeof v === 'string';
      w.tag(1, 0);
      w.uint(isStr ? 1 : 0);
      w.tag(2, 0);
      w.int64(typeof v === 'number' && Number.isInteger(v) ? v : 0);
      w.stringField(3, isStr ? v : '');
      break;
    }
    case 'quantity': {
      const q = typeof v === 'string' ? parseQuantity(v) : typeof v === 'number' ? parseQuantity(String(v)) : undefined;
      w.stringField(1, q === undefined || q instanceof Error ? '0' : q.toString());
      break;
    }
    case 'rawjson':
      if (v !== null && v !== undefined) w.stringField(1, JSON.stringify(v));
      break;
  }
  return w.finish();
}
