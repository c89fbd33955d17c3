/**
 * TypedValue (structured-merge-diff `typed.TypedValue`): a value paired with its schema and type,
 * and the operations apply is built from — validate, field set, compare, merge, remove, extract.
 * Operations that can fail throw TypedError with upstream's message.
 */
import { FieldSet } from '../fieldpath/set.ts';
import { deducedSchema, deducedTypeRef, typeRefsEqual, type Schema, type TypeRef } from '../schema/schema.ts';
import type { Value } from '../value.ts';
import { compareValues, type Comparison } from './compare.ts';
import { TypedError, errorf } from './errors.ts';
import { mergeValues } from './merge.ts';
import { removeItems } from './remove.ts';
import { toFieldSet } from './tofieldset.ts';
import { isValid, validate } from './validate.ts';

export interface ValidationOptions {
  /** Accept associative list items with the same key (an update's objects may hold them). */
  allowDuplicates?: boolean;
}

export class TypedValue {
  constructor(
    readonly value: Value,
    readonly schema: Schema,
    readonly typeRef: TypeRef,
  ) {}

  /** Throws TypedError when the value does not fit its type. */
  validate(opts: ValidationOptions = {}): void {
    if (this.validFromMemo(opts.allowDuplicates === true)) return;
    const errs = validate(this.schema, this.typeRef, this.value, opts.allowDuplicates === true);
    if (errs.length > 0) throw new TypedError(errs);
  }

  /**
   * Whether the value is valid (isValid), remembered within withValidationMemo: there, a value is
   * checked without duplicates first, so that its later check either way is free.
   */
  private validFromMemo(allowDuplicates: boolean): boolean {
    const v = this.value;
    if (memo === undefined || v === null || typeof v !== 'object') return isValid(this.schema, this.typeRef, v, allowDuplicates);
    let known = memo.get(v);
    const hit = known?.find((k) => k.schema === this.schema && k.typeRef === this.typeRef);
    if (hit !== undefined) {
      if (allowDuplicates || hit.strict) return true;
      return false;
    }
    let strict = true;
    if (!isValid(this.schema, this.typeRef, v, false)) {
      if (!allowDuplicates || !isValid(this.schema, this.typeRef, v, true)) return false;
      strict = false;
    }
    if (known === undefined) memo.set(v, (known = []));
    known.push({ schema: this.schema, typeRef: this.typeRef, strict });
    return true;
  }

  toFieldSet(): FieldSet {
    const { set, errors } = toFieldSet(this.schema, this.typeRef, this.value);
    if (errors.length > 0) throw new TypedError(errors);
    return set;
  }

  /** This value with rhs merged over it. */
  merge(rhs: TypedValue): TypedValue {
    this.sameType(rhs);
    const { out, errors } = mergeValues(this.schema, this.typeRef, this.value, rhs.value);
    if (errors.length > 0) throw new TypedError(errors);
    return this.with(out === undefined ? null : out);
  }

  /** What changed from this value to rhs. */
  compare(rhs: TypedValue): Comparison {
    this.sameType(rhs);
    const { comparison, errors } = compareValues(this.schema, this.typeRef, this.value, rhs.value);
    if (errors.length > 0) throw new TypedError(errors);
    return comparison;
  }

  removeItems(items: FieldSet): TypedValue {
    return this.with(removeItems(this.schema, this.typeRef, this.value, items, false));
  }

  /**
   * Only the given paths; with appendKeyFields, an associative list item's key fields come along
   * with any path through it, so that the extracted item can be applied again.
   */
  extractItems(items: FieldSet, opts: { appendKeyFields?: boolean } = {}): TypedValue {
    if (opts.appendKeyFields === true) {
      let own: FieldSet | undefined;
      try {
        own = this.toFieldSet();
      } catch {
        own = undefined;
      }
      if (own !== undefined) {
        const keyPaths = new FieldSet();
        for (const path of items.paths()) {
          if (!own.has(path)) continue;
          path.forEach((pe, i) => {
            if (pe.kind !== 'key') return;
            for (const f of pe.fields) keyPaths.insert([...path.slice(0, i + 1), { kind: 'field', name: f.name }]);
          });
        }
        items = items.union(keyPaths);
      }
    }
    return this.with(removeItems(this.schema, this.typeRef, this.value, items, true));
  }

  /** The same type with a null value (TypedValue.Empty). */
  empty(): TypedValue {
    return this.with(null);
  }

  with(value: Value): TypedValue {
    return new TypedValue(value, this.schema, this.typeRef);
  }

  private sameType(rhs: TypedValue): void {
    if (this.schema !== rhs.schema) throw new TypedError(errorf('expected objects with types from the same schema'));
    if (!typeRefsEqual(this.typeRef, rhs.typeRef)) {
      throw new TypedError(errorf(`expected objects of the same type, but got ${JSON.stringify(this.typeRef)} and ${JSON.stringify(rhs.typeRef)}`));
    }
  }
}

/** Values found valid (strict: without duplicate list keys too) within withValidationMemo. */
let memo: WeakMap<object, { schema: Schema; typeRef: TypeRef; strict: boolean }[]> | undefined;

/**
 * fn, with each value's validity against a type remembered until it returns: one write checks
 * the same objects several times (the live object as itself and converted to each manager's
 * version, which is most often its own). The values must not change while fn runs.
 */
export function withValidationMemo<T>(fn: () => T): T {
  const outer = memo;
  memo = new WeakMap();
  try {
    return fn();
  } finally {
    memo = outer;
  }
}

/** AsTyped: the value as a TypedValue of the type, validated (throws TypedError). */
export function asTyped(value: Value, schema: Schema, typeRef: TypeRef, opts: ValidationOptions = {}): TypedValue {
  const tv = new TypedValue(value, schema, typeRef);
  tv.validate(opts);
  return tv;
}

/** A typed value of the deduced type: any JSON, maps granular, lists atomic. */
export function asDeduced(value: Value): TypedValue {
  return asTyped(value, deducedSchema, deducedTypeRef);
}
