/**
 * The CEL environment Kubernetes builds (k8s.io/apiserver pkg/cel/environment/base.go), as Env
 * options: the libraries by the version that introduced them, cross-type numeric comparisons,
 * optional types, the 1.29 AST validators, free `has()`, cel-go's program optimisation, the per-call
 * cost limit, Kubernetes' static cost estimators, and Kubernetes' runtime call costs
 * (library.CostEstimator, installed by base.go's StrictCostOpt), which also charge string
 * traversals for some strings-extension functions.
 *
 * What a caller adds: variables (`self`, `oldSelf`, `object`, ...), object types (extend the
 * provider with withKubernetesTypes) and, for size-aware cost estimates, a sizeEstimator.
 */
import { kubernetesExtensionCostEstimators } from './check/extension-cost.ts';
import { kubernetesCallCost } from './check/kubernetes-cost.ts';
import type { TypeProvider } from './check/types.ts';
import { kubernetesValidators, type ValidatorOptions } from './check/validators.ts';
import { libraryOverloads, type RtOverload } from './eval/dispatch.ts';
import { actualSize } from './eval/planner.ts';
import { type Val, isError } from './eval/values.ts';
import type { EnvOptions } from './env.ts';
import type { Library } from './lib/decls.ts';
import {
  authzLibrary,
  authzSelectorsLibrary,
  cidrLibrary,
  formatLibrary,
  ipLibrary,
  kubernetesListsLibrary,
  kubernetesTypeNames,
  quantityLibrary,
  semverLibrary,
  urlLibrary,
  withKubernetesTypes,
} from './lib/kubernetes/index.ts';
import { extensionLibraries } from './lib/runtime.ts';
import { stdImpls } from './lib/std/impl.ts';
import type { Constant } from './syntax/ast.ts';
import { LISTS_MACROS, OPTIONAL_MACROS, STANDARD_MACROS, TWO_VAR_MACROS, type Macro } from './syntax/macros.ts';

/** celconfig.PerCallLimit: the runtime cost limit of one expression evaluation. */
export const KUBERNETES_PER_CALL_LIMIT = 1_000_000;

export interface KubernetesEnvConfig {
  /**
   * The compatibility version ("major.minor") whose libraries and options to install; default: all
   * of them (what base.go gives the latest version, as stored expressions are compiled).
   */
  compatibilityVersion?: string;
  /** Object types beyond the Kubernetes library types (e.g. a CRD schema's). */
  provider?: TypeProvider;
  /** Runtime cost limit; default KUBERNETES_PER_CALL_LIMIT. */
  costLimit?: number;
}

