/**
 * Go's JSON shape of a built-in object: on a cluster every object is a Go struct written by
 * encoding/json, so a field without `omitempty` is always there (a string as "", a number as 0, a
 * nil slice, map or pointer as null, a struct as an object with its own such fields, a zero
 * metav1.Time as null), a non-pointer struct is there even with `omitempty` (`resources: {}`,
 * `status: {}`), and an `omitempty` field holding its zero value ("", 0, false, an empty slice
 * or map, null) is not; `omitzero` drops a zero struct or time (`creationTimestamp`). This pass
 * gives a decoded JSON object that shape, walking it with the Go types' table of
 * `vendor/k8s-go-shape/1.35/shapes.json` (scripts/gen-go-zero-values.ts). Values of the wrong
 * JSON type are left as they are (the decoder refuses them on writes).
 */
import { readFileSync } from 'node:fs';
import type { Obj } from '../rest.ts';
import { vendorURL } from '../../apimachinery/index.ts';

interface Table {
  flags: { omitempty: number; omitzero: number; pointer: number; inline: number };
  kinds: Record<string, string>;
  types: Record<string, [string, number, string][]>;
}

/** What a missing (absent or null) field becomes, and what a present one is checked for. */
type Node =
  | { k: 'scalar'; zero: unknown }
  | { k: 'special'; zero: unknown }
  | { k: 'struct'; fields: Field[]; optional: boolean }
  | { k: 'list'; elem: Node }
  | { k: 'map'; elem: Node };

interface Field {
  name: string;
  node: Node;
  /** A nil pointer, slice or map, or a null Time, is written as null (no omitempty or omitzero). */
  writesNull: boolean;
  /** omitempty on a scalar, slice or map, or omitzero: its zero value is not written. */
  dropsZero: boolean;
  pointer: boolean;
  inline: boolean;
}

const scalarZero: Record<string, unknown> = { string: '', bool: false, int: 0, float: 0, bytes: '' };
/** The JSON of the hand-marshalled types' zero values (Time.MarshalJSON writes null, Duration "0s", ...). */
const specialZero: Record<string, unknown> = { time: null, duration: '0s', quantity: '0', intstr: 0, raw: null };

let table: Table | undefined;
const compiled = new Map<string, { k: 'struct'; fields: Field[]; optional: boolean }>();

function load(): Table {
  return (table ??= JSON.parse(readFileSync(vendorURL('k8s-go-shape/1.35/shapes.json'), 'utf8')) as Table);
}

function nodeOf(type: string): Node {
  if (type.startsWith('[]')) return { k: 'list', elem: nodeOf(type.slice(2)) };
  if (type.startsWith('map[]')) return { k: 'map', elem: nodeOf(type.slice(5)) };
  if (type in scalarZero) return { k: 'scalar', zero: scalarZero[type] };
  if (type in specialZero) return { k: 'special', zero: specialZero[type] };
  return structOf(type);
}

