/**
 * Validation errors of typed values (structured-merge-diff `typed.ValidationErrors`): each a
 * path (path elements' strings, `.spec.ports[port=80]`) and a message, printed as upstream prints
 * them (`path: message`; several as `errors:` then one indented line each).
 */

export interface ValidationError {
  path: string;
  message: string;
}

export function validationErrorString(e: ValidationError): string {
  return e.path.length === 0 ? e.message : `${e.path}: ${e.message}`;
}

/** ValidationErrors.Error(). */
export function validationErrorsString(errs: readonly ValidationError[]): string {
  if (errs.length === 1) return validationErrorString(errs[0]!);
  return ['errors:', ...errs.map((e) => '  ' + validationErrorString(e))].join('\n');
}

/** An operation's validation errors as one thrown Error. */
export class TypedError extends Error {
  constructor(readonly errors: ValidationError[]) {
    super(validationErrorsString(errors));
    this.name = 'TypedError';
  }
}

export function errorf(message: string): ValidationError[] {
  return [{ path: '', message }];
}

/** WithLazyPrefix: prefixes every error's path (computed only when there are errors). */
export function withPrefix(errs: ValidationError[], prefix: (() => string) | string | undefined): ValidationError[] {
  if (errs.length === 0 || prefix === undefined) return errs;
  const p = typeof prefix === 'string' ? prefix : prefix();
  for (const e of errs) e.path = p + e.path;
  return errs;
}
