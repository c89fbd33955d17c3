/**
 * Defaulting (apiextensions-apiserver pkg/apiserver/schema/defaulting): fills missing fields, and
 * null fields whose schema is not nullable, with a deep copy of the schema's default; and drops
 * null fields that are neither nullable nor defaulted (PruneNonNullableNullsWithoutDefaults).
 *
 * Both are compiled once per schema and MUTATE the object passed in.
 */
import type { Structural } from './structural.ts';
import { deepCopyJSON, isObject } from './value.ts';

/** A compiled defaulter: mutates x in place. */
export type Defaulter = (x: unknown) => void;

const isNonNullableNull = (x: unknown, s: Structural | undefined) => x === null && s !== undefined && !s.nullable;

/** Compile Default(x, s). */
export function compileDefaulter(s: Structural | undefined): Defaulter {
  return s === undefined ? noop : defaulterFor(s, new Map());
}

/** Default(x, s) in one call (compiles; prefer compileDefaulter on hot paths). MUTATES x. */
export function applyDefaults(x: unknown, s: Structural | undefined): void {
  compileDefaulter(s)(x);
}

/** Whether any default occurs strictly below s (cached in memo, one per compilation). */
export function defaultsBelow(s: Structural, memo: Map<Structural, boolean>): boolean {
  let r = memo.get(s);
  if (r !== undefined) return r;
  memo.set(s, false);
  const sub = (c: Structural | undefined) => c !== undefined && (c.default !== undefined || defaultsBelow(c, memo));
  r =
    sub(s.items) ||
    (s.properties !== undefined && [...s.properties.values()].some(sub)) ||
    sub(s.additionalProperties?.structural);
  memo.set(s, r);
  return r;
}

function defaulterFor(s: Structural, below: Map<Structural, boolean>): Defaulter {
  // A subtree without defaults has nothing to fill: it is never visited.
  if (!defaultsBelow(s, below)) return noop;
  const withDefaults: [string, unknown, Structural][] = [];
  const children: [string, Defaulter][] = [];
  if (s.properties) {
    for (const [k, p] of s.properties) {
      if (p.default !== undefined) withDefaults.push([k, p.default, p]);
      const d = defaulterFor(p, below);
      if (d !== noop) children.push([k, d]);
    }
  }
  const props = s.properties;
  const apS = s.additionalProperties?.structural;
  const ap = apS !== undefined ? defaulterFor(apS, below) : noop;
  // additionalProperties values are visited when they can be defaulted or have defaults below.
  const apWork = apS !== undefined && (apS.default !== undefined || ap !== noop);
  const is = s.items;
  const items = is !== undefined ? defaulterFor(is, below) : noop;
  const itemsWork = is !== undefined && (is.default !== undefined || items !== noop);
  return (x) => {
    if (Array.isArray(x)) {
      if (!itemsWork) return;
      for (let i = 0; i < x.length; i++) {
        if (x[i] === null && !is!.nullable) x[i] = deepCopyJSON(is!.default ?? null);
        items(x[i]);
      }
      return;
    }
    if (!isObject(x)) return;
    for (let i = 0; i < withDefaults.length; i++) {
      const [k, def, ps] = withDefaults[i]!;
      if (!Object.hasOwn(x, k) || (x[k] === null && !ps.nullable)) x[k] = deepCopyJSON(def);
    }
    for (let i = 0; i < children.length; i++) {
      const [k, d] = children[i]!;
      const v = x[k];
      if (v !== undefined && v !== null && typeof v === 'object' && Object.hasOwn(x, k)) d(v);
    }
    if (apWork) {
      for (const k in x) {
        if (props !== undefined && props.has(k)) continue;
        if (x[k] === null && !apS!.nullable) x[k] = deepCopyJSON(apS!.default ?? null);
        ap(x[k]);
      }
    }
  };
}

/** Compile PruneNonNullableNullsWithoutDefaults(x, s). */
export function compileNullPruner(s: Structural | undefined): Defaulter {
  const memo = new Map<Structural | undefined, Defaulter>();
  return nullPrunerFor(s, memo);
}

/** PruneNonNullableNullsWithoutDefaults(x, s) in one call. MUTATES x. */
export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: Structural | undefined): void {
  compileNullPruner(s)(x);
}

function nullPrunerFor(s: Structural | undefined, memo: Map<Structural | undefined, Defaulter>): Defaulter {
  // Without a schema nothing below can be a non-nullable null: nothing to do.
  if (s === undefined) return noop;
  let d = memo.get(s);
  if (d !== undefined) return d;
  const ref: { fn: Defaulter } = { fn: noop };
  memo.set(s, (x) => ref.fn(x));
  const props = new Map<string, [Structural, Defaulter]>();
  if (s.properties) for (const [k, p] of s.properties) props.set(k, [p, nullPrunerFor(p, memo)]);
  const apS = s.additionalProperties?.structural;
  const ap: [Structural, Defaulter] | undefined = apS !== undefined ? [apS, nullPrunerFor(apS, memo)] : undefined;
  let items: Defaulter | undefined;
  ref.fn = (x) => {
    if (Array.isArray(x)) {
      items ??= nullPrunerFor(s.items, memo);
      if (items !== noop) for (let i = 0; i < x.length; i++) items(x[i]);
      return;
    }
    if (!isObject(x)) return;
    for (const k in x) {
      const e = props.get(k) ?? ap;
      if (e === undefined) continue;
      const v = x[k];
      if (v === null) {
        if (!e[0].nullable && e[0].default === undefined) delete x[k];
      } else if (typeof v === 'object') e[1](v);
    }
  };
  memo.set(s, ref.fn);
  return ref.fn;
}

const noop: Defaulter = () => {};
