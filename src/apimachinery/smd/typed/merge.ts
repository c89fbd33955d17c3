/**
 * Merge (structured-merge-diff `typed/merge.go`): lhs with rhs laid over it — rhs wins at every
 * leaf, maps merge field by field, associative lists merge item by item by key keeping rhs's
 * order for the items it has and slotting lhs's others in where they stood. Atomic lists and
 * maps are leaves: rhs replaces them whole.
 */
import { elementString, elementsEqual, type PathElement } from '../fieldpath/element.ts';
import { resolve, type ListType, type MapType, type Schema, type TypeRef } from '../schema/schema.ts';
import type { MapValue, Value } from '../value.ts';
import { ElementMap } from './compare.ts';
import { errorf, withPrefix, type ValidationError } from './errors.ts';
import { atomsEqual, deduceAtom, fieldType, handleAtom, itemElement, twoSidedHandler, zipMaps, type TwoSidedVisitor } from './helpers.ts';
import { validateScalar } from './validate.ts';

/** The merged value (undefined when the merge yields nothing) and any errors. */
export function mergeValues(s: Schema, tr: TypeRef, lhs: Value, rhs: Value): { out: Value; errors: ValidationError[] } {
  const r = merge(s, tr, lhs, rhs);
  return { out: r.out, errors: r.errors };
}

interface Result {
  out: Value;
  errors: ValidationError[];
}

function merge(s: Schema, tr: TypeRef, lhs: Value, rhs: Value, prefix?: () => string): Result {
  if (lhs === undefined && rhs === undefined) return { out: undefined, errors: errorf('at least one of lhs and rhs must be provided') };
  const a = resolve(s, tr);
  if (a === undefined) return { out: undefined, errors: errorf(`schema error: no type found matching: ${tr.namedType}`) };
  const alhs = deduceAtom(a, lhs);
  const arhs = deduceAtom(a, rhs);
  const state: { inLeaf: boolean; out: Value } = { inLeaf: false, out: undefined };
  const errs: ValidationError[] = [];
  if (rhs === undefined) errs.push(...handleAtom(alhs, tr, handler(s, lhs, rhs, state)));
  else if (lhs === undefined || atomsEqual(alhs, arhs)) errs.push(...handleAtom(arhs, tr, handler(s, lhs, rhs, state)));
  else {
    // Go runs the lhs pass on a copy of the walker: its output and leaf flag are dropped.
    errs.push(...handleAtom(alhs, tr, handler(s, lhs, rhs, { inLeaf: state.inLeaf, out: state.out })));
    errs.push(...handleAtom(arhs, tr, handler(s, lhs, rhs, state)));
  }
  return { out: state.out, errors: withPrefix(errs, prefix) };
}

function handler(s: Schema, lhs: Value, rhs: Value, state: { inLeaf: boolean; out: Value }) {
  return twoSidedHandler(lhs, rhs, new MergeNode(s, lhs, rhs, state), validateScalar);
}

/** One node of a merge: a leaf keeps the right-hand side (ruleKeepRHS); lists and maps merge their items. */
class MergeNode implements TwoSidedVisitor {
  constructor(
    private readonly s: Schema,
    private readonly lhs: Value,
    private readonly rhs: Value,
    private readonly state: { inLeaf: boolean; out: Value },
  ) {}

  leaf(): void {
    if (this.state.inLeaf) return;
    this.state.inLeaf = true;
    if (this.rhs !== undefined) this.state.out = this.rhs;
    else if (this.lhs !== undefined) this.state.out = this.lhs;
  }

  list(t: ListType, l: unknown[] | undefined, r: unknown[] | undefined): ValidationError[] {
    const res = listItems(this.s, t, l, r);
    if (res.out !== undefined) this.state.out = res.out;
    return res.errors;
  }

  map(t: MapType, l: MapValue | undefined, r: MapValue | undefined): ValidationError[] {
    const errs: ValidationError[] = [];
    const out: Record<string, unknown> = {};
    for (const [key, lv, rv] of zipMaps(l, r)) {
      const res = merge(this.s, fieldType(t, key), lv, rv, () => '.' + key);
      errs.push(...res.errors);
      if (res.out !== undefined) out[key] = res.out;
    }
    if (Object.keys(out).length > 0) this.state.out = out;
    return errs;
  }
}

interface Indexed {
  pes: PathElement[];
  observed: ElementMap<Value>;
  errors: ValidationError[];
}

function indexList(s: Schema, t: ListType, list: unknown[] | undefined, allowDuplicates: boolean): Indexed {
  const out: Indexed = { pes: [], observed: new ElementMap(), errors: [] };
  (list ?? []).forEach((child, i) => {
    const pe = itemElement(s, t, child, i);
    if (typeof pe === 'string') {
      out.errors.push(...errorf(`element ${i}: ${pe}`));
      return;
    }
    const found = out.observed.has(pe);
    if (found && !allowDuplicates) {
      out.errors.push(...errorf(`duplicate entries for key ${elementString(pe)}`));
      return;
    }
    // A duplicated lhs item merges as absent: nobody can tell which of the copies rhs meant.
    out.observed.set(pe, found ? null : child);
    out.pes.push(pe);
  });
  return out;
}

function listItems(s: Schema, t: ListType, lhs: unknown[] | undefined, rhs: unknown[] | undefined): Result {
  const r = indexList(s, t, rhs, false);
  const l = indexList(s, t, lhs, true);
  const errs = [...r.errors, ...l.errors];
  if (errs.length !== 0) return { out: undefined, errors: errs };
  const out: unknown[] = [];
  const sharedOrder = r.pes.filter((pe) => l.observed.has(pe));
  let nextShared = sharedOrder.shift();
  const mergedRHS = new ElementMap<true>();
  const item = (pe: PathElement, lChild: Value, rChild: Value) => {
    // Go drops a list item's merge errors here (they are shadowed), so this does too.
    const res = merge(s, t.elementType, lChild, rChild, () => elementString(pe));
    if (res.out !== undefined) out.push(res.out);
  };
  const elementsEqualTo = (a: PathElement | undefined, b: PathElement) => a !== undefined && elementsEqual(a, b);
  const lLen = l.pes.length;
  const rLen = r.pes.length;
  for (let lI = 0, rI = 0; lI < lLen || rI < rLen; ) {
    if (lI < lLen && rI < rLen) {
      const pe = l.pes[lI]!;
      if (elementsEqual(pe, r.pes[rI]!)) {
        mergedRHS.set(pe, true);
        item(pe, l.observed.get(pe), r.observed.get(pe));
        lI++;
        rI++;
        nextShared = sharedOrder.shift();
        continue;
      }
      if (r.observed.has(pe) && nextShared !== undefined && !elementsEqualTo(nextShared, l.pes[lI]!)) {
        lI++;
        continue;
      }
    }
    if (lI < lLen) {
      const pe = l.pes[lI]!;
      if (!r.observed.has(pe)) {
        item(pe, lhs![lI], undefined);
        lI++;
        continue;
      } else if (mergedRHS.has(pe)) lI++;
    }
    if (rI < rLen) {
      const pe = r.pes[rI]!;
      mergedRHS.set(pe, true);
      item(pe, l.observed.get(pe), r.observed.get(pe));
      rI++;
      if (nextShared !== undefined && elementsEqualTo(nextShared, pe)) nextShared = sharedOrder.shift();
    }
  }
  return { out: out.length > 0 ? out : undefined, errors: [] };
}
