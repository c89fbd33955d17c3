/**
 * JSON object -> protobuf message, as gogo's generated Marshal writes the Go struct the JSON
 * decodes into: fields in field-number order; non-pointer scalars and strings always (zero or
 * not), pointers only when set, non-pointer structs always (an empty one as its zero fields),
 * `bytes` when non-nil, repeated fields element by element (unpacked), maps by sorted key, inline
 * structs from the same JSON object, and the special types as their hand-written Marshal does.
 */
import type { Field, Message } from './descriptors.ts';
import { encodeSpecial } from './special.ts';
import { Writer } from './wire.ts';

type Obj = Record<string, unknown>;

const wireOrder = new WeakMap<Message, Field[]>();

/** A message's fields by ascending number (the order Marshal writes them). */
function byNumber(m: Message): Field[] {
  let fields = wireOrder.get(m);
  if (!fields) wireOrder.set(m, (fields = [...m.fields].sort((a, b) => a.number - b.number)));
  return fields;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

/** One scalar value with its tag. */
function writeScalar(w: Writer, number: number, type: string, v: unknown): void {
  switch (type) {
    case 'string':
      w.stringField(number, typeof v === 'string' ? v : '');
      return;
    case 'bytes':
      w.bytesField(number, typeof v === 'string' ? Buffer.from(v, 'base64') : new Uint8Array(0));
      return;
    case 'bool':
      w.tag(number, 0);
      w.uint(v === true ? 1 : 0);
      return;
    case 'double':
      w.tag(number, 1);
      w.double(typeof v === 'number' ? v : 0);
      return;
    case 'float':
      w.tag(number, 5);
      w.float(typeof v === 'number' ? v : 0);
      return;
    case 'fixed32':
    case 'sfixed32':
      w.tag(number, 5);
      w.fixed32(num(v));
      return;
    case 'fixed64':
    case 'sfixed64':
      w.tag(number, 1);
      w.fixed64(BigInt(num(v)));
      return;
    case 'sint32':
    case 'sint64': {
      const n = BigInt(num(v));
      w.tag(number, 0);
      w.int64(BigInt.asUintN(64, (n << 1n) ^ (n >> 63n)));
      return;
    }
    default:
      // int32, int64, uint32, uint64: varints (negatives as ten-byte two's complement).
      w.tag(number, 0);
      w.int64(num(v));
  }
}

/** A message-typed value's bytes: a special's hand-written form, a named slice, or a struct. */
function messageBytes(m: Message, v: unknown): Uint8Array {
  if (m.special) return encodeSpecial(m.special, v);
  const w = new Writer();
  if (m.listOf !== undefined) {
    for (const x of Array.isArray(v) ? v : []) writeScalar(w, 1, m.listOf, x);
  } else encodeInto(w, m, isObj(v) ? v : undefined);
  return w.finish();
}

function writeValue(w: Writer, f: Field, number: number, v: unknown): void {
  if (f.message) w.bytesField(number, messageBytes(f.message, v));
  else writeScalar(w, number, f.type, v);
}

/** Whether the JSON holds any of an inline struct's fields (a pointer to it is then set). */
function hasInlineFields(m: Message, obj: Obj): boolean {
  return m.fields.some((f) => (f.inline ? hasInlineFields(f.message!, obj) : obj[f.json] !== undefined && obj[f.json] !== null));
}

function encodeInto(w: Writer, m: Message, obj: Obj | undefined): void {
  for (const f of byNumber(m)) {
    if (f.inline) {
      if (f.pointer && (obj === undefined || !hasInlineFields(f.message!, obj))) continue;
      w.bytesField(f.number, messageBytes(f.message!, obj ?? {}));
      continue;
    }
    const v = f.noJSON ? undefined : obj?.[f.json];
    const unset = v === undefined || v === null;
    if (f.map) {
      if (!isObj(v)) continue;
      for (const key of Object.keys(v).sort()) {
        const entry = new Writer();
        entry.stringField(1, key);
        const x = v[key];
        // A nil []byte value is left out of its entry, as gogo writes it.
        if (!(f.type === 'bytes' && (x === null || x === undefined))) writeValue(entry, f, 2, x);
        w.bytesField(f.number, entry.finish());
      }
    } else if (f.repeated) {
      if (Array.isArray(v)) for (const x of v) writeValue(w, f, f.number, x);
    } else if (f.pointer || f.type === 'bytes' || f.message?.listOf !== undefined) {
      if (!unset) writeValue(w, f, f.number, v);
    } else {
      writeValue(w, f, f.number, unset ? undefined : v);
    }
  }
}

/** Encodes a JSON object as message `m` (its `kind` and `apiVersion` go in the envelope, not here). */
export function encodeMessage(m: Message, obj: Obj): Uint8Array {
  const w = new Writer();
  encodeInto(w, m, obj);
  return w.finish();
}
