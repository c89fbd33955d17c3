/**
 * Reading a built-in object's fields the way Go's typed structs see them: the codec has checked
 * the types already, so a field of the wrong shape can only be absent here (Go's zero value),
 * and native rules read every field through these without guarding each access.
 */
import { type FieldError, FieldImmutableErrorMsg, invalid, jsonEqual, type Path } from '../../apimachinery/index.ts';

export type Fields = Record<string, unknown>;

/** A struct or map field (absent or not an object: {}). */
export function rec(v: unknown): Fields {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {};
}

/** A struct pointer: the object, or undefined when Go's pointer would be nil. */
export function ptr(v: unknown): Fields | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : undefined;
}

/** A slice field (absent: []). */
export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A string field (absent: ''). */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A []string field: its strings. */
export function strings(v: unknown): string[] {
  return list(v).map(str);
}

/** An integer pointer field: the number, or undefined when nil. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** A map[string]string field. */
export function stringMap(v: unknown): Record<string, string> {
  return rec(v) as Record<string, string>;
}

/**
 * Go's zero value of an absent field, all the way down: Semantic.DeepEqual holds nil and empty
 * slices and maps equal, and an absent string or number is its zero.
 */
function zeroed(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.length === 0 ? null : v.map(zeroed);
  if (typeof v === 'object') {
    const entries = Object.entries(v as object);
    return entries.length === 0 ? null : Object.fromEntries(entries.map(([k, x]) => [k, zeroed(x)]));
  }
  return v;
}

/** Semantic.DeepEqual of two field values (nil and empty alike). */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return jsonEqual(zeroed(a), zeroed(b));
}

/**
 * ValidateImmutableField: `field is immutable` with the new value when it differs from the old;
 * `shown` is the value printed (a Go struct's rendering, or the zero value of an absent field).
 */
export function immutableField(newVal: unknown, oldVal: unknown, fldPath: Path, shown: unknown = newVal ?? ''): FieldError[] {
  return semanticEqual(newVal, oldVal) ? [] : [invalid(fldPath, shown, FieldImmutableErrorMsg)];
}
