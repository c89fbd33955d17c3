/**
 * The managedFields a create is given, remembered by the created object's shape.
 *
 * A create whose object carries no managedFields is recorded against an object holding only
 * apiVersion and kind, so what the layers make of it depends on the manager and on the object's
 * field paths alone: the keys of its maps, the kind of each scalar (what the typed conversion
 * checks) and its lists, which are kept whole (an associative list's paths hold its items' keys,
 * a set's its values, and only the schema tells which a list is). Clients and controllers create
 * many objects of one shape; the layers work each shape out once, and later creates of it get a
 * copy of that result with the current time. Results the layers could change in any other way
 * (a converted object, more than one entry) are not remembered.
 */
import { GoFloat } from '../field/govalue.ts';
import type { ManagedFieldsEntry } from './entries.ts';
import { deepCopy, type Obj } from './manager.ts';

/** Shapes deeper than this are not remembered (the walks stay shallow; such objects are rare). */
const maxDepth = 64;
/** Shapes kept per manager and kind; the oldest goes first. */
const maxShapes = 16;
/** Managers (with the kinds they create) remembered; the memo starts over when it is full. */
const maxManagers = 256;

/**
 * A shape: a map's members (in order) as shapes, a list kept whole, a scalar as its kind
 * (`s` string, `i` integer, `d` float, `b` boolean, `n` null).
 */
type Shape = string | Whole | Members;

class Members {
  constructor(
    readonly keys: string[],
    readonly shapes: Shape[],
  ) {}
}

class Whole {
  constructor(readonly value: unknown) {}
}

/** What a create of one shape was recorded as: its one entry without its time, or none. */
interface Recorded {
  shape: Shape;
  entry: ManagedFieldsEntry | undefined;
}

export class CreateMemo {
  private readonly byManager = new Map<string, Recorded[]>();

  /**
   * The entries a create of `obj` (without managedFields) by `manager` was recorded with, the
   * time set to `now`; undefined when no create of its shape is known. `manager` also names the
   * kinds involved.
   */
  entries(obj: Obj, manager: string, now: () => string): { entries: ManagedFieldsEntry[] | undefined } | undefined {
    const known = this.byManager.get(manager);
    if (known === undefined) return undefined;
    for (const r of known) {
      if (!matches(r.shape, obj, 0)) continue;
      if (r.entry === undefined) return { entries: undefined };
      const e: ManagedFieldsEntry = { ...r.entry, fieldsV1: copyFields(r.entry.fieldsV1 as Obj) };
      if (e.time !== undefined) e.time = now();
      return { entries: [e] };
    }
    return undefined;
  }

  /**
   * Remembers what the layers made of a create: `made` is their object, `given` the object they
   * were given (without managedFields). Kept only when the layers changed nothing but
   * managedFields, wrote at most one entry, and `given` is plain JSON of a bounded depth.
   */
  record(given: Obj, manager: string, made: Obj): void {
    const mf = (made.metadata as Obj | undefined)?.managedFields as ManagedFieldsEntry[] | undefined;
    if (mf !== undefined && (!Array.isArray(mf) || mf.length !== 1)) return;
    // `given` may be `made` itself, its managedFields just set: they are no part of the shape.
    const md = given.metadata;
    let plain = given;
    if (isPlain(md) && md.managedFields !== undefined) {
      const { managedFields: _, ...rest } = md;
      plain = { ...given, metadata: rest };
    }
    const shape = shapeOf(plain, 0);
    if (shape === undefined || !sameExceptManagedFields(plain, made)) return;
    let known = this.byManager.get(manager);
    if (known === undefined) {
      if (this.byManager.size >= maxManagers) this.byManager.clear();
      this.byManager.set(manager, (known = []));
    }
    if (known.length >= maxShapes) known.shift();
    known.push({ shape, entry: mf === undefined ? undefined : { ...mf[0]!, fieldsV1: copyFields(mf[0]!.fieldsV1 as Obj) } });
  }
}

