/**
 * What every typed walk shares (structured-merge-diff `typed/helpers.go`): resolving a type
 * reference against the value (a deduced atom picks the part that fits the value), dispatching
 * on scalar/list/map, and turning a list item into its path element — the key fields of an
 * associative list (a missing key takes its schema default), a set's value, or the index.
 */
import { type PathElement, indexElement, keyElement, valueElement, type KeyField } from '../fieldpath/element.ts';
import { findField, resolve, type Atom, type ListType, type MapType, type Scalar, type Schema, type TypeRef } from '../schema/schema.ts';
import { goVerbV, isList, isMap, isScalar, type MapValue, type Value } from '../value.ts';
import { errorf, type ValidationError } from './errors.ts';

export interface AtomHandler {
  doScalar(t: Scalar): ValidationError[];
  doList(t: ListType): ValidationError[];
  doMap(t: MapType): ValidationError[];
}

/** deduceAtom: of an atom with several parts, the one that fits the value (unchanged if none). */
export function deduceAtom(atom: Atom, v: Value): Atom {
  if (v === undefined) return atom;
  // An atom of one part deduces to itself (the part fits or nothing does): no copy per node.
  if ((atom.scalar === undefined ? 0 : 1) + (atom.list === undefined ? 0 : 1) + (atom.map === undefined ? 0 : 1) <= 1) return atom;
  if (isScalar(v)) {
    if (atom.scalar !== undefined) return { scalar: atom.scalar };
  } else if (isList(v)) {
    if (atom.list !== undefined) return { list: atom.list };
  } else if (isMap(v)) {
    if (atom.map !== undefined) return { map: atom.map };
  }
  return atom;
}

export function atomsEqual(a: Atom, b: Atom): boolean {
  return a.scalar === b.scalar && a.list === b.list && a.map === b.map;
}

export function handleAtom(a: Atom, tr: TypeRef, h: AtomHandler): ValidationError[] {
  if (a.map !== undefined) return h.doMap(a.map);
  if (a.scalar !== undefined) return h.doScalar(a.scalar);
  if (a.list !== undefined) return h.doList(a.list);
  const name = tr.namedType !== undefined ? 'named type: ' + tr.namedType : 'inlined';
  return errorf(`schema error: invalid atom: ${name}`);
}

/**
 * The deduced atom of tr for v, or the errors of resolveSchema when there is none or it is empty;
 * for walks on the hot path that branch themselves instead of building an AtomHandler.
 */
export function resolveAtom(s: Schema, tr: TypeRef, v: Value): Atom | ValidationError[] {
  const a = resolve(s, tr);
  if (a === undefined) return errorf(`schema error: no type found matching: ${tr.namedType ?? 'inlined type'}`);
  const d = deduceAtom(a, v);
  if (d.map === undefined && d.scalar === undefined && d.list === undefined) {
    return errorf(`schema error: invalid atom: ${tr.namedType !== undefined ? 'named type: ' + tr.namedType : 'inlined'}`);
  }
  return d;
}

export function resolveSchema(s: Schema, tr: TypeRef, v: Value, h: AtomHandler): ValidationError[] {
  const a = resolve(s, tr);
  if (a === undefined) {
    const typeName = tr.namedType ?? 'inlined type';
    return errorf(`schema error: no type found matching: ${typeName}`);
  }
  return handleAtom(deduceAtom(a, v), tr, h);
}

/** Go's %v of a value.Value: a pointer to a struct holding the unstructured value. */
export function valueV(v: Value): string {
  return `&{${goVerbV(v)}}`;
}

/** listValue: the list, undefined for null, an error message for anything else. */
export function listValue(v: Value): unknown[] | undefined | string {
  if (v === null) return undefined;
  if (!isList(v)) return `expected list, got ${valueV(v)}`;
  return v;
}

/** mapValue: the map, undefined for null, an error message for anything else. */
export function mapValue(v: Value): MapValue | undefined | string {
  if (v === undefined) return 'expected map, got nil';
  if (v === null) return undefined;
  if (!isMap(v)) return `expected map, got ${valueV(v)}`;
  return v;
}

function keyDefault(s: Schema, list: ListType, fieldName: string): unknown {
  const atom = resolve(s, list.elementType);
  if (atom === undefined) throw new Error('invalid elementType for list');
  if (atom.map === undefined) throw new Error('associative list may not have non-map types');
  return findField(atom.map, fieldName)?.default;
}

function goQuoteList(keys: readonly string[]): string {
  return '[' + keys.map((k) => JSON.stringify(k)).join(' ') + ']';
}

/** The path element of an associative list's item, or an error message. */
export function listItemToPathElement(s: Schema, list: ListType, child: Value): PathElement | string {
  if (list.elementRelationship !== 'associative') return 'invalid indexing of non-associative list';
  if ((list.keys?.length ?? 0) > 0) {
    if (child === null) return 'associative list with keys may not have a null element';
    if (!isMap(child)) return 'associative list with keys may not have non-map elements';
    const fields: KeyField[] = [];
    for (const name of list.keys!) {
      if (Object.prototype.hasOwnProperty.call(child, name)) {
        fields.push({ name, value: child[name] });
        continue;
      }
      let def: unknown;
      try {
        def = keyDefault(s, list, name);
      } catch (e) {
        return `couldn't find default value for ${name}: ${(e as Error).message}`;
      }
      if (def !== undefined && def !== null) fields.push({ name, value: def });
    }
    if (fields.length === 0) {
      return `associative list with keys has an element that omits all key fields ${goQuoteList(list.keys!)} (and doesn't have default values for any key fields)`;
    }
    return keyElement(fields);
  }
  if (isMap(child)) return "associative list without keys has an element that's a map type";
  if (isList(child)) return 'not supported: associative list with lists as elements';
  if (child === null) return "associative list without keys has an element that's an explicit null";
  return valueElement(child);
}