/** Whether "major.minor" (undefined: the latest) is at least major.minor. */
function atLeast(v: string | undefined, major: number, minor: number): boolean {
  if (v === undefined) return true;
  const [a = 0, b = 0] = v.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

/** Kubernetes' lists library version 0: without `includes`. */
const LISTS_V0: Library = { ...kubernetesListsLibrary, functions: kubernetesListsLibrary.functions.filter((f) => f.name !== 'includes') };

/** ext.Strings version 0 (before 1.29): without format and strings.quote (version 1) and join (version 2). */
const STRINGS_V0: Library = {
  name: 'cel.lib.ext.strings.v0',
  functions: extensionLibraries.stringsV2.functions.filter((f) => !['format', 'strings.quote', 'join'].includes(f.name)),
};

/** The libraries base.go installs at a compatibility version, in its order. */
export function kubernetesBaseLibraries(compatibilityVersion?: string): Library[] {
  const at = (major: number, minor: number) => atLeast(compatibilityVersion, major, minor);
  // library.Lists version 0 until 1.37, version 1 (adds includes) from 1.37.
  const lists = at(1, 37) ? kubernetesListsLibrary : LISTS_V0;
  const libs: Library[] = [urlLibrary, extensionLibraries.regex, lists];
  if (at(1, 27)) libs.push(authzLibrary);
  if (at(1, 28)) libs.push(quantityLibrary);
  libs.push(at(1, 29) ? extensionLibraries.stringsV2 : STRINGS_V0);
  if (at(1, 29)) libs.push(extensionLibraries.sets);
  if (at(1, 30)) libs.push(ipLibrary, cidrLibrary);
  if (at(1, 31)) libs.push(formatLibrary, authzSelectorsLibrary);
  if (at(1, 32)) libs.push(extensionLibraries.comprehensions);
  if (at(1, 33)) libs.push(semverLibrary);
  if (at(1, 34)) libs.push(extensionLibraries.lists);
  return libs;
}

/** The macros of the base environment: no cel.bind (Kubernetes does not install ext.Bindings). */
function baseMacros(compatibilityVersion?: string): Macro[] {
  return [
    ...STANDARD_MACROS,
    ...(atLeast(compatibilityVersion, 1, 28) ? OPTIONAL_MACROS : []),
    ...(atLeast(compatibilityVersion, 1, 32) ? TWO_VAR_MACROS : []),
    ...(atLeast(compatibilityVersion, 1, 34) ? LISTS_MACROS : []),
  ];
}

/** Whether a literal converts without error (what cel.ValidateDurationLiterals/TimestampLiterals evaluate). */
const converts =
  (ids: Partial<Record<Constant['kind'], string>>) =>
  (c: Constant): boolean => {
    const id = ids[c.kind];
    if (!id) return true;
    return !isError(stdImpls.get(id)!.impl((c as { value: unknown }).value as Val));
  };

/**
 * Kubernetes' AST validators (base.go, 1.29+): duration, timestamp and regex literals, and
 * homogeneous aggregate literals (with ext.Strings' `format` exempt, as cel-go's strings library
 * configures it); plus ext.Strings version 2's check of constant format calls.
 */
export const kubernetesLiteralValidators: ValidatorOptions = {
  ...kubernetesValidators({
    durationLiteral: converts({ string: 'string_to_duration' }),
    timestampLiteral: converts({ string: 'string_to_timestamp', int: 'int64_to_timestamp' }),
  }),
  homogeneousExemptFunctions: ['format'],
  // ext.Strings version 2's own validator.
  stringFormatArgs: true,
};

const STRING_TRAVERSAL_COST_FACTOR = 0.1;
const utf8 = new TextEncoder();

/**
 * library.CostEstimator.CallCost for strings-extension functions (cel-go alone charges them 1):
 * lowerAscii/upperAscii/substring/trim a traversal of the receiver, replace/split a traversal plus
 * the result, join the same of its result, and indexOf/lastIndexOf Kubernetes' traversalCost of
 * the receiver (truncated, over its UTF-8 bytes, as Go's len(string)).
 */
const KUBERNETES_STRING_COSTS: Record<string, (args: Val[], result: Val) => number> = {
  lowerAscii: (a) => Math.ceil(actualSize(a[0]!) * STRING_TRAVERSAL_COST_FACTOR),
  upperAscii: (a) => Math.ceil(actualSize(a[0]!) * STRING_TRAVERSAL_COST_FACTOR),
  substring: (a) => Math.ceil(actualSize(a[0]!) * STRING_TRAVERSAL_COST_FACTOR),
  trim: (a) => Math.ceil(actualSize(a[0]!) * STRING_TRAVERSAL_COST_FACTOR),
  replace: (a) => Math.ceil(actualSize(a[0]!) * 2 * STRING_TRAVERSAL_COST_FACTOR),
  split: (a) => Math.ceil(actualSize(a[0]!) * 2 * STRING_TRAVERSAL_COST_FACTOR),
  join: (_a, r) => Math.ceil(actualSize(r) * 2 * STRING_TRAVERSAL_COST_FACTOR),
  indexOf: (a) => (typeof a[0] === 'string' ? Math.floor(utf8.encode(a[0]).length * STRING_TRAVERSAL_COST_FACTOR) : 1),
  lastIndexOf: (a) => (typeof a[0] === 'string' ? Math.floor(utf8.encode(a[0]).length * STRING_TRAVERSAL_COST_FACTOR) : 1),
};

/**
 * A strings-extension library's runtime overloads re-registered with Kubernetes' call costs (pass
 * as EnvOptions.overloads). Per-overload costs keep the planner's fast paths, which an Env-wide
 * callCost hook disables.
 */
export function kubernetesStringCostOverloads(strings: Library = extensionLibraries.stringsV2): RtOverload[] {
  // Overloads of functions the environment does not declare are never reached: harmless.
  return libraryOverloads(strings)
    .filter((o) => KUBERNETES_STRING_COSTS[o.name] !== undefined)
    .map((o) => ({ ...o, cost: KUBERNETES_STRING_COSTS[o.name] }));
}

/**
 * Env options for the environment base.go builds at a compatibility version (default: the
 * latest). Spread them and add variables: `new Env({ ...kubernetesEnvOptions(), variables })`.
 * Env.estimateCost then uses Kubernetes' estimators and free `has()`; evaluation charges
 * Kubernetes' runtime costs and stops at the per-call limit.
 */
export function kubernetesEnvOptions(config: KubernetesEnvConfig = {}): EnvOptions {
  const v = config.compatibilityVersion;
  return {
    libraries: kubernetesBaseLibraries(v),
    provider: withKubernetesTypes(config.provider),
    typeNames: kubernetesTypeNames,
    crossTypeNumericComparisons: atLeast(v, 1, 28),
    // Before 1.29 only cel.HomogeneousAggregateLiterals; from 1.29 the four validators.
    validators: atLeast(v, 1, 29) ? kubernetesLiteralValidators : { homogeneousAggregateLiterals: true },
    presenceTestHasCost: false,
    optimize: true,
    costLimit: config.costLimit ?? KUBERNETES_PER_CALL_LIMIT,
    costEstimation: { callCost: kubernetesCallCost, overloadEstimators: kubernetesExtensionCostEstimators },
    overloads: kubernetesStringCostOverloads(),
    // Optional types (and their syntax) from 1.28; Env always declares the optional functions.
    parse: { macros: baseMacros(v), enableOptionalSyntax: atLeast(v, 1, 28) },
  };
}