function scalarKind(v: unknown): string | undefined {
  if (v === null) return 'n';
  switch (typeof v) {
    case 'string':
      return 's';
    case 'boolean':
      return 'b';
    case 'number':
      return Number.isInteger(v) ? 'i' : 'd';
    case 'bigint':
      return 'i';
    case 'object':
      return v instanceof GoFloat ? 'd' : undefined;
    default:
      return undefined;
  }
}

function isPlainMap(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && !Array.isArray(v);
}

/** The shape of `v`, or undefined when it holds anything but plain JSON values or nests too deep. */
function shapeOf(v: unknown, depth: number): Shape | undefined {
  if (depth > maxDepth) return undefined;
  const kind = scalarKind(v);
  if (kind !== undefined) return kind;
  if (typeof v !== 'object' || v === null) return undefined;
  if (Array.isArray(v)) return plainJSON(v, depth + 1) ? new Whole(deepCopy(v)) : undefined;
  if (!isPlainMap(v)) return undefined;
  const keys = Object.keys(v);
  const shapes: Shape[] = [];
  for (const k of keys) {
    const s = shapeOf((v as Obj)[k], depth + 1);
    if (s === undefined) return undefined;
    shapes.push(s);
  }
  return new Members(keys, shapes);
}

function plainJSON(v: unknown, depth: number): boolean {
  if (depth > maxDepth) return false;
  if (scalarKind(v) !== undefined) return true;
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return v.every((x) => plainJSON(x, depth + 1));
  return isPlainMap(v) && Object.keys(v).every((k) => plainJSON((v as Obj)[k], depth + 1));
}

/** Whether `v` is of shape `s`: the same keys in the same order, scalars of the same kinds. */
function matches(s: Shape, v: unknown, depth: number): boolean {
  if (typeof s === 'string') return scalarKind(v) === s;
  if (s instanceof Whole) return Array.isArray(v) && sameOrdered(s.value, v, depth);
  if (typeof v !== 'object' || v === null || !isPlainMap(v)) return false;
  const { keys, shapes } = s;
  let i = 0;
  for (const k in v) {
    if (keys[i] !== k || !matches(shapes[i]!, (v as Obj)[k], depth + 1)) return false;
    i++;
  }
  return i === keys.length;
}

/** A copy of a FieldsV1 tree: maps of maps, nothing else. */
function copyFields(f: Obj): Obj {
  const out: Obj = {};
  for (const k in f) out[k] = copyFields(f[k] as Obj);
  return out;
}

/** The same values with their keys in the same order, metadata.managedFields aside. */
function sameExceptManagedFields(a: Obj, b: Obj): boolean {
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  for (let i = 0; i < ak.length; i++) {
    const k = ak[i]!;
    if (k !== bk[i]) return false;
    if (k === 'metadata' && isPlain(a[k]) && isPlain(b[k])) {
      const am = { ...(a[k] as Obj) };
      const bm = { ...(b[k] as Obj) };
      delete am.managedFields;
      delete bm.managedFields;
      if (!sameOrdered(am, bm, 1)) return false;
    } else if (!sameOrdered(a[k], b[k], 1)) return false;
  }
  return true;
}

function isPlain(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function sameOrdered(a: unknown, b: unknown, depth: number): boolean {
  if (typeof a !== 'object' || a === null) return typeof a === typeof b && Object.is(a, b);
  if (a === b) return true;
  if (depth > maxDepth + 1 || typeof b !== 'object' || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof GoFloat || b instanceof GoFloat) return a instanceof GoFloat && b instanceof GoFloat && Object.is(a.value, b.value);
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  for (let i = 0; i < ak.length; i++) {
    if (ak[i] !== bk[i]) return false;
    if (!sameOrdered((a as Obj)[ak[i]!], (b as Obj)[bk[i]!], depth + 1)) return false;
  }
  return true;
}
