/**
 * Helpers for writing function libraries as data (lib/decls.ts format): a function with typed
 * overloads whose implementations take and return runtime values, and the conversion of Go-style
 * `(value, error)` results into CEL error values.
 */
import type { Type } from '../check/types.ts';
import { CelError, type Val } from '../eval/values.ts';
import type { FunctionDecl, OverloadDecl } from './decls.ts';

/** A function declaration from its overloads. */
export function fn(name: string, ...overloads: OverloadDecl[]): FunctionDecl {
  return { name, overloads };
}

/** A global overload. */
export function global(id: string, params: Type[], result: Type, impl: (...a: any[]) => Val, extra: Partial<OverloadDecl> = {}): OverloadDecl {
  return { id, params, result, impl, ...extra };
}

/** A receiver-style overload: params[0] is the receiver. */
export function member(id: string, params: Type[], result: Type, impl: (...a: any[]) => Val, extra: Partial<OverloadDecl> = {}): OverloadDecl {
  return { id, params, result, impl, receiver: true, ...extra };
}

/** An error value with the given message (a Go `fmt.Errorf` result turned into a CEL error). */
export function err(message: string): CelError {
  return new CelError(message);
}
