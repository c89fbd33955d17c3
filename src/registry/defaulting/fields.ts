/**
 * The few accessors the built-in kinds' Go defaulters are written with: Go walks typed structs,
 * where a missing struct is a zero struct and a missing pointer is nil; here an object decoded
 * from JSON may lack a field or hold a value of another type (the decoder has refused those on
 * writes, but stored objects are defaulted too), so every step checks what it finds.
 */
import type { Obj } from '../rest.ts';

export type Fields = Record<string, unknown>;

/** `v` as a JSON object, or undefined. */
export function asObject(v: unknown): Fields | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : undefined;
}

/** The JSON object at `key` of `o` (a Go pointer or optional struct that is set), or undefined. */
export function child(o: Fields | undefined, key: string): Fields | undefined {
  return o === undefined ? undefined : asObject(o[key]);
}

/**
 * The JSON object at `key`, created when absent or null: a Go non-pointer struct, which a
 * defaulter may write into (SetDefaults_PersistentVolume sets status.phase on an object that came
 * without status). A value of another type is left alone (undefined).
 */
export function struct(o: Fields, key: string): Fields | undefined {
  const v = o[key];
  if (v === undefined || v === null) return (o[key] = {}) as Fields;
  return asObject(v);
}

/** The JSON objects of the array at `key` (a Go slice of structs), skipping anything else. */
export function items(o: Fields | undefined, key: string): Fields[] {
  const v = o?.[key];
  if (!Array.isArray(v)) return [];
  const out: Fields[] = [];
  for (const e of v) {
    const f = asObject(e);
    if (f !== undefined) out.push(f);
  }
  return out;
}

/** Go's `if x == nil` / `if x == ""` / `if x == 0`: the field is unset (absent, null, or its zero value `zero`). */
export function unset(o: Fields, key: string, zero?: '' | 0): boolean {
  const v = o[key];
  return v === undefined || v === null || (zero !== undefined && v === zero);
}

/** Sets `key` to `value` when unset (see `unset`). */
export function setDefault(o: Fields, key: string, value: unknown, zero?: '' | 0): void {
  if (unset(o, key, zero)) o[key] = value;
}

/** A defaulter over the object's spec, when it has one that is an object (`obj.spec` may be absent). */
export function onSpec(fn: (spec: Fields, obj: Obj) => void): (obj: Obj) => void {
  return (obj) => {
    const spec = asObject(obj.spec);
    if (spec !== undefined) fn(spec, obj);
  };
}
