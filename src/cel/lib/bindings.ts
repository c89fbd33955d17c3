/**
 * The bindings extension library (cel-go ext/bindings.go): `cel.bind(name, init, expr)`, a macro
 * the parser expands into a comprehension over an empty list whose accumulator is the binding.
 * There is nothing to implement at run time; the library exists so that environments can name it.
 */
import type { Library } from './decls.ts';

export const bindingsLibrary: Library = { name: 'cel.lib.ext.cel.bindings', functions: [], macros: ['cel.bind'] };
