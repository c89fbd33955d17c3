/**
 * ReconcileFieldSetWithSchema (structured-merge-diff `typed/reconcile_schema.go`): when a schema
 * change made a granular list or map atomic, a manager's paths below it collapse into the path of
 * the atomic node itself, so that ownership survives the change. Fields the schema no longer
 * declares are left alone.
 */
import type { PathElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { findField, resolve, type MapType, type Schema, type TypeRef } from '../schema/schema.ts';
import { errorf, TypedError, validationErrorsString, type ValidationError } from './errors.ts';
import { handleAtom } from './helpers.ts';
import type { TypedValue } from './typed.ts';
import { isEmptyTypeRef } from './validate.ts';

interface Acc {
  toRemove?: FieldSet;
  toAdd?: FieldSet;
}

/**
 * Results by set and type: the walk reads only the set and the schema (not the value), and the
 * sets of an object's managers recur from write to write (their decoding is shared), so each is
 * reconciled with a type once.
 */
const reconciled = new WeakMap<FieldSet, { schema: Schema; typeRef: TypeRef; result: FieldSet | undefined }[]>();

/** The reconciled set, or undefined when nothing needed to change. Throws TypedError. */
export function reconcileFieldSetWithSchema(fieldSet: FieldSet, tv: TypedValue): FieldSet | undefined {
  let known = reconciled.get(fieldSet);
  const hit = known?.find((k) => k.schema === tv.schema && k.typeRef === tv.typeRef);
  if (hit !== undefined) return hit.result;
  const result = reconcile(fieldSet, tv);
  if (known === undefined) reconciled.set(fieldSet, (known = []));
  if (known.length < 4) known.push({ schema: tv.schema, typeRef: tv.typeRef, result });
  return result;
}

function reconcile(fieldSet: FieldSet, tv: TypedValue): FieldSet | undefined {
  const acc: Acc = {};
  const errs = walk(tv.schema, tv.typeRef, fieldSet, [], false, acc);
  if (errs.length > 0) throw new TypedError(errorf(`errors reconciling field set with schema: ${validationErrorsString(errs)}`));
  if (acc.toAdd === undefined && acc.toRemove === undefined) return undefined;
  let out = fieldSet;
  if (acc.toRemove !== undefined) out = out.recursiveDifference(acc.toRemove);
  if (acc.toAdd !== undefined) out = out.union(acc.toAdd);
  return out;
}

function add(acc: Acc, which: 'toRemove' | 'toAdd', s: FieldSet): void {
  acc[which] = acc[which] === undefined ? s : acc[which]!.union(s);
}

function walk(s: Schema, tr: TypeRef, set: FieldSet | undefined, path: PathElement[], isAtomic: boolean, acc: Acc): ValidationError[] {
  const a = resolve(s, tr);
  if (a === undefined) return errorf(`could not resolve ${JSON.stringify(tr)}`);
  const visit = (typeOf: (pe: PathElement) => TypeRef | undefined): ValidationError[] => {
    if (set === undefined) return [];
    const errs: ValidationError[] = [];
    const handle = (pe: PathElement, isMember: boolean) => {
      const ctr = typeOf(pe);
      if (ctr === undefined) return;
      const child = set.child(pe);
      errs.push(...walk(s, ctr, child, [...path, pe], isMember && child === undefined, acc));
    };
    for (const c of set.children) if (!set.hasMember(c.pe)) handle(c.pe, false);
    for (const m of set.members) handle(m, true);
    return errs;
  };
  return handleAtom(a, tr, {
    doScalar: () => [],
    doList: (t) => {
      if (!isAtomic && t.elementRelationship === 'atomic') {
        add(acc, 'toRemove', FieldSet.of(path));
        add(acc, 'toAdd', FieldSet.of(path));
        return [];
      }
      return visit(() => t.elementType);
    },
    doMap: (t) => {
      if (isUntypedDeducedMap(t)) return [];
      if (!isAtomic && t.elementRelationship === 'atomic') {
        if (set !== undefined && set.size() > 0) {
          add(acc, 'toRemove', FieldSet.of(path));
          add(acc, 'toAdd', FieldSet.of(path));
        }
        return [];
      }
      return visit((pe) => typeRefAtPath(t, pe));
    },
  });
}

function typeRefAtPath(t: MapType, pe: PathElement): TypeRef | undefined {
  let tr = t.elementType;
  if (pe.kind === 'field') {
    const sf = findField(t, pe.name);
    if (sf !== undefined) tr = sf.type;
  }
  return isEmptyTypeRef(tr) ? undefined : tr;
}

function isUntypedDeducedMap(m: MapType): boolean {
  return isUntypedDeducedRef(m.elementType) && m.fields === undefined;
}

function isUntypedDeducedRef(t: TypeRef | undefined): boolean {
  if (t === undefined) return false;
  if (t.namedType !== undefined) return t.namedType === '__untyped_deduced_';
  return t.scalar === 'untyped';
}
