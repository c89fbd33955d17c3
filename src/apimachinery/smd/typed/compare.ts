/**
 * Compare (structured-merge-diff `typed/compare.go`): the paths removed, modified and added
 * between two values of one type. Atomic lists and maps compare as one leaf; an associative list
 * matches items by key, and a key duplicated on either side is compared as a whole.
 */
import type { PathElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { resolve, type ListType, type MapType, type Schema, type TypeRef } from '../schema/schema.ts';
import { equals, isMap, type MapValue, type Value } from '../value.ts';
import { errorf, withPrefix, type ValidationError } from './errors.ts';
import { compareElements, elementString, fieldElement, indexElement } from '../fieldpath/element.ts';
import { atomsEqual, deduceAtom, fieldType, handleAtom, itemElement, twoSidedHandler, zipMaps, type TwoSidedVisitor } from './helpers.ts';
import { validateScalar } from './validate.ts';
import { GoFloat } from '../../field/govalue.ts';

export interface Comparison {
  removed: FieldSet;
  modified: FieldSet;
  added: FieldSet;
}

export function isSame(c: Comparison): boolean {
  return c.removed.empty() && c.modified.empty() && c.added.empty();
}

/** Comparison.String. */
export function comparisonString(c: Comparison): string {
  let out = '';
  if (!c.modified.empty()) out += `- Modified Fields:\n${c.modified.toString()}\n`;
  if (!c.added.empty()) out += `- Added Fields:\n${c.added.toString()}\n`;
  if (!c.removed.empty()) out += `- Removed Fields:\n${c.removed.toString()}\n`;
  return out;
}

export function compareValues(s: Schema, tr: TypeRef, lhs: Value, rhs: Value): { comparison: Comparison; errors: ValidationError[] } {
  const comparison: Comparison = { removed: new FieldSet(), modified: new FieldSet(), added: new FieldSet() };
  const errors = new Walker(s, comparison).compare(tr, lhs, rhs, []);
  return { comparison, errors };
}

/** One node of a comparison: a leaf records its change; lists and maps descend. */
class CompareNode implements TwoSidedVisitor {
  constructor(
    private readonly w: Walker,
    private readonly lhs: Value,
    private readonly rhs: Value,
    private readonly path: PathElement[],
    private readonly state: { inLeaf: boolean },
  ) {}

  leaf(): void {
    if (this.state.inLeaf) return;
    this.state.inLeaf = true;
    const c = this.w.c;
    if (this.lhs === undefined) c.added.insert(this.path);
    else if (this.rhs === undefined) c.removed.insert(this.path);
    else if (!equals(this.rhs, this.lhs)) c.modified.insert(this.path);
  }

  list(t: ListType, l: unknown[] | undefined, r: unknown[] | undefined): ValidationError[] {
    return this.w.listItems(t, l, r, this.path);
  }

  map(t: MapType, l: MapValue | undefined, r: MapValue | undefined): ValidationError[] {
    const errs: ValidationError[] = [];
    for (const [key, lv, rv] of zipMaps(l, r)) {
      errs.push(...this.w.compare(fieldType(t, key), lv, rv, [...this.path, { kind: 'field', name: key }], () => '.' + key));
    }
    return errs;
  }
}

class Walker {
  constructor(
    readonly s: Schema,
    readonly c: Comparison,
  ) {}

  compare(tr: TypeRef, lhs: Value, rhs: Value, path: PathElement[], prefix?: () => string): ValidationError[] {
    if (lhs === undefined && rhs !== undefined) return withPrefix(this.addedAt(tr, rhs, path), prefix);
    if (lhs === undefined && rhs === undefined) return errorf('at least one of lhs and rhs must be provided');
    const a = resolve(this.s, tr);
    if (a === undefined) return errorf(`schema error: no type found matching: ${tr.namedType}`);
    // Equal values change nothing: an update's unchanged parts (a status write's whole spec) are
    // left at one equality check instead of a walk with its field paths.
    if (sameValue(lhs, rhs)) return [];
    const alhs = deduceAtom(a, lhs);
    const arhs = deduceAtom(a, rhs);
    const state = { inLeaf: false };
    const errs: ValidationError[] = [];
    if (rhs === undefined) errs.push(...handleAtom(alhs, tr, this.handler(lhs, rhs, path, state)));
    else if (lhs === undefined || atomsEqual(alhs, arhs)) errs.push(...handleAtom(arhs, tr, this.handler(lhs, rhs, path, state)));
    else {
      // Go copies the walker here: the lhs pass's leaf flag does not carry to the rhs pass.
      errs.push(...handleAtom(alhs, tr, this.handler(lhs, rhs, path, { inLeaf: state.inLeaf })));
      errs.push(...handleAtom(arhs, tr, this.handler(lhs, rhs, path, state)));
    }
    if (!state.inLeaf) {
      if (lhs === undefined) this.c.added.insert(path);
      else if (rhs === undefined) this.c.removed.insert(path);
    }
    return withPrefix(errs, prefix);
  }

  /**
   * compare(tr, undefined, rhs, path): everything rhs holds is added (a create's whole object).
   * One walk that builds the added paths below `path` as a subtree of their own and attaches it,
   * instead of the two-sided handlers and an insertion from the root for every path.
   */
  private addedAt(tr: TypeRef, rhs: Value, path: PathElement[]): ValidationError[] {
    const holder = new FieldSet();
    const errs = this.addAll(tr, rhs, holder, path.length > 0 ? path[path.length - 1]! : rootElement);
    if (holder.members.length === 0) return errs === NONE ? [] : errs;
    this.c.added.insert(path);
    const sub = holder.children[0]?.set;
    if (sub !== undefined) {
      let node = this.c.added;
      for (const pe of path) node = node.descend(pe);
      const merged = node.members.length === 0 && node.children.length === 0 ? sub : node.union(sub);
      node.members = merged.members;
      node.children = merged.children;
    }
    return errs === NONE ? [] : errs;
  }

  /**
   * Adds pe to parent (unsorted: the caller sorts), and below it every path of v, as
   * compare(tr, undefined, v) adds them. The value's own path is not added when there is no value
   * or no type for it (compare returns before adding it then).
   */
  private addAll(tr: TypeRef, v: Value, parent: FieldSet, pe: PathElement): ValidationError[] {
    if (v === undefined) return errorf('at least one of lhs and rhs must be provided');
    const a = resolve(this.s, tr);
    if (a === undefined) return errorf(`schema error: no type found matching: ${tr.namedType}`);
    parent.members.push(pe);
    const d = deduceAtom(a, v);
    let errs = NONE;
    if (d.map !== undefined) {
      const t = d.map;
      if (t.elementRelationship === 'atomic' || !isMap(v)) return NONE;
      let node: FieldSet | undefined;
      for (const key in v) {
        if (!hasOwn.call(v, key)) continue;
        node ??= new FieldSet();
        const e = this.addAll(fieldType(t, key), v[key], node, fieldElement(key));
        if (e.length > 0) (errs === NONE ? (errs = []) : errs).push(...withPrefix(e, '.' + key));
      }
      if (node !== undefined) attachSorted(parent, pe, node);
      return errs;
    }
    if (d.scalar !== undefined) return NONE;
    if (d.list === undefined) return errorf(`schema error: invalid atom: ${tr.namedType !== undefined ? 'named type: ' + tr.namedType : 'inlined'}`);
    const t = d.list;
    if (t.elementRelationship === 'atomic' || !Array.isArray(v) || v.length === 0) return NONE;
    const node = new FieldSet();
    if (t.elementRelationship !== 'associative') {
      for (let i = 0; i < v.length; i++) {
        const e = this.addAll(t.elementType, v[i], node, indexElement(i));
        if (e.length > 0) (errs === NONE ? (errs = []) : errs).push(...withPrefix(e, `[${i}]`));
      }
    } else {
      const pes: PathElement[] = [];
      const items = new ElementMap<Value[]>();
      for (let i = 0; i < v.length; i++) {
        const child: Value = v[i];
        const ipe = itemElement(this.s, t, child, i);
        if (typeof ipe === 'string') {
          (errs === NONE ? (errs = []) : errs).push(...errorf(`element ${i}: ${ipe}`));
          continue;
        }
        const got = items.get(ipe);
        if (got !== undefined) got.push(child);
        else {
          items.set(ipe, [child]);
          pes.push(ipe);
        }
      }
      for (const ipe of pes) {
        const list = items.get(ipe)!;
        // A key given twice is added as one path, not descended.
        if (list.length >= 2) {
          node.members.push(ipe);
          continue;
        }
        const e = this.addAll(t.elementType, list[0], node, ipe);
        if (e.length > 0) (errs === NONE ? (errs = []) : errs).push(...withPrefix(e, elementString(ipe)));
      }
    }
    attachSorted(parent, pe, node);
    return errs;
  }

  handler(lhs: Value, rhs: Value, path: PathElement[], state: { inLeaf: boolean }) {
    return twoSidedHandler(lhs, rhs, new CompareNode(this, lhs, rhs, path, state), validateScalar);
  }

  listItems(t: ListType, lhs: unknown[] | undefined, rhs: unknown[] | undefined, path: PathElement[]): ValidationError[] {
    const errs: ValidationError[] = [];
    const allPEs: PathElement[] = [];
    const lValues = new ElementMap<Value[]>();
    const rValues = new ElementMap<Value[]>();
    (lhs ?? []).forEach((child, i) => {
      const pe = itemElement(this.s, t, child, i);
      if (typeof pe === 'string') {
        errs.push(...errorf(`element ${i}: ${pe}`));
        return;
      }
      const got = lValues.get(pe);
      if (got !== undefined) got.push(child);
      else {
        lValues.set(pe, [child]);
        allPEs.push(pe);
      }
    });
    (rhs ?? []).forEach((child, i) => {
      const pe = itemElement(this.s, t, child, i);
      if (typeof pe === 'string') {
        errs.push(...errorf(`element ${i}: ${pe}`));
        return;
      }
      const got = rValues.get(pe);
      if (got !== undefined) got.push(child);
      else {
        rValues.set(pe, [child]);
        if (lValues.get(pe) === undefined) allPEs.push(pe);
      }
    });
    for (const pe of allPEs) {
      const lList = lValues.get(pe) ?? [];
      const rList = rValues.get(pe) ?? [];
      const childPath = [...path, pe];
      // Direct calls, not a helper closure per item: this runs for every item of every list.
      if (lList.length === 0 && rList.length === 0) return errs;
      if (lList.length <= 1 && rList.length <= 1) errs.push(...this.compare(t.elementType, lList[0], rList[0], childPath, () => elementString(pe)));
      else if (lList.length >= 2 && rList.length >= 2) {
        if (lList.length !== rList.length || !lList.every((x, i) => equals(x, rList[i]))) this.c.modified.insert(childPath);
      } else if (lList.length >= 2) {
        if (rList.length !== 0) errs.push(...this.compare(t.elementType, undefined, rList[0], childPath, () => elementString(pe)));
        this.c.removed.insert(childPath);
      } else {
        if (lList.length !== 0) errs.push(...this.compare(t.elementType, lList[0], undefined, childPath, () => elementString(pe)));
        this.c.added.insert(childPath);
      }
    }
    return errs;
  }
}

/** No errors: shared, never pushed to (withPrefix leaves an empty list alone). */
const NONE: ValidationError[] = [];

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * equals(l, r) for values that compare would find unchanged: the same members, scalars equal as
 * equals has them; false for any undefined member (compare reports those) or other doubt, which
 * leaves the value to the walk.
 */
function sameValue(l: Value, r: Value): boolean {
  if (l === undefined || r === undefined) return false;
  if (typeof l !== 'object' || l === null || typeof r !== 'object' || r === null) return equals(l, r);
  if (Array.isArray(l)) {
    if (!Array.isArray(r) || l.length !== r.length) return false;
    for (let i = 0; i < l.length; i++) if (!sameValue(l[i], r[i])) return false;
    return true;
  }
  if (Array.isArray(r)) return false;
  if (!isMap(l) || !isMap(r)) return equals(l, r);
  const lk = Object.keys(l);
  if (lk.length !== Object.keys(r).length) return false;
  for (const k of lk) if (!hasOwn.call(r, k) || !sameValue(l[k], r[k])) return false;
  return true;
}

/** Stands for the root's own element, which no set holds (inserting the empty path adds nothing). */
const rootElement: PathElement = { kind: 'field', name: '' };

const byElement = (a: PathElement, b: PathElement) => compareElements(a, b);
const byChild = (a: { pe: PathElement }, b: { pe: PathElement }) => compareElements(a.pe, b.pe);

/** Sorts a subtree built in the value's order (its elements are distinct) and hangs it under pe. */
function attachSorted(parent: FieldSet, pe: PathElement, node: FieldSet): void {
  if (node.members.length === 0 && node.children.length === 0) return;
  if (node.members.length > 1) node.members.sort(byElement);
  if (node.children.length > 1) node.children.sort(byChild);
  parent.children.push({ pe, set: node });
}

/** A map keyed by path element (PathElementValueMap). */
export class ElementMap<T> {
  private readonly values = new Map<string, T>();

  private id(pe: PathElement): string {
    switch (pe.kind) {
      case 'field':
        return 'f' + pe.name;
      case 'index':
        return 'i' + pe.index;
      case 'key': {
        // The usual keys (string and number values) written directly; each part is
        // length-prefixed or ends the id, so that distinct keys cannot meet.
        let out = 'k';
        for (const f of pe.fields) {
          const v = f.value;
          let part: string;
          if (typeof v === 'string') part = 's' + v.length + ':' + v;
          else if (typeof v === 'number') part = 'n' + String(v) + ';';
          else if (typeof v === 'bigint') part = 'n' + String(Number(v)) + ';';
          else if (v instanceof GoFloat) part = 'n' + String(v.value) + ';';
          else return JSON.stringify([pe.kind, canonical(pe)]);
          out += f.name.length + ':' + f.name + part;
        }
        return out;
      }
      default:
        return JSON.stringify([pe.kind, canonical(pe)]);
    }
  }

  has(pe: PathElement): boolean {
    return this.values.has(this.id(pe));
  }

  get(pe: PathElement): T | undefined {
    return this.values.get(this.id(pe));
  }

  set(pe: PathElement, v: T): void {
    this.values.set(this.id(pe), v);
  }
}

/** A canonical form in which equal elements (an int and the equal float included) agree. */
function canonical(pe: PathElement): unknown {
  switch (pe.kind) {
    case 'field':
      return pe.name;
    case 'index':
      return pe.index;
    case 'value':
      return canon(pe.value);
    case 'key':
      return pe.fields.map((f) => [f.name, canon(f.value)]);
  }
}

function canon(v: Value): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (isMap(v)) return Object.keys(v).sort().map((k) => [k, canon(v[k])]);
  if (typeof v === 'bigint') return Number(v);
  if (v !== null && typeof v === 'object' && 'value' in v) return (v as { value: number }).value;
  return v;
}
