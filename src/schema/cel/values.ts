/**
 * Custom-resource data -> CEL values, as Kubernetes' UnstructuredToVal
 * (k8s.io/apiserver pkg/cel/common/valuesunstructured.go) presents them to rules: objects as maps
 * keyed by escaped field names (null and undeclared fields absent), additionalProperties as maps,
 * arrays as lists, int-or-string as int or string, `number` as double, and string formats byte,
 * duration, date and date-time as bytes, durations and timestamps. Data that does not fit the
 * schema becomes an error value with Kubernetes' message, raised only when a rule touches it.
 *
 * Lists with x-kubernetes-list-type set or map carry that list type's behaviour (list-types.ts):
 * `==` and `+` then work as Kubernetes' unstructuredSetList / unstructuredMapList.
 */
import { CelError, CelMap, Duration, LazyFields, type ListBehavior, Timestamp, type Val, parseDuration, withListBehavior } from '../../cel/index.ts';
import { GoFloat } from '../../apimachinery/index.ts';
import { goJSONMarshal } from '../value.ts';
import { CEL_RESERVED_SYMBOLS } from './escaping.ts';
import { SET_LIST, mapList, recordRawObject } from './list-types.ts';
import type { DeclType } from './types.ts';

/**
 * The key under which an object keeps the canonical JSON of its fields that rules cannot see
 * (preserved unknown fields, untyped or unescapable properties): objects compare them with deep
 * equality, as unstructuredMap.Equal does. Rules cannot reach it: object types have no such field,
 * and the checker allows neither iteration, indexing nor size() on object types.
 */
export const HIDDEN_FIELDS_KEY = '\u0000unknown';

type MapKey = string | bigint | boolean;

/** How one object type's fields convert: by escaped name and by JSON property. */
interface ObjectSpec {
  byName: Map<string, FieldConv>;
  byProperty: Map<string, FieldConv>;
}

/**
 * The fields of an object value, converted from the data lazily, as Kubernetes' unstructuredMap
 * converts on access: a field is converted when a rule selects it; size, iteration and equality
 * convert the rest first. Also:
 * - a property named as a CEL reserved word: `self.namespace` finds the field stored as
 *   `__namespace__`, as Kubernetes' runtime unescapes selected names;
 * - a field whose data does not fit its schema: `has(self.f)` raises the conversion error, as
 *   unstructuredMap.Contains does (the engine's LazyFields presence test).
 */
class ObjectFields extends LazyFields {
  /** The data not yet fully converted; undefined once every field is. */
  private pending: Record<string, unknown> | undefined;

  constructor(
    private readonly spec: ObjectSpec,
    raw: Record<string, unknown>,
  ) {
    super();
    this.pending = raw;
  }

  override get(k: MapKey): Val | undefined {
    const v = super.get(k);
    if (v !== undefined || typeof k !== 'string') return v;
    const f = this.spec.byName.get(k);
    if (f === undefined) return CEL_RESERVED_SYMBOLS.has(k) ? this.get(`__${k}__`) : undefined;
    if (this.pending === undefined) return undefined;
    const x = this.pending[f.property];
    if (x === null || x === undefined) return undefined;
    const cv = f.conv(x);
    super.set(k, cv);
    return cv;
  }

  override has(k: MapKey): boolean {
    return this.get(k) !== undefined;
  }

  override testPresence(k: string): boolean | CelError {
    const v = this.get(k);
    if (v instanceof CelError) return v;
    return v !== undefined;
  }

  /** Converts every remaining field (and the fields rules cannot see, for equality). */
  private all(): void {
    const raw = this.pending;
    if (raw === undefined) return;
    this.pending = undefined;
    let hidden: Record<string, unknown> | undefined;
    for (const k in raw) {
      const x = raw[k];
      if (x === null || x === undefined) continue;
      const f = this.spec.byProperty.get(k);
      if (f === undefined) (hidden ??= {})[k] = x;
      else if (!super.has(f.name)) super.set(f.name, f.conv(x));
    }
    if (hidden !== undefined) super.set(HIDDEN_FIELDS_KEY, goJSONMarshal(hidden));
  }

