/**
 * x-kubernetes-list-type set/map uniqueness (apiextensions-apiserver pkg/apiserver/schema/listtype):
 * duplicate set items and duplicate map keys are reported as Duplicate errors at the index of the
 * second occurrence. Compiled once per schema: subtrees without set/map lists are never visited.
 * A first walk only answers whether anything is wrong, without building paths; the reporting walk
 * runs only when it is.
 */
import { Path } from '../apimachinery/index.ts';
import { duplicate, invalid, type FieldError } from '../apimachinery/index.ts';
import type { Structural } from './structural.ts';
import { goJSONMarshal, goKind, isObject } from './value.ts';

/** A compiled list-type validator: errors for obj, paths under `base`. */
export type ListTypeValidator = (obj: unknown, base?: Path) => FieldError[];

type Walk = (obj: unknown, base: Path, errs: FieldError[]) => void;
/** True when the walk would report an error. */
type Check = (obj: unknown) => boolean;

const cache = new WeakMap<Structural, Walk | null>();
const checkCache = new WeakMap<Structural, Check | null>();

/** Compile the list-set/map checks for a structural schema (undefined: nothing to check). */
export function compileListSetsAndMaps(s: Structural | undefined): ListTypeValidator {
  const walk = s === undefined ? null : compileObject(s);
  const check = s === undefined ? null : compileObjectCheck(s);
  return (obj, base = Path.root()) => {
    if (walk === null || !isObject(obj) || (check !== null && !check(obj))) return [];
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

function compileObjectCheck(s: Structural): Check | null {
  if (checkCache.has(s)) return checkCache.get(s)!;
  if (!needsCheck(s)) {
    checkCache.set(s, null);
    return null;
  }
  const ap = s.additionalProperties?.structural;
  const apCheck = ap !== undefined ? compileValueCheck(ap) : null;
  const props: [string, Check][] = [];
  if (s.properties) {
    for (const [k, p] of s.properties) {
      const c = compileValueCheck(p);
      if (c !== null) props.push([k, c]);
    }
  }
  const check: Check = (obj) => {
    const o = obj as Record<string, unknown>;
    if (apCheck !== null) for (const k in o) if (apCheck(o[k])) return true;
    for (let i = 0; i < props.length; i++) {
      const [k, c] = props[i]!;
      if (Object.hasOwn(o, k) && c(o[k])) return true;
    }
    return false;
  };
  checkCache.set(s, check);
  return check;
}

/** compileValue's verdict alone: would it report an error? */
function compileValueCheck(s: Structural): Check | null {
  if (!needsCheck(s)) return null;
  let objCheck: Check | null | undefined;
  const itemCheck = s.items !== undefined ? compileValueCheck(s.items) : null;
  const lt = s.xListType;
  const keys = s.xListMapKeys ?? [];
  return (obj) => {
    if (Array.isArray(obj)) {
      if (listTypeViolation(lt, keys, obj)) return true;
      if (itemCheck !== null) for (let i = 0; i < obj.length; i++) if (itemCheck(obj[i])) return true;
    } else if (isObject(obj)) {
      if (objCheck === undefined) objCheck = compileObjectCheck(s);
      if (objCheck !== null) return objCheck(obj);
    }
    return false;
  };
}

/**
 * Whether the list-type checks of one array report an error (a repeated set item, a repeated map
 * key, an element of a map list that is not an object); false for other list types.
 */
export function listTypeViolation(listType: string | undefined, mapKeys: readonly string[], arr: readonly unknown[]): boolean {
  if (listType === 'set') return arr.length > 1 && hasDuplicateItem(arr);
  if (listType === 'map') return listMapBad(mapKeys, arr);
  return false;
}

/** nonUniqueIndices(obj) is not empty; lists of strings (the usual sets) are compared directly. */
function hasDuplicateItem(obj: readonly unknown[]): boolean {
  const n = obj.length;
  for (let i = 0; i < n; i++) if (typeof obj[i] !== 'string') return nonUniqueIndices(obj).length > 0;
  if (n > 16) return new Set(obj).size < n;
  for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if (obj[i] === obj[j]) return true;
  return false;
}

/** validateListMap would report an error: an element that is not an object, or a repeated key. */
function listMapBad(keyFields: readonly string[], obj: readonly unknown[]): boolean {
  for (const x of obj) if (x !== null && !isObject(x)) return true;
  if (obj.length <= 1) return false;
  if (keyFields.length === 1) {
    const kf = keyFields[0]!;
    const keys: unknown[] = [];
    for (const x of obj) {
      // An element without the key (or null) has the unspecified key, a value of its own.
      keys.push(x === null || !Object.hasOwn(x as object, kf) ? unspecified : (x as Record<string, unknown>)[kf]);
    }
    return hasDuplicateItem(keys);
  }
  const errs: FieldError[] = [];
  validateListMap(Path.root(), keyFields, obj as unknown[], errs);
  return errs.length > 0;
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