/** The element of item i: its index in a non-associative list. */
export function itemElement(s: Schema, list: ListType, child: Value, i: number): PathElement | string {
  if (list.elementRelationship !== 'associative') return indexElement(i);
  return listItemToPathElement(s, list, child);
}

/** The type of a map's field: its declared type, else the element type. */
export function fieldType(m: MapType, key: string): TypeRef {
  return findField(m, key)?.type ?? m.elementType ?? {};
}

/** A side of a two-sided walk that is absent or not a list counts as absent. */
function listSide(v: Value): unknown[] | undefined {
  const x = v === undefined ? undefined : listValue(v);
  return typeof x === 'string' ? undefined : x;
}

function mapSide(v: Value): MapValue | undefined {
  const x = v === undefined ? undefined : mapValue(v);
  return typeof x === 'string' ? undefined : x;
}

/**
 * The two sides of a list node for a two-sided walk (compare, merge): a side that is absent or
 * not a list counts as absent; `bothEmpty` tells when the node is to be treated as one leaf.
 */
export function listPair(lhs: Value, rhs: Value): { l?: unknown[]; r?: unknown[]; bothEmpty: boolean } {
  const l = listSide(lhs);
  const r = listSide(rhs);
  return { l, r, bothEmpty: (l === undefined || l.length === 0) && (r === undefined || r.length === 0) };
}

/** listPair for map nodes. */
export function mapPair(lhs: Value, rhs: Value): { l?: MapValue; r?: MapValue; bothEmpty: boolean } {
  const l = mapSide(lhs);
  const r = mapSide(rhs);
  return { l, r, bothEmpty: (l === undefined || Object.keys(l).length === 0) && (r === undefined || Object.keys(r).length === 0) };
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Every key of either map with its value on each side (undefined where absent): MapZip. */
export function zipMaps(l: MapValue | undefined, r: MapValue | undefined): [string, Value, Value][] {
  const out: [string, Value, Value][] = [];
  if (l !== undefined) for (const k of Object.keys(l)) out.push([k, l[k], r !== undefined && hasOwn.call(r, k) ? r[k] : undefined]);
  if (r !== undefined) for (const k of Object.keys(r)) if (l === undefined || !hasOwn.call(l, k)) out.push([k, undefined, r[k]]);
  return out;
}

/** What a two-sided walk does at one node: record it as a leaf, or descend into a list or map. */
export interface TwoSidedVisitor {
  leaf(): void;
  list(t: ListType, l: unknown[] | undefined, r: unknown[] | undefined): ValidationError[];
  map(t: MapType, l: MapValue | undefined, r: MapValue | undefined): ValidationError[];
}

/**
 * The atom handler of a two-sided walk (compare, merge): scalars, atomic nodes and nodes empty on
 * both sides are leaves (visitor.leaf); otherwise the visitor's list or map step gets both sides.
 * A scalar fails only when neither side fits its type. (A class, not closures: walks create one
 * per node, and per-node function objects are what such walks spend their time on.)
 */
class TwoSidedHandler implements AtomHandler {
  constructor(
    private readonly lhs: Value,
    private readonly rhs: Value,
    private readonly visit: TwoSidedVisitor,
    private readonly validateScalar: (t: Scalar, v: Value, prefix: string) => ValidationError[],
  ) {}

  doScalar(t: Scalar): ValidationError[] {
    const lerrs = this.validateScalar(t, this.lhs, 'lhs: ');
    const rerrs = this.validateScalar(t, this.rhs, 'rhs: ');
    if (lerrs.length > 0 && rerrs.length > 0) return [...lerrs, ...rerrs];
    this.visit.leaf();
    return [];
  }

  doList(t: ListType): ValidationError[] {
    const { l, r, bothEmpty } = listPair(this.lhs, this.rhs);
    if (t.elementRelationship === 'atomic' || bothEmpty) {
      this.visit.leaf();
      return [];
    }
    if (l === undefined && r === undefined) return [];
    return this.visit.list(t, l, r);
  }

  doMap(t: MapType): ValidationError[] {
    const { l, r, bothEmpty } = mapPair(this.lhs, this.rhs);
    if (t.elementRelationship === 'atomic' || bothEmpty) {
      this.visit.leaf();
      return [];
    }
    if (l === undefined && r === undefined) return [];
    return this.visit.map(t, l, r);
  }
}

export function twoSidedHandler(
  lhs: Value,
  rhs: Value,
  visit: TwoSidedVisitor,
  validateScalar: (t: Scalar, v: Value, prefix: string) => ValidationError[],
): AtomHandler {
  return new TwoSidedHandler(lhs, rhs, visit, validateScalar);
}
