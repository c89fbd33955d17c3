/**
 * What the resource.k8s.io dropDisabledFields functions share: reading an object's fields as Go's
 * typed structs would (a pointer or slice is set when its key holds a non-null value), and
 * clearing a field the way assigning nil does (the key goes).
 */
import { list } from '../fieldvalues/fields.ts';
import type { Rec } from './device/validation.ts';

/** `x != nil` of a pointer, slice or map field. */
export const isSet = (o: Rec | undefined, key: string): boolean => o !== undefined && o[key] !== undefined && o[key] !== null;

/** `len(x) > 0` of a slice field. */
export const hasItems = (o: Rec | undefined, key: string): boolean => o !== undefined && list(o[key]).length > 0;

/** `x = nil` for each key. MUTATES o. */
export function clear(o: Rec | undefined, ...keys: string[]): void {
  if (o === undefined) return;
  for (const k of keys) delete o[k];
}

/** The objects of a slice field (an absent slice has none). */
export const items = (o: Rec | undefined, key: string): Rec[] =>
  o === undefined ? [] : list(o[key]).filter((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) as Rec[];

/** A struct field, or undefined when absent (a nil pointer). */
export const child = (o: Rec | undefined, key: string): Rec | undefined => {
  const v = o?.[key];
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
};
