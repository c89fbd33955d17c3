/**
 * x-kubernetes-list-type set/map uniqueness (apiextensions-apiserver pkg/apiserver/schema/listtype):
 * duplicate set items and duplicate map keys are reported as Duplicate errors at the index of the
 * second occurrence. Compiled once per schema: subtrees without set/map lists are never visited.
 */
import { Path } from '../apimachinery/field/path.ts';
import { duplicate, invalid, type FieldError } from '../apimachinery/field/errors.ts';
import type { Structural } from './structural.ts';
import { goJSONMarshal, goKind, isObject } from './value.ts';

/** A compiled list-type validator: errors for obj, paths under `base`. */
export type ListTypeValidator = (obj: unknown, base?: Path) => FieldError[];

type Walk = (obj: unknown, base: Path, errs: FieldError[]) => void;

const cache = new WeakMap<Structural, Walk | null>();

/** Compile the list-set/map checks for a structural schema (undefined: nothing to check). */
export function compileListSetsAndMaps(s: Structural | undefined): ListTypeValidator {
  const walk = s === undefined ? null : compileObject(s);
  return (obj, base = Path.root()) => {
    if (walk === null || !isObject(obj)) return [];
    const errs: FieldError[] = [];
    walk(obj, base, errs);
    return errs;
  };
}

/** ValidateListSetsAndMaps(fldPath, s, obj) for an object at fldPath. */
export function validateListSetsAndMaps(fldPath: Path, s: Structural | undefined | null, obj: unknown): FieldError[] {
  if (s === undefined || s === null || obj === null || obj === undefined) return [];
  return compileListSetsAndMaps(s)(obj, fldPath);
}

/** Whether any list-type set/map occurs at or below s. */
function needsCheck(s: Structural | undefined, seen = new Set<Structural>()): boolean {
  if (s === undefined || seen.has(s)) return false;
  seen.add(s);
  if (s.xListType === 'set' || s.xListType === 'map') return true;
  if (needsCheck(s.items, seen)) return true;
  if (s.properties) for (const p of s.properties.values()) if (needsCheck(p, seen)) return true;
  return needsCheck(s.additionalProperties?.structural, seen);
}

function compileObject(s: Structural): Walk | null {
  if (cache.has(s)) return cache.get(s)!;
  if (!needsCheck(s)) {
    cache.set(s, null);
    return null;
  }
  const ap = s.additionalProperties?.structural;
  const apWalk = ap !== undefined ? compileValue(ap) : null;
  const props: [string, Walk][] = [];
  if (s.properties) {
    for (const [k, p] of s.properties) {
      const w = compileValue(p);
      if (w !== null) props.push([k, w]);
    }
  }
  const walk: Walk = (obj, base, errs) => {
    const o = obj as Record<string, unknown>;
    if (apWalk !== null) for (const k in o) apWalk(o[k], base.key(k), errs);
    for (let i = 0; i < props.length; i++) {
      const [k, w] = props[i]!;
      if (Object.hasOwn(o, k)) w(o[k], base.child(k), errs);
    }
  };
  cache.set(s, walk);
  return walk;
}

/** validationListSetAndMaps: arrays are checked, objects recursed into. */
function compileValue(s: Structural): Walk | null {
  if (!needsCheck(s)) return null;
  let objWalk: Walk | null | undefined;
  const itemWalk = s.items !== undefined ? compileValue(s.items) : null;
  const lt = s.xListType;
  const keys = s.xListMapKeys ?? [];
  return (obj, base, errs) => {
    if (Array.isArray(obj)) {
      if (lt === 'set') {
        for (const i of nonUniqueIndices(obj)) errs.push(duplicate(base.index(i), obj[i]));
      } else if (lt === 'map') {
        validateListMap(base, keys, obj, errs);
      }
      if (itemWalk !== null) for (let i = 0; i < obj.length; i++) itemWalk(obj[i], base.index(i), errs);
    } else if (isObject(obj)) {
      if (objWalk === undefined) objWalk = compileObject(s);
      if (objWalk !== null) objWalk(obj, base, errs);
    }
  };
}

const unspecified = Symbol('unspecified key');

/** A Go map key for a scalar interface{} value: int64 and float64 are different keys. */
function scalarKey(x: unknown): string {
  const k = goKind(x);
  if (k === 'null') return 'n';
  if (k === 'float') return 'f' + String(typeof x === 'number' ? x : (x as { value: number }).value);
  return k[0] + String(x);
}

/** validateListSet: indices of the second occurrence of each duplicated element. */
function nonUniqueIndices(obj: readonly unknown[]): number[] {
  const out: number[] = [];
  if (obj.length <= 1) return out;
  const seen = new Map<string | symbol, number>();
  for (let i = 0; i < obj.length; i++) {
    const x = obj[i];
    let key: string | symbol;
    if (x === unspecified) key = unspecified;
    else {
      const k = goKind(x);
      key = k === 'object' || k === 'array' ? 'c' + goJSONMarshal(x) : scalarKey(x);
    }
    const times = seen.get(key);
    if (times === undefined) seen.set(key, 1);
    else {
      seen.set(key, times + 1);
      if (times === 1) out.push(i);
    }
  }
  return out;
}

function validateListMap(base: Path, keyFields: readonly string[], obj: unknown[], errs: FieldError[]): void {
  for (let i = 0; i < obj.length; i++) {
    const x = obj[i];
    if (x !== null && !isObject(x)) {
      errs.push(invalid(base.index(i), x, 'must be an object for an array of list-type map'));
      return;
    }
  }
  if (obj.length <= 1) return;
  if (keyFields.length === 1) {
    const kf = keyFields[0]!;
    const keys = obj.map((x) => (x === null || !Object.hasOwn(x as object, kf) ? unspecified : (x as Record<string, unknown>)[kf]));
    for (const i of nonUniqueIndices(keys)) {
      errs.push(duplicate(base.index(i), keys[i] === unspecified ? {} : { [kf]: keys[i] }));
    }
    return;
  }
  const keys = obj.map((x) => {
    const key: Record<string, unknown> = {};
    if (x === null) return key;
    const o = x as Record<string, unknown>;
    for (const kf of keyFields) if (Object.hasOwn(o, kf)) key[kf] = o[kf];
    return key;
  });
  for (const i of nonUniqueIndices(keys)) errs.push(duplicate(base.index(i), keys[i]));
}