/** A struct's compiled fields (recursive types share one node). */
function structOf(id: string): { k: 'struct'; fields: Field[]; optional: boolean } {
  let s = compiled.get(id);
  if (s) return s;
  const t = load();
  const raw = t.types[id];
  if (!raw) throw new Error(`no Go type ${id} in the shape table`);
  s = { k: 'struct', fields: [], optional: true };
  compiled.set(id, s);
  const F = t.flags;
  for (const [name, flags, type] of raw) {
    const node = nodeOf(type);
    const pointer = (flags & F.pointer) !== 0;
    const omit = (flags & (F.omitempty | F.omitzero)) !== 0;
    const omitzero = (flags & F.omitzero) !== 0;
    // omitempty never omits a struct (nor a hand-marshalled one: Time, Quantity, ...); omitzero does.
    const isStruct = !pointer && (node.k === 'struct' || node.k === 'special');
    s.fields.push({
      name,
      node,
      pointer,
      inline: (flags & F.inline) !== 0,
      writesNull: !omit && (pointer || node.k === 'list' || node.k === 'map' || (node.k === 'scalar' && type === 'bytes')),
      dropsZero: isStruct ? omitzero : omit,
    });
    // A field without omitempty or omitzero is one its OpenAPI schema requires (pointers too: a Deployment's selector).
    if (!omit) s.optional = false;
  }
  return s;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function isEmpty(node: Node, v: unknown): boolean {
  switch (node.k) {
    case 'scalar':
      return v === node.zero;
    case 'list':
      return Array.isArray(v) && v.length === 0;
    case 'map':
      return isObject(v) && Object.keys(v).length === 0;
    default:
      return false;
  }
}

/** MUTATES o: a JSON object of the struct `s`. */
function shapeStruct(o: Record<string, unknown>, s: { fields: Field[] }, zeros: boolean): void {
  for (const f of s.fields) {
    if (f.inline) {
      if (f.node.k === 'struct') shapeStruct(o, f.node, zeros);
      continue;
    }
    const v = o[f.name];
    if (v === undefined || v === null) {
      if (f.pointer || f.node.k === 'list' || f.node.k === 'map' || f.writesNull) {
        if (f.writesNull) {
          if (zeros) o[f.name] = null;
        } else if (v === null) delete o[f.name];
      } else if (f.dropsZero) {
        if (v === null) delete o[f.name];
      } else if (f.node.k === 'struct') {
        // A request gets only the structs whose fields its schema does not require (an empty
        // NodeSystemInfo would be refused where a cluster accepts the object without it).
        if (!zeros && !f.node.optional) continue;
        const z: Record<string, unknown> = {};
        o[f.name] = z;
        shapeStruct(z, f.node, zeros);
      } else {
        if (zeros) o[f.name] = f.node.k === 'scalar' || f.node.k === 'special' ? f.node.zero : null;
      }
      continue;
    }
    if (f.dropsZero && !f.pointer && isEmpty(f.node, v)) {
      delete o[f.name];
      continue;
    }
    shapeValue(v, f.node, zeros);
  }
}

/** MUTATES v's insides: a present value of `node`'s type. */
function shapeValue(v: unknown, node: Node, zeros: boolean): void {
  switch (node.k) {
    case 'struct':
      if (isObject(v)) shapeStruct(v, node, zeros);
      return;
    case 'list': {
      const e = node.elem;
      if (!Array.isArray(v) || e.k === 'scalar' || e.k === 'special') return;
      for (let i = 0; i < v.length; i++) {
        // A null element of a slice of structs decodes into the zero struct.
        if (v[i] === null && e.k === 'struct') v[i] = {};
        shapeValue(v[i], e, zeros);
      }
      return;
    }
    case 'map': {
      const e = node.elem;
      if (!isObject(v) || e.k === 'scalar' || e.k === 'special') return;
      for (const k in v) shapeValue(v[k], e, zeros);
      return;
    }
    default:
      return;
  }
}

/**
 * Gives an object of one kind Go's JSON shape. MUTATES the object. With `zeros` true (an object on
 * its way out) every field Go writes is there; with `zeros` false (a request, about to be validated
 * by its OpenAPI schema) the missing scalars and nulls are left out — a zero "" would meet the
 * schema's `required` where kube-apiserver's native validation reports `Required value`, and the
 * schema refuses a null where it wants a string or an array — as are the missing structs with
 * fields their schema requires; the other structs are still made and omitempty zeros dropped.
 */
export type GoShape = (obj: Obj, zeros: boolean) => void;

/**
 * The shape pass of a group-version's kind, or undefined when the table has no such kind (kinds
 * served at a version k8s.io/api v0.35 does not have). The kind's types are compiled on first use.
 *
 * An object without status is left without one (where Go writes the empty struct and its zero
 * fields): the strategies here clear a created object's status by removing it, and an update of
 * the main resource keeps the stored status as read, so a status made by this pass on reads would
 * be written back by the first update of an object as read, which must change nothing.
 */
export function goShapeOf(group: string, version: string, kind: string): GoShape | undefined {
  const id = load().kinds[`${group === '' ? version : `${group}/${version}`}/${kind}`];
  if (id === undefined) return undefined;
  let s: { fields: Field[] } | undefined;
  return (obj, zeros) => {
    const status = obj.status;
    shapeStruct(obj, (s ??= structOf(id)), zeros);
    if (status === undefined) delete obj.status;
  };
}
