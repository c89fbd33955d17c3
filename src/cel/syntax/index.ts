/**
 * The CEL syntax layer's public face: parse text into an AST (with cel-go's ids, positions, macro
 * expansions and error messages), print it back, and the AST types themselves.
 */
export { parse, HARD_DEPTH_LIMIT, type ParseOptions, type ParseResult } from './parser.ts';
export { unparse, type UnparseOptions } from './unparse.ts';
export { toDebugString, formatConstant, type Adorner, type DebugNode } from './debug.ts';
export {
  ALL_MACROS, STANDARD_MACROS, BIND_MACRO, TWO_VAR_MACROS, OPTIONAL_MACROS, LISTS_MACROS, MATH_MACROS,
  PROTOS_MACROS, SORT_BY_INPUT, macrosForLibraries, ACCUMULATOR_NAME, HIDDEN_ACCUMULATOR_NAME, type Macro,
  type MacroExpander, type MacroHelper, type MacroError,
} from './macros.ts';
export { unescape } from './unescape.ts';
export * from './ast.ts';
