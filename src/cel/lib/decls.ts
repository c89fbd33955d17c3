/**
 * The declaration format of CEL function libraries: a library is plain data, a list of functions,
 * each with typed overloads (for the checker and the cost estimator) and an implementation (for the
 * planner). Libraries are installed once into an Env by name, as cel-go's `cel.Lib`.
 *
 * Implementations receive and return runtime values (see eval/values.ts); they never throw on bad
 * data: an error is returned as an error value.
 */
import type { Type } from '../check/types.ts';

export interface OverloadDecl {
  /** Unique overload id, as cel-go names them (`add_int64`, `string_to_int64`, `size_string`). */
  id: string;
  /** True for receiver-style overloads (`x.f(y)`); params[0] is then the receiver's type. */
  receiver?: boolean;
  params: Type[];
  result: Type;
  /** Names of the type parameters used in params/result. */
  typeParams?: string[];
  /** The implementation; absent for overloads the planner handles itself (operators it inlines). */
  impl?: (...args: any[]) => unknown;
  /** Runtime cost of a call beyond the fixed call cost, given the argument values (cost.ts). */
  cost?: (...args: any[]) => number;
}

export interface FunctionDecl {
  name: string;
  overloads: OverloadDecl[];
  /** Doc line for `crd-apiserver cel` listings. */
  doc?: string;
}

export interface VariableDecl {
  name: string;
  type: Type;
}

/** A named, installable set of declarations. */
export interface Library {
  name: string;
  functions: FunctionDecl[];
  variables?: VariableDecl[];
  /** Names of macros this library enables (macros are expanded by the parser). */
  macros?: string[];
}