  override get size(): number {
    this.all();
    return super.size;
  }
  override keys(): MapIterator<MapKey> {
    this.all();
    return super.keys();
  }
  override values(): MapIterator<Val> {
    this.all();
    return super.values();
  }
  override entries(): MapIterator<[MapKey, Val]> {
    this.all();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[MapKey, Val]> {
    this.all();
    return super[Symbol.iterator]();
  }
  override forEach(cb: (v: Val, k: MapKey, m: Map<MapKey, Val>) => void, thisArg?: unknown): void {
    this.all();
    super.forEach(cb, thisArg);
  }
}

/**
 * Converts JSON data to CEL values. Stateless; a class so that callers hold one per validation (and
 * so that it can grow a cache without changing them).
 */
export class ValueConverter {
  /** The CEL value of data v (JSON-like: numbers, bigint, GoFloat, strings, ...) under type t. */
  convert(v: unknown, t: DeclType): Val {
    return converterFor(t)(v);
  }
}

/** A compiled conversion of data of one declared type (null and undefined included). */
type Conv = (v: unknown) => Val;

const converters = new WeakMap<DeclType, Conv>();
const mapListItemConverters = new WeakMap<DeclType, Conv>();

/** The conversion for a declared type, compiled on first use and kept with the type. */
export function converterFor(t: DeclType): Conv {
  let c = converters.get(t);
  if (c === undefined) converters.set(t, (c = withNull(t, build(t, false))));
  return c;
}

/** Items of list-type=map lists also remember their raw object (their equality reads raw keys). */
function mapListItemConverter(t: DeclType): Conv {
  let c = mapListItemConverters.get(t);
  if (c === undefined) mapListItemConverters.set(t, (c = withNull(t, build(t, true))));
  return c;
}

function withNull(t: DeclType, c: Conv): Conv {
  const onNull: Val = t.schema.nullable ? null : new CelError('invalid data, got null for schema with nullable=false');
  return (v) => (v === null || v === undefined ? onNull : c(v));
}

function goTypeName(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int64';
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
  }
  if (v instanceof GoFloat) return 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

function asInt(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v) && !Object.is(v, -0)) return BigInt(v);
  return undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoFloat);

interface FieldConv {
  /** The escaped CEL name. */
  name: string;
  /** The JSON property. */
  property: string;
  conv: Conv;
}

function build(t: DeclType, tagRaw: boolean): Conv {
  const s = t.schema;
  if (s.xIntOrString) {
    return (v) => {
      if (typeof v === 'string') return v;
      const i = asInt(v);
      return i !== undefined ? i : new CelError('invalid data, expected XIntOrString value to be either a string or integer');
    };
  }
  switch (s.type) {
    case 'object': {
      const notMap = new CelError('invalid data, expected a map for the provided schema with type=object');
      if (t.kind === 'map') {
        const elem = t.elemType!;
        return (v) => {
          if (!isPlainObject(v)) return notMap;
          const conv = converterFor(elem);
          const m = new CelMap();
          for (const k in v) m.m.set(k, conv(v[k]));
          return m;
        };
      }
      let spec: ObjectSpec | undefined;
      return (v) => {
        if (!isPlainObject(v)) return notMap;
        if (spec === undefined) {
          const byProperty = new Map([...(t.byProperty ?? [])].map(([k, f]) => [k, { name: f.name, property: k, conv: converterFor(f.type) }]));
          spec = { byProperty, byName: new Map([...byProperty.values()].map((f) => [f.name, f])) };
        }
        const out = new CelMap(new ObjectFields(spec, v));
        return tagRaw ? recordRawObject(out, v) : out;
      };
    }
    case 'array': {
      const notArray = new CelError('invalid data, expected an array for the provided schema with type=array');
      const behavior: ListBehavior | undefined = s.xListType === 'set' ? SET_LIST : s.xListType === 'map' ? mapList(s.xListMapKeys ?? []) : undefined;
      const et = t.elemType!;
      return (v) => {
        if (!Array.isArray(v)) return notArray;
        const conv = s.xListType === 'map' ? mapListItemConverter(et) : converterFor(et);
        const out = new Array<Val>(v.length);
        for (let i = 0; i < v.length; i++) out[i] = conv(v[i]);
        if (behavior !== undefined) withListBehavior(out, behavior);
        return out;
      };
    }
    case 'string': {
      const notString = (v: unknown) => new CelError(`invalid data, expected string, got ${goTypeName(v)}`);
      switch (s.valueValidation?.format) {
        case 'duration':
          return (v) => {
            if (typeof v !== 'string') return notString(v);
            const d = parseStrfmtDuration(v);
            return d instanceof Duration ? d : new CelError(`Invalid duration ${v}: ${d.message}`);
          };
        case 'date':
          return (v) => {
            if (typeof v !== 'string') return notString(v);
            const d = parseFullDate(v);
            return d instanceof Timestamp ? d : new CelError(`Invalid date formatted string ${v}: ${d.message}`);
          };
        case 'date-time':
          return (v) => {
            if (typeof v !== 'string') return notString(v);
            const d = parseStrfmtDateTime(v);
            return d instanceof Timestamp ? d : new CelError(`Invalid date-time formatted string ${v}: ${d.message}`);
          };
        case 'byte':
          return (v) => {
            if (typeof v !== 'string') return notString(v);
            const b = decodeBase64(v);
            return b instanceof Uint8Array ? b : new CelError(`Invalid byte formatted string ${v}: ${b.message}`);
          };
      }
      return (v) => (typeof v === 'string' ? v : notString(v));
    }
    case 'number':
      return (v) => {
        if (typeof v === 'number') return v;
        if (typeof v === 'bigint') return Number(v);
        if (v instanceof GoFloat) return v.value;
        return new CelError(`invalid data, expected float, got ${goTypeName(v)}`);
      };
    case 'integer':
      return (v) => {
        if (typeof v === 'number' && Number.isSafeInteger(v) && !Object.is(v, -0)) return BigInt(v);
        const i = asInt(v);
        return i !== undefined ? i : new CelError(`invalid data, expected int, got ${goTypeName(v)}`);
      };
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : new CelError(`invalid data, expected bool, got ${goTypeName(v)}`));
  }
  const err = new CelError(
    `invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got ${s.type}`,
  );
  return () => err;
}

