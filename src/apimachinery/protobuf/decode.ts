/**
 * Protobuf message -> the JSON kube-apiserver would write for the decoded Go struct. Decoding
 * follows gogo's generated Unmarshal (its wire-type checks and error texts, last value wins,
 * embedded messages merge, repeated fields append, unknown fields skipped); rendering follows
 * encoding/json over the k8s.io/api struct: fields in struct order, `omitempty` drops false, 0,
 * "", nil pointers and empty slices and maps but never a struct, a nil slice or map without it is
 * `null`, a pointer keeps a present zero, inline structs are flattened, map keys sorted, `bytes`
 * are base64, and the special types render as their MarshalJSON does.
 */
import type { Field, Message } from './descriptors.ts';
import { decodeSpecial, specialIsZero, specialZero } from './special.ts';
import { ProtoError, Reader } from './wire.ts';

type Obj = Record<string, unknown>;
/** A struct being decoded: one slot per field of its message, undefined while absent. */
type State = unknown[];

/** The wire type a field's values take (2 for anything length-delimited). */
function wireOf(type: string): number {
  switch (type) {
    case 'string':
    case 'bytes':
      return 2;
    case 'double':
    case 'fixed64':
    case 'sfixed64':
      return 1;
    case 'float':
    case 'fixed32':
    case 'sfixed32':
      return 5;
    default:
      return type.includes('.') ? 2 : 0;
  }
}

/** One scalar of `type` (wire types already checked). */
function scalar(type: string, r: Reader): unknown {
  switch (type) {
    case 'string':
      return r.string();
    case 'bytes':
      // A copy: the request buffer is not kept alive by the decoded object.
      return Uint8Array.from(r.bytes());
    case 'bool':
      return r.bool();
    case 'int32':
      return r.int32();
    case 'uint32':
      return r.uint32();
    case 'int64':
      return r.int64();
    case 'uint64':
      return r.uint();
    case 'sint32': {
      const v = r.uint32();
      return (v >>> 1) ^ -(v & 1);
    }
    case 'sint64': {
      const v = r.int64Big();
      return Number((BigInt.asUintN(64, v) >> 1n) ^ -(BigInt.asUintN(64, v) & 1n));
    }
    case 'double':
      return r.fixed64().getFloat64(0, true);
    case 'fixed64':
      return Number(r.fixed64().getBigUint64(0, true));
    case 'sfixed64':
      return Number(r.fixed64().getBigInt64(0, true));
    case 'float':
      return r.fixed32().getFloat32(0, true);
    case 'fixed32':
      return r.fixed32().getUint32(0, true);
    case 'sfixed32':
      return r.fixed32().getInt32(0, true);
  }
  throw new ProtoError(`proto: unsupported type ${type}`);
}

/** A message value as JSON (structs rendered, specials as their MarshalJSON, named slices as arrays). */
function messageValue(m: Message, buf: Uint8Array): unknown {
  if (m.special) return decodeSpecial(m.special, m.fullName, buf);
  if (m.listOf !== undefined) return decodeList(m, buf);
  return render(m, decodeState(m, buf), {});
}

/** A named slice's message: field 1 repeated; a JSON array (empty, not null, as `&ExtraValue{}` starts). */
function decodeList(m: Message, buf: Uint8Array): unknown[] {
  const out: unknown[] = [];
  const r = new Reader(buf);
  while (!r.eof()) {
    const start = r.pos;
    const { field, wire, raw } = r.tag();
    if (wire === 4) throw new ProtoError(`proto: ${m.goName}: wiretype end group for non-group`);
    if (field <= 0) throw new ProtoError(`proto: ${m.goName}: illegal tag ${field} (wire type ${raw})`);
    if (field !== 1) {
      r.skip(start);
      continue;
    }
    if (wire !== wireOf(m.listOf!)) throw new ProtoError(`proto: wrong wireType = ${wire} for field Items`);
    out.push(scalar(m.listOf!, r));
  }
  return out;
}

/** The JSON of a map value that no entry field gave (`mapvalue := &T{}` and friends). */
function mapZero(f: Field): unknown {
  if (f.message) {
    if (f.message.special) return specialZero(f.message.special);
    if (f.message.listOf !== undefined) return [];
    return render(f.message, undefined, {});
  }
  return f.type === 'bytes' ? new Uint8Array(0) : zeroScalar(f.type);
}

/** One map entry (as gogo reads it: key field 1, value field 2, by number alone). */
function decodeEntry(f: Field, buf: Uint8Array): [string, unknown] {
  const r = new Reader(buf);
  let key = '';
  let value: unknown;
  while (!r.eof()) {
    const start = r.pos;
    const { field } = r.tag();
    if (field === 1) key = r.string();
    else if (field === 2) value = f.message ? messageValue(f.message, r.bytes()) : scalar(f.type, r);
    else r.skip(start);
  }
  return [key, value === undefined ? mapZero(f) : value];
}

/** Decodes a struct message's fields into a fresh state. */
function decodeState(m: Message, buf: Uint8Array): State {
  const state: State = new Array(m.fields.length);
  decodeInto(m, buf, state);
  return state;
}

