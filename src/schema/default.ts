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
  if (s === undefined) return () => {};
  const memo = new Map<Structural, Defaulter>();
  return defaulterFor(s, memo);
}

/** Default(x, s) in one call (compiles; prefer compileDefaulter on hot paths). MUTATES x. */
export function applyDefaults(x: unknown, s: Structural | undefined): void {
  compileDefaulter(s)(x);
}

function defaulterFor(s: Structural, memo: Map<Structural, Defaulter>): Defaulter {
  let d = memo.get(s);
  if (d !== undefined) return d;
  const ref: { fn: Defaulter } = { fn: () => {} };
  memo.set(s, (x) => ref.fn(x));
  const withDefaults: [string, unknown][] = [];
  const props = new Map<string, Defaulter>();
  if (s.properties) {
    for (const [k, p] of s.properties) {
      if (p.default !== undefined) withDefaults.push([k, p.default]);
      props.set(k, defaulterFor(p, memo));
    }
  }
  const propSchemas = s.properties;
  const hasAP = s.additionalProperties !== undefined;
  const apS = s.additionalProperties?.structural;
  const ap = apS !== undefined ? defaulterFor(apS, memo) : undefined;
  let items: Defaulter | undefined;
  ref.fn = (x) => {
    if (Array.isArray(x)) {
      const is = s.items;
      if (is === undefined) return;
      items ??= defaulterFor(is, memo);
      for (let i = 0; i < x.length; i++) {
        if (isNonNullableNull(x[i], is)) x[i] = deepCopyJSON(is.default ?? null);
        items(x[i]);
      }
      return;
    }
    if (!isObject(x)) return;
    for (let i = 0; i < withDefaults.length; i++) {
      const [k, def] = withDefaults[i]!;
      if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], propSchemas!.get(k))) x[k] = deepCopyJSON(def);
    }
    for (const k in x) {
      const p = props.get(k);
      if (p !== undefined) p(x[k]);
      else if (hasAP) {
        if (isNonNullableNull(x[k], apS)) x[k] = deepCopyJSON(apS!.default ?? null);
        if (ap !== undefined) ap(x[k]);
      }
    }
  };
  memo.set(s, ref.fn);
  return ref.fn;
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
