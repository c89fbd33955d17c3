/**
 * Construction of the well-known protobuf messages by name at run time
 * (`google.protobuf.Int64Value{value: 1}`, `google.protobuf.Struct{fields: {...}}`, ...). As cel-go,
 * the result is the CEL value the message stands for, never a message: wrappers are their
 * primitive, `Value`/`Struct`/`ListValue` are JSON-like values (null, double, string, bool, map,
 * list), `Duration`/`Timestamp` are durations and timestamps. `Any` has no CEL value of its own: an
 * empty one fails to unpack (cel-go's `conversion` error).
 */
import { CelError, CelMap, Duration, INT_MAX, INT_MIN, Timestamp, Uint, type Val, typeName } from './values.ts';

/** The well-known message names constructible by name. */
export const WELL_KNOWN_MESSAGES: ReadonlySet<string> = new Set([
  'google.protobuf.Any',
  'google.protobuf.BoolValue',
  'google.protobuf.BytesValue',
  'google.protobuf.DoubleValue',
  'google.protobuf.Duration',
  'google.protobuf.FloatValue',
  'google.protobuf.Int32Value',
  'google.protobuf.Int64Value',
  'google.protobuf.ListValue',
  'google.protobuf.StringValue',
  'google.protobuf.Struct',
  'google.protobuf.Timestamp',
  'google.protobuf.UInt32Value',
  'google.protobuf.UInt64Value',
  'google.protobuf.Value',
]);

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const UINT32_MAX = 2n ** 32n - 1n;

const rangeErr = () => new CelError('range error');
const fieldErr = (msg: string, f: string) => new CelError(`no such field '${f}' in message '${msg}'`);

/** A CEL value as a google.protobuf.Value (JSON-like): maps need string keys, numbers become double. */
function jsonValue(v: Val): Val {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Uint) return Number(v.v);
  if (Array.isArray(v)) {
    const out: Val[] = [];
    for (const x of v as Val[]) {
      const j = jsonValue(x);
      if (j instanceof CelError) return j;
      out.push(j);
    }
    return out;
  }
  if (v instanceof CelMap) return jsonStruct(v);
  return new CelError(`type conversion error from '${typeName(v)}' to 'google.protobuf.Value'`);
}

function jsonStruct(m: CelMap): Val {
  const out = new CelMap();
  for (const [k, x] of m.entries()) {
    if (typeof k !== 'string') return new CelError(`unsupported map key type: ${typeName(k)}`);
    const j = jsonValue(x);
    if (j instanceof CelError) return j;
    out.set(k, j);
  }
  return out;
}

/**
 * Builds the CEL value of the well-known message `name` from its set fields (field name -> CEL
 * value, in source order). Returns an error value for unknown fields, out-of-range values and an
 * empty `Any`.
 */
export function constructWellKnown(name: string, fields: ReadonlyArray<readonly [string, Val]>): Val {
  const only = (allowed: string): CelError | undefined => {
    for (const [f] of fields) if (f !== allowed) return fieldErr(name, f);
    return undefined;
  };
  const value = fields.length ? fields[fields.length - 1]![1] : undefined;
  switch (name) {
    case 'google.protobuf.BoolValue':
      return only('value') ?? value ?? false;
    case 'google.protobuf.BytesValue':
      return only('value') ?? value ?? new Uint8Array();
    case 'google.protobuf.StringValue':
      return only('value') ?? value ?? '';
    case 'google.protobuf.DoubleValue':
      return only('value') ?? value ?? 0;
    case 'google.protobuf.FloatValue':
      // A float field holds a float32: narrow as protobuf does.
      return only('value') ?? (typeof value === 'number' ? Math.fround(value) : (value ?? 0));
    case 'google.protobuf.Int64Value':
      return only('value') ?? value ?? 0n;
    case 'google.protobuf.Int32Value': {
      const e = only('value');
      if (e) return e;
      if (typeof value === 'bigint' && (value < INT32_MIN || value > INT32_MAX)) return rangeErr();
      return value ?? 0n;
    }
    case 'google.protobuf.UInt64Value':
      return only('value') ?? value ?? new Uint(0n);
    case 'google.protobuf.UInt32Value': {
      const e = only('value');
      if (e) return e;
      if (value instanceof Uint && value.v > UINT32_MAX) return rangeErr();
      return value ?? new Uint(0n);
    }
    case 'google.protobuf.ListValue': {
      const e = only('values');
      if (e) return e;
      return value === undefined ? [] : jsonValue(value);
    }
    case 'google.protobuf.Struct': {
      const e = only('fields');
      if (e) return e;
      return value === undefined ? new CelMap() : value instanceof CelMap ? jsonStruct(value) : jsonValue(value);
    }
    case 'google.protobuf.Value': {
      // A oneof: the last kind set wins; none set is null.
      if (!fields.length) return null;
      const [f, v] = fields[fields.length - 1]!;
      switch (f) {
        case 'null_value':
          return null;
        case 'number_value':
        case 'string_value':
        case 'bool_value':
          return v;
        case 'struct_value':
        case 'list_value':
          return jsonValue(v);
        default:
          return fieldErr(name, f);
      }
    }
    case 'google.protobuf.Duration':
    case 'google.protobuf.Timestamp': {
      let seconds = 0n;
      let nanos = 0n;
      for (const [f, v] of fields) {
        if (f === 'seconds' && typeof v === 'bigint') seconds = v;
        else if (f === 'nanos' && typeof v === 'bigint') nanos = v;
        else return fieldErr(name, f);
      }
      const ns = seconds * 1_000_000_000n + nanos;
      if (name === 'google.protobuf.Duration') return ns < INT_MIN || ns > INT_MAX ? rangeErr() : new Duration(ns);
      return new Timestamp(ns);
    }
    case 'google.protobuf.Any': {
      // Packing arbitrary messages needs a protobuf registry; an Any without a type URL cannot unpack.
      for (const [f] of fields) if (f !== 'type_url' && f !== 'value') return fieldErr(name, f);
      return new CelError('conversion error: google.protobuf.Any has no type_url');
    }
  }
  return new CelError(`unknown type: ${name}`);
}
