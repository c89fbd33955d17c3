/**
 * The bindings extension library (cel-go ext/bindings.go): `cel.bind(name, init, expr)`, a macro
 * the parser expands into a comprehension over an empty list whose accumulator is the binding; and
 * `cel.@block([init0, init1, ...], expr)`, the form cel-go's common-subexpression optimizer emits,
 * where `@index0`, `@index1`, ... name the lazily evaluated, memoised initialisers. The planner
 * evaluates `cel.@block` itself (eval/planner.ts); this library only declares it.
 */
import { DynType, listOf, typeParam } from '../check/types.ts';
import type { Library } from './decls.ts';

/** The name of the block function (cel-go's `cel.@block`). */
export const BLOCK_FUNCTION = 'cel.@block';

export const bindingsLibrary: Library = {
  name: 'cel.lib.ext.cel.bindings',
  functions: [
    {
      name: BLOCK_FUNCTION,
      overloads: [{ id: 'cel_block_list', params: [listOf(DynType), typeParam('T')], result: typeParam('T'), typeParams: ['T'] }],
    },
  ],
  macros: ['cel.bind'],
};
