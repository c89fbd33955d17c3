/**
 * RemoveItems and ExtractItems (structured-merge-diff `typed/remove.go`): a value without the
 * paths of a set, or with only them. Apply uses removal to drop what a manager stopped applying;
 * extraction gives back what one manager owns.
 */
import type { FieldSet } from '../fieldpath/set.ts';
import type { ListType, MapType, Schema, TypeRef } from '../schema/schema.ts';
import { isList, isMap, type Value } from '../value.ts';
import { fieldType, listItemToPathElement, resolveSchema } from './helpers.ts';

/** The value with toRemove's paths removed (shouldExtract false) or only those kept (true). */
export function removeItems(s: Schema, tr: TypeRef, v: Value, toRemove: FieldSet, shouldExtract: boolean): Value {
  let out: Value = undefined;
  resolveSchema(s, tr, v, {
    doScalar: () => {
      out = v;
      return [];
    },
    doList: (t) => {
      out = list(s, t, v, toRemove, shouldExtract);
      return [];
    },
    doMap: (t) => {
      out = map(s, t, v, toRemove, shouldExtract);
      return [];
    },
  });
  // value.NewValueInterface(nil) is a null value, not an absent one.
  return out === undefined ? null : out;
}

function list(s: Schema, t: ListType, v: Value, toRemove: FieldSet, shouldExtract: boolean): Value {
  if (!isList(v)) return undefined;
  if (v.length === 0 || t.elementRelationship === 'atomic') return shouldExtract ? v : undefined;
  const items: unknown[] = [];
  for (let item of v) {
    const pe = listItemToPathElement(s, t, item);
    if (typeof pe === 'string') {
      // Go goes on with a zero path element, which matches nothing.
      if (!shouldExtract) items.push(item);
      continue;
    }
    const exact = toRemove.has([pe]);
    const sub = toRemove.withPrefix(pe);
    const prefixMatch = !sub.empty();
    if (shouldExtract) {
      if (prefixMatch) item = removeItems(s, t.elementType, item, sub, shouldExtract);
      if (exact || prefixMatch) items.push(item);
    } else {
      if (exact) continue;
      if (prefixMatch) item = removeItems(s, t.elementType, item, sub, shouldExtract);
      items.push(item);
    }
  }
  return items.length > 0 ? items : undefined;
}

function map(s: Schema, t: MapType, v: Value, toRemove: FieldSet, shouldExtract: boolean): Value {
  if (!isMap(v)) return undefined;
  if (Object.keys(v).length === 0 || t.elementRelationship === 'atomic') return shouldExtract ? v : undefined;
  const out: Record<string, unknown> = {};
  for (const [k, val0] of Object.entries(v)) {
    let val = val0;
    const pe = { kind: 'field', name: k } as const;
    const ft = fieldType(t, k);
    if (toRemove.has([pe])) {
      if (shouldExtract) out[k] = removeItems(s, ft, val, toRemove, shouldExtract);
      continue;
    }
    const sub = toRemove.withPrefix(pe);
    if (!sub.empty()) val = removeItems(s, ft, val, sub, shouldExtract);
    else if (shouldExtract) continue;
    out[k] = val;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
