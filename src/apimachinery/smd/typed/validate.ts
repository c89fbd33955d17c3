/**
 * Validation of a value against its type (structured-merge-diff `typed/validate.go`): scalars of
 * the right kind, maps with declared fields (or an element type), associative lists whose items
 * have keys — and no two items with the same key unless duplicates are allowed (an update may
 * store them; an apply may not). Messages are upstream's, Go value formatting included.
 */
import { elementString } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import type { ListType, MapType, Scalar, Schema, TypeRef } from '../schema/schema.ts';
import { compareStrings, goTypeName, goVerbSharpV, isMap, isNumber, isScalar, type Value } from '../value.ts';
import { errorf, withPrefix, type ValidationError } from './errors.ts';
import { findField } from '../schema/schema.ts';
import { itemElement, listValue, mapValue, resolveAtom, valueV } from './helpers.ts';

/** validateScalar: errors when v is not of scalar type t (null and absent always pass). */
export function validateScalar(t: Scalar, v: Value, prefix: string): ValidationError[] {
  if (v === undefined || v === null) return [];
  switch (t) {
    case 'numeric':
      if (!isNumber(v)) return errorf(`${prefix}expected numeric (int or float), got ${goTypeName(v)}`);
      return [];
    case 'string':
      if (typeof v !== 'string') return errorf(`${prefix}expected string, got &value.valueUnstructured{Value:${goVerbSharpV(v)}}`);
      return [];
    case 'boolean':
      if (typeof v !== 'boolean') return errorf(`${prefix}expected boolean, got ${valueV(v)}`);
      return [];
    case 'untyped':
      if (!isScalar(v)) return errorf(`${prefix}expected any scalar, got ${valueV(v)}`);
      return [];
    default:
      return errorf(`${prefix}unexpected scalar type in schema: ${String(t)}`);
  }
}

/** Whether validateScalar(t, v) finds no error. */
function scalarFits(t: Scalar, v: Value): boolean {
  if (v === undefined || v === null) return true;
  switch (t) {
    case 'numeric':
      return isNumber(v);
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'untyped':
      return isScalar(v);
    default:
      return false;
  }
}

export function isEmptyTypeRef(tr: TypeRef | undefined): boolean {
  return tr === undefined || (tr.namedType === undefined && tr.scalar === undefined && tr.list === undefined && tr.map === undefined && tr.elementRelationship === undefined);
}

/** Validate: every error in v against type tr of schema s. */
export function validate(s: Schema, tr: TypeRef, v: Value, allowDuplicates: boolean): ValidationError[] {
  const a = resolveAtom(s, tr, v);
  if (Array.isArray(a)) return a;
  if (a.map !== undefined) {
    const m = mapValue(v);
    if (typeof m === 'string') return errorf(m);
    return m === undefined ? [] : validateMapItems(s, a.map, m, allowDuplicates);
  }
  if (a.scalar !== undefined) return validateScalar(a.scalar, v, '');
  const l = listValue(v);
  if (typeof l === 'string') return errorf(l);
  return l === undefined ? [] : validateListItems(s, a.list!, l, allowDuplicates);
}

/**
 * Whether validate(s, tr, v, allowDuplicates) finds no error, without collecting them: the same
 * walk in map order rather than sorted keys, with no messages built. Every write's objects are
 * valid, so the messages are made only for the rare one that is not.
 */
export function isValid(s: Schema, tr: TypeRef, v: Value, allowDuplicates: boolean): boolean {
  const a = resolveAtom(s, tr, v);
  if (Array.isArray(a)) return false;
  if (a.map !== undefined) {
    if (v === null) return true;
    if (!isMap(v)) return false;
    const t = a.map;
    for (const key in v) {
      if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
      const sf = findField(t, key);
      let ftr: TypeRef | undefined = t.elementType;
      if (sf !== undefined) ftr = sf.type;
      else if (isEmptyTypeRef(t.elementType)) return false;
      if (!isValid(s, ftr ?? {}, v[key], allowDuplicates)) return false;
    }
    return true;
  }
  if (a.scalar !== undefined) return scalarFits(a.scalar, v);
  if (v === null) return true;
  if (!Array.isArray(v)) return false;
  const t = a.list!;
  if (t.elementRelationship !== 'associative') {
    for (let i = 0; i < v.length; i++) if (!isValid(s, t.elementType, v[i], allowDuplicates)) return false;
    return true;
  }
  const observed = allowDuplicates ? undefined : new FieldSet();
  for (let i = 0; i < v.length; i++) {
    const child: Value = v[i];
    const pe = itemElement(s, t, child, i);
    if (typeof pe === 'string') return false;
    if (observed !== undefined) {
      if (observed.hasMember(pe)) return false;
      observed.insert([pe]);
    }
    if (!isValid(s, t.elementType, child, allowDuplicates)) return false;
  }
  return true;
}

function validateListItems(s: Schema, t: ListType, list: unknown[], allowDuplicates: boolean): ValidationError[] {
  const errs: ValidationError[] = [];
  const observed = new FieldSet();
  for (let i = 0; i < list.length; i++) {
    const child = list[i];
    const pe = itemElement(s, t, child, i);
    if (typeof pe === 'string') {
      errs.push(...errorf(`element ${i}: ${pe}`));
      return errs;
    }
    if (t.elementRelationship === 'associative') {
      if (observed.hasMember(pe) && !allowDuplicates) errs.push(...errorf(`duplicate entries for key ${elementString(pe)}`));
      observed.insert([pe]);
    }
    errs.push(...withPrefix(validate(s, t.elementType, child, allowDuplicates), () => elementString(pe)));
  }
  return errs;
}

function validateMapItems(s: Schema, t: MapType, m: Record<string, unknown>, allowDuplicates: boolean): ValidationError[] {
  const errs: ValidationError[] = [];
  for (const key of Object.keys(m).sort(compareStrings)) {
    const sf = findField(t, key);
    let tr: TypeRef | undefined = t.elementType;
    if (sf !== undefined) tr = sf.type;
    else if (isEmptyTypeRef(t.elementType)) {
      errs.push(...withPrefix(errorf('field not declared in schema'), '.' + key));
      return errs;
    }
    errs.push(...withPrefix(validate(s, tr ?? {}, m[key], allowDuplicates), () => '.' + key));
  }
  return errs;
}
