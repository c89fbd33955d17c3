/**
 * The two-variable comprehensions library (cel-go ext/comprehensions.go): the macros
 * (all/exists/existsOne with two variables, transformList, transformMap, transformMapEntry) are
 * expanded by the parser; this library declares and implements `cel.@mapInsert`, which the
 * transformMap macros accumulate with.
 */
import { mapOf, typeParam } from '../check/types.ts';
import { CelError, CelMap, type Val, formatGoValue } from '../eval/values.ts';
import type { Library } from './decls.ts';
import { fn, global } from './define.ts';

const K = typeParam('K');
const V = typeParam('V');
const M = mapOf(K, V);

function copy(m: CelMap): CelMap {
  const out = new CelMap();
  for (const [k, v] of m.entries()) out.set(k, v);
  return out;
}

function insert(m: CelMap, k: Val, v: Val): Val {
  if (m.has(k)) return new CelError(`insert failed: key ${formatGoValue(k)} already exists`);
  const out = copy(m);
  return out.set(k, v) ?? out;
}

function insertAll(m: CelMap, other: CelMap): Val {
  let out: Val = m;
  for (const [k, v] of other.entries()) {
    out = insert(out as CelMap, k, v);
    if (out instanceof CelError) return out;
  }
  return out;
}

export const comprehensionsLibrary: Library = {
  name: 'cel.lib.ext.comprev2',
  macros: ['all', 'exists', 'existsOne', 'transformList', 'transformMap', 'transformMapEntry'],
  functions: [
    fn(
      'cel.@mapInsert',
      global('@mapInsert_map_key_value', [M, K, V], M, insert, { typeParams: ['K', 'V'] }),
      global('@mapInsert_map_map', [M, M], M, insertAll, { typeParams: ['K', 'V'] }),
    ),
  ],
};
