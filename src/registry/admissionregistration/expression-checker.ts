/**
 * The seam between the policy kinds' object validation and the admission-policy CEL environment:
 * kube-apiserver compiles every expression of a ValidatingAdmissionPolicy or
 * MutatingAdmissionPolicy when it is written (`params` declared only with a paramKind, the
 * authorizer, the mutation types, variables composed in order, cost limits, bool/string result
 * types) and refuses the object with the compiler's error. Validation calls the checker installed
 * here for each expression: by default the admission CEL environment's (cel-checker.ts).
 */
import { celPolicyExpressionChecker } from './cel-checker.ts';
import { internalError, invalid, required, type FieldError, type Path } from '../../apimachinery/index.ts';

/** Which field an expression comes from: it selects the result type and the declarations. */
export type PolicyExpressionKind =
  | 'matchCondition'
  | 'validation'
  | 'messageExpression'
  | 'auditAnnotation'
  | 'variable'
  | 'applyConfiguration'
  | 'jsonPatch';

/** upstream's plugincel.OptionalVariableDeclarations, plus what the compile needs of the policy. */
export interface PolicyExpressionOptions {
  kind: PolicyExpressionKind;
  /** `params` is declared (the policy has a paramKind). */
  hasParams: boolean;
  /** `authorizer` and `authorizer.requestResource` are declared. */
  hasAuthorizer: boolean;
  /** The mutation types (`Object`, `JSONPatch`) are declared. */
  hasPatchTypes: boolean;
  /**
   * The expression was already stored in the object being updated: it is compiled in the
   * stored-expressions environment (environment.StoredExpressions), which accepts libraries
   * newer than the new-expressions one.
   */
  stored: boolean;
  /** The policy's variables before this expression (compiled and declared in order). */
  variables: readonly { name: string; expression: string }[];
}

/** A compile error as upstream's cel.Error: its type decides the field error. */
export interface PolicyExpressionError {
  type: 'Required' | 'Invalid' | 'Internal';
  detail: string;
}

export interface PolicyExpressionChecker {
  /** Compiles an expression; the errors found (none when it compiles within the cost limits). */
  compile(expression: string, options: PolicyExpressionOptions): PolicyExpressionError[];
}

/** Compiles nothing: every expression passes. */
export const noExpressionChecks: PolicyExpressionChecker = { compile: () => [] };

let installed: PolicyExpressionChecker | undefined;

/** Installs the checker every policy write uses from now on (the policy CEL environment). */
export function usePolicyExpressionChecker(checker: PolicyExpressionChecker): void {
  installed = checker;
}

/** The checker in use. */
export function policyExpressionChecker(): PolicyExpressionChecker {
  return (installed ??= celPolicyExpressionChecker);
}

/** convertCELErrorToValidationError: a compile error at `path` as a field error. */
export function expressionFieldErrors(path: Path, expression: string, errs: readonly PolicyExpressionError[]): FieldError[] {
  return errs.map((e) => (e.type === 'Required' ? required(path, e.detail) : e.type === 'Invalid' ? invalid(path, expression, e.detail) : internalError(path, e.detail)));
}