/** Decodes `buf` into `state` (merging, as a generated Unmarshal on an existing struct does). */
function decodeInto(m: Message, buf: Uint8Array, state: State): void {
  const r = new Reader(buf);
  while (!r.eof()) {
    const start = r.pos;
    const { field, wire, raw } = r.tag();
    if (wire === 4) throw new ProtoError(`proto: ${m.goName}: wiretype end group for non-group`);
    if (field <= 0) throw new ProtoError(`proto: ${m.goName}: illegal tag ${field} (wire type ${raw})`);
    const f = m.byNumber.get(field);
    if (f === undefined) {
      r.skip(start);
      continue;
    }
    const i = f.index;
    const want = f.map ? 2 : wireOf(f.type);
    const packed = f.repeated && want !== 2 && wire === 2;
    if (wire !== want && !packed) throw new ProtoError(`proto: wrong wireType = ${wire} for field ${f.goName}`);
    if (f.map) {
      const [k, v] = decodeEntry(f, r.bytes());
      let map = state[i] as Map<string, unknown> | undefined;
      if (map === undefined) state[i] = map = new Map();
      map.set(k, v);
    } else if (f.repeated) {
      const list = (state[i] ??= []) as unknown[];
      if (packed) {
        const inner = new Reader(r.bytes());
        while (!inner.eof()) list.push(scalar(f.type, inner));
      } else list.push(f.message ? messageValue(f.message, r.bytes()) : scalar(f.type, r));
    } else if (f.message && !f.message.special && f.message.listOf === undefined) {
      // Embedded structs merge: a second occurrence decodes into the same struct.
      decodeInto(f.message, r.bytes(), (state[i] ??= new Array(f.message.fields.length)) as State);
    } else {
      state[i] = f.message ? messageValue(f.message, r.bytes()) : scalar(f.type, r);
    }
  }
}

function zeroScalar(type: string): unknown {
  return type === 'string' ? '' : type === 'bool' ? false : 0;
}

function isZeroScalar(v: unknown): boolean {
  return v === '' || v === false || v === 0;
}

/** Sets a key on a fresh object, even `__proto__` (a map key a client may send). */
function setKey(o: Obj, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function base64(v: unknown): string {
  const b = v as Uint8Array;
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('base64');
}

/** A present value's JSON (the value is one decodeInto stored). */
function present(f: Field, v: unknown): unknown {
  if (f.map) {
    const o: Obj = {};
    const entries = [...(v as Map<string, unknown>)].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [k, x] of entries) setKey(o, k, f.type === 'bytes' ? base64(x) : x);
    return o;
  }
  if (f.repeated) return f.type === 'bytes' ? (v as unknown[]).map(base64) : v;
  if (f.type === 'bytes') return base64(v);
  if (f.message && !f.message.special && f.message.listOf === undefined) return render(f.message, v as State, {});
  return v;
}

/** Whether a present value is the zero its `omitempty`/`omitzero` drops. */
function droppedWhenPresent(f: Field, v: unknown): boolean {
  if (f.pointer || f.map || f.repeated) return false;
  if (f.type === 'bytes') return (f.omitEmpty || f.omitZero) && (v as Uint8Array).length === 0;
  if (f.message) {
    if (!f.omitZero) return false;
    if (f.message.special) return specialIsZero(f.message.special, v);
    return (v as State).every((x) => x === undefined);
  }
  return (f.omitEmpty || f.omitZero) && isZeroScalar(v);
}

/** An absent field's JSON, or undefined when encoding/json leaves it out. */
function absent(f: Field): unknown {
  const omits = f.omitEmpty || f.omitZero;
  if (f.pointer || f.repeated || f.map || f.type === 'bytes' || f.message?.listOf !== undefined) return omits ? undefined : null;
  if (f.message) {
    if (f.omitZero) return undefined;
    return f.message.special ? specialZero(f.message.special) : render(f.message, undefined, {});
  }
  return omits ? undefined : zeroScalar(f.type);
}

/** Writes a struct's JSON fields into `out` in Go struct order. */
function render(m: Message, state: State | undefined, out: Obj): Obj {
  for (let i = 0; i < m.fields.length; i++) {
    const f = m.fields[i]!;
    if (f.noJSON) continue;
    const v = state?.[i];
    if (f.inline) {
      if (v !== undefined || !f.pointer) render(f.message!, v as State | undefined, out);
      continue;
    }
    const j = v === undefined ? absent(f) : droppedWhenPresent(f, v) ? undefined : present(f, v);
    if (j !== undefined) setKey(out, f.json, j);
  }
  return out;
}

/**
 * Decodes one message of a kind into its JSON object, `kind` and `apiVersion` first (as TypeMeta
 * leads the Go struct). Throws ProtoError with the generated decoder's message.
 */
export function decodeMessage(m: Message, raw: Uint8Array, typeMeta?: { apiVersion: string; kind: string }): Obj {
  const out: Obj = typeMeta ? { kind: typeMeta.kind, apiVersion: typeMeta.apiVersion } : {};
  return render(m, decodeState(m, raw), out);
}

/**
 * A struct message's decoded slots, one per field in `m.fields` order (embedded structs as
 * nested slot arrays, bytes as Uint8Array): for readers of envelopes, which need the values,
 * not their JSON.
 */
export function decodeSlots(m: Message, raw: Uint8Array): unknown[] {
  return decodeState(m, raw);
}
