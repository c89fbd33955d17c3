/**
 * ToFieldSet (structured-merge-diff `typed/tofieldset.go`): the set of field paths a value sets —
 * every leaf, every associative list item, every map field that is null, empty or undeclared, and
 * an atomic list or map as one path. Items that appear twice under one key become a single path
 * whose contents are not descended (nobody can own half of a duplicated item).
 */
import { FieldSet } from '../fieldpath/set.ts';
import type { Path, PathElement } from '../fieldpath/element.ts';
import { findField, type ListType, type MapType, type Schema, type TypeRef } from '../schema/schema.ts';
import { isMap, type Value } from '../value.ts';
import type { ValidationError } from './errors.ts';
import { fieldType, itemElement, listValue, mapValue, resolveAtom } from './helpers.ts';

export function toFieldSet(s: Schema, tr: TypeRef, v: Value): { set: FieldSet; errors: ValidationError[] } {
  const set = new FieldSet();
  const errors = walk(s, tr, v, [], set);
  return { set, errors };
}

function walk(s: Schema, tr: TypeRef, v: Value, path: PathElement[], set: FieldSet): ValidationError[] {
  const a = resolveAtom(s, tr, v);
  if (Array.isArray(a)) return a;
  if (a.map !== undefined) {
    if (a.map.elementRelationship === 'atomic') {
      set.insert(path);
      return [];
    }
    const m = mapValue(v);
    return m === undefined || typeof m === 'string' ? [] : mapItems(s, a.map, m, path, set);
  }
  if (a.scalar !== undefined) {
    set.insert(path);
    return [];
  }
  const t = a.list!;
  if (t.elementRelationship === 'atomic') {
    set.insert(path);
    return [];
  }
  const l = listValue(v);
  return l === undefined || typeof l === 'string' ? [] : listItems(s, t, l, path, set);
}

function listItems(s: Schema, t: ListType, list: unknown[], path: PathElement[], set: FieldSet): ValidationError[] {
  const errs: ValidationError[] = [];
  const pes = list.map((child, i) => itemElement(s, t, child, i));
  const seen = new FieldSet();
  const duplicates = new FieldSet();
  for (const pe of pes) {
    if (typeof pe === 'string') continue;
    if (seen.hasMember(pe)) {
      if (!duplicates.hasMember(pe)) {
        set.insert([...path, pe]);
        duplicates.insert([pe]);
      }
    } else seen.insert([pe]);
  }
  for (let i = 0; i < list.length; i++) {
    const pe = pes[i]!;
    if (typeof pe === 'string' || duplicates.hasMember(pe)) continue;
    const childPath: Path = [...path, pe];
    errs.push(...walk(s, t.elementType, list[i], childPath as PathElement[], set));
    set.insert(childPath);
  }
  return errs;
}

function mapItems(s: Schema, t: MapType, m: Record<string, unknown>, path: PathElement[], set: FieldSet): ValidationError[] {
  const errs: ValidationError[] = [];
  for (const key of Object.keys(m)) {
    const val = m[key];
    const childPath: PathElement[] = [...path, { kind: 'field', name: key }];
    errs.push(...walk(s, fieldType(t, key), val, childPath, set));
    if (val === null || (isMap(val) && Object.keys(val).length === 0)) set.insert(childPath);
    else if (findField(t, key) === undefined) set.insert(childPath);
  }
  return errs;
}
