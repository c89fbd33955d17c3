/**
 * Go's view of a decoded JSON object, for the defaulters ported from Go: a struct field that is
 * not a pointer is always there (zero when the JSON left it out, so its defaults apply to an
 * absent object too), a pointer field is nil when absent or null, and a string or slice is
 * "empty" when absent, null or of length zero. The objects handed here were decoded by the
 * kind's Go-type check first, so a field holds the JSON type its Go type takes.
 */

export type Rec = Record<string, unknown>;

export const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A pointer field: its object, or undefined when it is nil. */
export function ptr(parent: Rec, key: string): Rec | undefined {
  const v = parent[key];
  return isRec(v) ? v : undefined;
}

/** A struct field (not a pointer in Go): its object, made empty where the JSON had none. MUTATES `parent`. */
export function struct(parent: Rec, key: string): Rec {
  const v = parent[key];
  if (isRec(v)) return v;
  const made: Rec = {};
  parent[key] = made;
  return made;
}

/** The objects of a slice field (none when it is nil). */
export function items(parent: Rec, key: string): Rec[] {
  const v = parent[key];
  return Array.isArray(v) ? v.filter(isRec) : [];
}

/** Whether a pointer field is nil. */
export const isNil = (parent: Rec, key: string): boolean => parent[key] === undefined || parent[key] === null;

/** Whether a string, slice or map field has Go's zero length (absent, null, "", [] or {}). */
export function isEmpty(parent: Rec, key: string): boolean {
  const v = parent[key];
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isRec(v) && Object.keys(v).length === 0;
}

/** `if obj.Field == nil { obj.Field = &value }`. MUTATES `parent`. */
export function defaultPtr(parent: Rec, key: string, value: unknown): void {
  if (isNil(parent, key)) parent[key] = value;
}

/** `if obj.Field == "" { obj.Field = value }` (or a zero number, for Go's non-pointer ints). MUTATES `parent`. */
export function defaultZero(parent: Rec, key: string, value: unknown): void {
  const v = parent[key];
  if (v === undefined || v === null || v === '' || v === 0) parent[key] = value;
}
