/**
 * The merge schema (structured-merge-diff `schema`): named types, each an atom that is a scalar,
 * a list (atomic, or associative: a set of scalars, or a map keyed by some fields) or a map
 * (struct fields and/or an element type, atomic or granular). Its YAML form is upstream's, so its
 * test schemas load unchanged; converters from structural schemas and OpenAPI build the same model.
 */
import { parse as parseYAML } from 'yaml';

export type Scalar = 'numeric' | 'string' | 'boolean' | 'untyped';
export type ElementRelationship = 'associative' | 'atomic' | 'separable';

export interface StructField {
  name: string;
  type: TypeRef;
  /** The value a missing associative-list key takes (from the schema's default). */
  default?: unknown;
}

export interface MapType {
  fields?: StructField[];
  elementType?: TypeRef;
  elementRelationship?: ElementRelationship;
  unions?: unknown[];
}

export interface ListType {
  elementType: TypeRef;
  elementRelationship?: ElementRelationship;
  keys?: string[];
}

export interface Atom {
  scalar?: Scalar;
  list?: ListType;
  map?: MapType;
}

/** A reference to a named type or an inlined atom, optionally overriding its relationship. */
export interface TypeRef extends Atom {
  namedType?: string;
  elementRelationship?: ElementRelationship;
}

export interface TypeDef extends Atom {
  name: string;
}

export interface Schema {
  types: TypeDef[];
}

const byName = new WeakMap<Schema, Map<string, TypeDef>>();
const fieldIndex = new WeakMap<MapType, Map<string, StructField>>();
const overridden = new WeakMap<object, Map<string, Atom>>();

export function findNamedType(s: Schema, name: string): TypeDef | undefined {
  let m = byName.get(s);
  if (m === undefined) {
    m = new Map();
    for (const t of s.types) if (!m.has(t.name)) m.set(t.name, t);
    byName.set(s, m);
  }
  return m.get(name);
}

/** Map.FindField. */
export function findField(m: MapType, name: string): StructField | undefined {
  let idx = fieldIndex.get(m);
  if (idx === undefined) {
    idx = new Map();
    for (const f of m.fields ?? []) idx.set(f.name, f);
    fieldIndex.set(m, idx);
  }
  return idx.get(name);
}

function atomOf(a: Atom): Atom {
  const out: Atom = {};
  if (a.scalar !== undefined) out.scalar = a.scalar;
  if (a.list !== undefined) out.list = a.list;
  if (a.map !== undefined) out.map = a.map;
  return out;
}

/**
 * Schema.Resolve: the atom a reference stands for, with an elementRelationship override applied
 * to its list or map (never to a scalar: that fails). undefined when no such type exists.
 * Resolved atoms are cached, so the same reference yields the same objects each time.
 */
export function resolve(s: Schema, tr: TypeRef): Atom | undefined {
  // One lookup per reference on the walks' hot path (every node of every value walked).
  const hit = resolvedRefs.get(tr);
  if (hit !== undefined && hit.s === s) return hit.atom;
  const atom = resolveRef(s, tr);
  resolvedRefs.set(tr, { s, atom });
  return atom;
}

const resolvedRefs = new WeakMap<TypeRef, { s: Schema; atom: Atom | undefined }>();

function resolveRef(s: Schema, tr: TypeRef): Atom | undefined {
  let base: Atom;
  if (tr.namedType !== undefined) {
    const t = findNamedType(s, tr.namedType);
    if (t === undefined) return undefined;
    base = t;
  } else {
    base = tr;
  }
  if (tr.elementRelationship === undefined) {
    return tr.namedType !== undefined ? namedAtom(s, base as TypeDef) : inlineAtom(tr);
  }
  const cacheOwner: object = tr.namedType !== undefined ? (base as TypeDef) : tr;
  let cache = overridden.get(cacheOwner);
  if (cache === undefined) {
    cache = new Map();
    overridden.set(cacheOwner, cache);
  }
  const hit = cache.get(tr.elementRelationship);
  if (hit !== undefined) return hit;
  let result: Atom;
  if (base.map !== undefined) {
    const map: MapType = { ...base.map, elementRelationship: tr.elementRelationship };
    // The copy keeps the field index of the original.
    fieldIndex.set(map, fieldIndexOf(base.map));
    result = { map };
  } else if (base.list !== undefined) {
    result = { list: { ...base.list, elementRelationship: tr.elementRelationship } };
  } else return undefined;
  cache.set(tr.elementRelationship, result);
  return result;
}

function fieldIndexOf(m: MapType): Map<string, StructField> {
  findField(m, '');
  return fieldIndex.get(m)!;
}

const namedAtoms = new WeakMap<TypeDef, Atom>();
function namedAtom(_s: Schema, t: TypeDef): Atom {
  let a = namedAtoms.get(t);
  if (a === undefined) {
    a = atomOf(t);
    namedAtoms.set(t, a);
  }
  return a;
}

const inlineAtoms = new WeakMap<TypeRef, Atom>();
function inlineAtom(tr: TypeRef): Atom {
  let a = inlineAtoms.get(tr);
  if (a === undefined) {
    a = atomOf(tr);
    inlineAtoms.set(tr, a);
  }
  return a;
}

/** A schema from its YAML (or JSON) text in upstream's format (`types: [{name, map|list|scalar}]`). */
export function parseSchema(text: string): Schema {
  const doc = parseYAML(text) as { types?: TypeDef[] } | null;
  return { types: doc?.types ?? [] };
}

/** The deduced schema: any value, maps granular, lists atomic (DeducedParseableType). */
export const deducedSchema: Schema = {
  types: [
    {
      name: '__untyped_atomic_',
      scalar: 'untyped',
      list: { elementType: { namedType: '__untyped_atomic_' }, elementRelationship: 'atomic' },
      map: { elementType: { namedType: '__untyped_atomic_' }, elementRelationship: 'atomic' },
    },
    {
      name: '__untyped_deduced_',
      scalar: 'untyped',
      list: { elementType: { namedType: '__untyped_atomic_' }, elementRelationship: 'atomic' },
      map: { elementType: { namedType: '__untyped_deduced_' }, elementRelationship: 'separable' },
    },
  ],
};

export const deducedTypeRef: TypeRef = { namedType: '__untyped_deduced_' };

/** TypeRef equality, as Updater requires of the objects it merges. */
export function typeRefsEqual(a: TypeRef, b: TypeRef): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
