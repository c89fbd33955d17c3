/**
 * The public face of the CEL package: every name a module outside src/cel/ may use, chosen and
 * listed here (no wildcard re-exports), so that the engine's internals can change without
 * touching its callers. src/cel/public-face.test.ts checks that no module outside src/cel/ imports
 * anything else.
 *
 * The centre is `Env` -> `compile` -> `Program` (env.ts). Around it: the Kubernetes environment,
 * the extension libraries, the checker's types (to declare variables and object types), the checked
 * AST and its cost estimate, the runtime values programs take and return, the RE2 engine that
 * `matches()` uses, and the conformance harness.
 */

// ---- environment and programs -------------------------------------------------------------------

export { Env, Program, typeDisplay, type CompileResult, type EnvOptions, type EvalResult } from './env.ts';
/** An activation: what `Program.eval` resolves variable names against. */
export { type Activation, activationOf } from './eval/planner.ts';

// ---- the Kubernetes environment (k8s.io/apiserver pkg/cel/environment) --------------------------

export {
  KUBERNETES_PER_CALL_LIMIT,
  type KubernetesEnvConfig,
  kubernetesBaseLibraries,
  kubernetesEnvOptions,
  kubernetesLiteralValidators,
  kubernetesStringCostOverloads,
} from './kubernetes-env.ts';

// ---- the authorizer library's values (admission binds `authorizer`, `authorizer.requestResource`) --

export {
  AuthorizerType,
  ResourceCheckType,
  newAuthorizerValue,
  newResourceAuthorizerValue,
  type AuthorizationAttributes,
  type AuthorizationResult,
  type Authorizer,
} from './lib/kubernetes/authz.ts';

// ---- libraries ----------------------------------------------------------------------------------

/** A library: declared functions (with their runtime overloads), variables and the macros it enables. */
export type { Library } from './lib/decls.ts';
/** A runtime overload, as EnvOptions.overloads takes them. */
export type { RtOverload } from './eval/dispatch.ts';
/** cel-go's extension libraries by name, and all of them in installation order. */
export { allExtensionLibraries, extensionLibraries } from './lib/runtime.ts';
/**
 * The parser macros that libraries enable, by the names in `Library.macros` (the standard macros
 * always included): for EnvOptions.parse.macros when an environment installs more libraries than
 * a preset's macro list covers.
 */
export { macrosForLibraries } from './syntax/macros.ts';

// ---- types: declaring variables and object types ------------------------------------------------

export {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  NullType,
  StringType,
  TimestampType,
  UintType,
  formatType,
  listOf,
  mapOf,
  opaque,
  optionalOf,
  structType,
  typeOf,
  type Type,
  type TypeProvider,
} from './check/types.ts';

// ---- the checked AST and its cost ---------------------------------------------------------------

/** A checked expression (`Program.checked`, `Env.check`): the AST with its types and references. */
export type { CheckedExpr } from './check/checker.ts';
/** An AST node (as the parser builds it), for walking a checked expression. */
export type { Expr } from './syntax/ast.ts';
/**
 * Static cost: the estimate `Env.estimateCost` returns, its options, and what a size estimator is
 * asked about (a node with its type and path) and answers.
 */
export type { AstNode, CostEstimate, CostOptions, SizeEstimate } from './check/cost.ts';
/** The AST validators an environment runs after checking (EnvOptions.validators). */
export type { ValidatorOptions } from './check/validators.ts';

// ---- runtime values -----------------------------------------------------------------------------

/**
 * CEL values: int is `bigint`, uint `Uint`, double `number`, string `string`, bytes `Uint8Array`,
 * list an array, map `CelMap`; errors are `CelError` values, never exceptions.
 */
export {
  CelError,
  CelMap,
  Duration,
  LazyFields,
  Optional,
  Timestamp,
  Uint,
  type Val,
  equality,
  formatValue,
  fromJSON,
  toJSON,
} from './eval/values.ts';
/**
 * Lists with their own equality (Kubernetes' list-type set and map): attach a behaviour to a list
 * value, which `==` and `in` then use.
 */
export { type ListBehavior, withListBehavior } from './eval/values.ts';
/** JSON text to CEL values (integral numbers as int, bounded depth), and the error it raises. */
export { JSONSyntaxError, parseJSONToCel } from './eval/json.ts';
/** CEL's duration syntax (`1h30m`) to a Duration, or a CelError with cel-go's message. */
export { parseDuration, parseTimestamp } from './eval/time.ts';
/** resource.Quantity: ParseQuantity with upstream's errors, and its canonical string (`toString()`). */
export { canonicalQuantityText, parseQuantity, Quantity } from './lib/kubernetes/resource-quantity.ts';

// ---- regular expressions ------------------------------------------------------------------------

/**
 * RE2 as CEL's `matches()` runs it (Go's regexp syntax and messages), for the schema's `pattern`
 * keyword too: compileRegex throws RegexSyntaxError with Go's message.
 */
export { type CompiledRegex, RegexSyntaxError, compileRegex } from './lib/re2.ts';

// ---- conformance --------------------------------------------------------------------------------

/**
 * The cel-spec conformance harness (testdata/cel-spec/): run the suite, summarise outcomes as
 * `N passed, N failed, N skipped`, and the tests known to fail, each with its reason.
 */
export {
  KNOWN_FAILURES,
  SPEC_DIR,
  type TestOutcome,
  runConformance,
  summary,
  testKey,
} from './eval/conformance.ts';