const NS = 1_000_000_000n;

/** strfmt.ParseDuration: Go's time.ParseDuration, else `<n><unit>` pairs with day and week units. */
function parseStrfmtDuration(s: string): Duration | CelError {
  const d = parseDuration(s);
  if (d instanceof Duration) return d;
  const units: [RegExp, bigint][] = [
    [/^(ns|nano)/, 1n],
    [/^(us|µs|micro)/, 1000n],
    [/^(ms|milli)/, 1_000_000n],
    [/^(s|sec)/, NS],
    [/^(m|min)/, 60n * NS],
    [/^(h|hr|hour)/, 3600n * NS],
    [/^(d|day)/, 86400n * NS],
    [/^(w|wk|week)/, 7n * 86400n * NS],
  ];
  const rx = /(\d+)\s*([A-Za-zµ]+)/g;
  let total = 0n;
  let found = false;
  for (let m = rx.exec(s); m !== null; m = rx.exec(s)) {
    const unit = m[2]!.toLowerCase();
    const exact = units.find(([re]) => {
      const mm = re.exec(unit);
      return mm !== null && (mm[0] === unit || unit.startsWith(mm[1]!) && /^(nano|micro|milli|sec|min|hour|day|week)/.test(unit));
    });
    if (exact === undefined) continue;
    total += BigInt(m[1]!) * exact[1];
    found = true;
  }
  if (!found) return new CelError(`unable to parse ${s} as duration`);
  return new Duration(total);
}

const daysIn = (y: number, m: number): number =>
  [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;

function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

function timestampOf(y: number, mo: number, d: number, h: number, mi: number, se: number, frac: string, offSec: number): Timestamp | CelError {
  if (mo < 1 || mo > 12) return new CelError('month out of range');
  if (d < 1 || d > daysIn(y, mo)) return new CelError('day out of range');
  if (h > 23) return new CelError('hour out of range');
  if (mi > 59) return new CelError('minute out of range');
  if (se > 59) return new CelError('second out of range');
  const secs = BigInt(daysFromCivil(y, mo, d)) * 86400n + BigInt(h * 3600 + mi * 60 + se) - BigInt(offSec);
  return new Timestamp(secs * NS + (frac ? BigInt(frac.slice(0, 9).padEnd(9, '0')) : 0n), offSec);
}

/** time.Parse("2006-01-02", s). */
function parseFullDate(s: string): Timestamp | CelError {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return new CelError(`parsing time "${s}" as "2006-01-02": cannot parse "${s}" as "2006"`);
  return timestampOf(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, '', 0);
}

/**
 * strfmt.ParseDateTime: RFC 3339 with or without fraction, offsets with or without a colon, local
 * times without an offset (UTC), reduced precision (no seconds) and a space instead of `T`.
 */
function parseStrfmtDateTime(s: string): Timestamp | CelError {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/.exec(s);
  if (!m) return new CelError(`parsing time "${s}" as "2006-01-02T15:04:05.000Z07:00": cannot parse "${s}" as "2006"`);
  let off = 0;
  if (m[9]) {
    off = (Number(m[10]) * 60 + Number(m[11])) * 60;
    if (m[9] === '-') off = -off;
  }
  return timestampOf(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), m[7] ?? '', off);
}

/** strfmt.Base64.UnmarshalText: standard base64 with padding. */
function decodeBase64(s: string): Uint8Array | CelError {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) {
    const i = s.search(/[^A-Za-z0-9+/=]/);
    return new CelError(`illegal base64 data at input byte ${i >= 0 ? i : s.length - (s.length % 4)}`);
  }
  return new Uint8Array(Buffer.from(s, 'base64'));
}
