/**
 * The CEL environment of CRD validation rules (k8s.io/apiserver pkg/cel/environment/base.go at the
 * current compatibility version, extended as apiextensions' compilation.go extends it): the
 * extension libraries (strings v2, lists v3, sets, two-variable comprehensions, Kubernetes regex)
 * and the Kubernetes libraries (url, lists, authz, quantity, ip, cidr, format, semver), cross-type
 * numeric comparisons, optional types, free has(), cel-go's program optimisation, the four AST
 * validators, the per-call cost limit, and `self` / `oldSelf` typed from the schema.
 *
 * One RuleEnv is built per schema node with rules; compiling a rule parses, checks (with the
 * validators), estimates the cost with Kubernetes' call estimator and the schema's sizes, and plans.
 */
import { check, type CheckedExpr } from '../../cel/check/checker.ts';
import { estimateCost, type CostEstimate } from '../../cel/check/cost.ts';
import { CheckEnv } from '../../cel/check/env.ts';
import { kubernetesCallCost } from '../../cel/check/kubernetes-cost.ts';
import { optionalOf, type Type } from '../../cel/check/types.ts';
import { kubernetesValidators } from '../../cel/check/validators.ts';
import { libraryOverloads, type RtOverload } from '../../cel/eval/dispatch.ts';
import { actualSize } from '../../cel/eval/planner.ts';
import { RegexSyntaxError, compileRegex } from '../../cel/lib/re2.ts';
import type { Expr } from '../../cel/syntax/ast.ts';
import { type Val, isError } from '../../cel/eval/values.ts';
import { Env, extensionLibraries, type Library, type Program } from '../../cel/index.ts';
import { kubernetesLibraries, kubernetesTypeNames, withKubernetesTypes } from '../../cel/lib/kubernetes/index.ts';
import { optionalLibrary, standardLibrary } from '../../cel/lib/std/decls.ts';
import { stdImpls } from '../../cel/lib/std/impl.ts';
import type { Constant } from '../../cel/syntax/ast.ts';
import { LISTS_MACROS, OPTIONAL_MACROS, STANDARD_MACROS, TWO_VAR_MACROS } from '../../cel/syntax/macros.ts';
import { parse, type ParseOptions } from '../../cel/syntax/parser.ts';
import { assignTypeNames, declSizeEstimator, declTypeAt, declTypeProvider, unboundedKeyword, type DeclType } from './types.ts';

/** celconfig.PerCallLimit: the runtime cost limit of one rule evaluation. */
export const PER_CALL_LIMIT = 1_000_000;
/** celconfig.RuntimeCELCostBudget: the runtime cost budget of validating one object. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;

/** The libraries of the base environment, in Kubernetes' order. */
export const baseLibraries: readonly Library[] = [
  extensionLibraries.regex,
  extensionLibraries.stringsV2,
  extensionLibraries.sets,
  extensionLibraries.comprehensions,
  extensionLibraries.lists,
  ...kubernetesLibraries,
];

const converts = (ids: Record<string, string>) => (c: Constant): boolean => {
  const id = ids[c.kind];
  if (!id) return true;
  return !isError(stdImpls.get(id)!.impl((c as { value: unknown }).value as Val));
};

const validators = {
  ...kubernetesValidators({
    durationLiteral: converts({ string: 'string_to_duration', duration: 'duration_to_duration' }),
    timestampLiteral: converts({ string: 'string_to_timestamp', int: 'int64_to_timestamp' }),
  }),
  homogeneousExemptFunctions: ['format'],
};

/**
 * The macros of the base environment: the standard ones, optionals, two-variable comprehensions and
 * ext.Lists' sortBy. Not cel.bind: Kubernetes does not install ext.Bindings.
 */
const parseOptions: ParseOptions = { macros: [...STANDARD_MACROS, ...OPTIONAL_MACROS, ...TWO_VAR_MACROS, ...LISTS_MACROS] };

/** Whether a "major.minor" compatibility version (undefined: the current one) is at least major.minor. */
function atLeast(v: string | undefined, major: number, minor: number): boolean {
  if (v === undefined) return true;
  const [a, b] = v.split('.').map(Number);
  return a! > major || (a === major && b! >= minor);
}

let typeNameCounter = 0;

/**
 * generateUniqueSelfTypeName: a fresh name for `self`'s object type, so that rules cannot come to
 * depend on it.
 */
function uniqueSelfTypeName(): string {
  return `selfType${typeNameCounter++}`;
}

// ---- Kubernetes' runtime call costs for the strings extension ---------------------------------
// library.CostEstimator.CallCost (installed by StrictCostOpt) charges string traversals for these
// strings-extension functions, which cel-go alone charges 1. Re-registering the overloads with
// those costs (rather than an Env-wide callCost hook) keeps the planner's fast paths.

const traversal = (n: number, factor = 0.1) => Math.ceil(n * factor);
const STRING_COSTS: Record<string, (args: Val[], result: Val) => number> = {
  lowerAscii: (a) => traversal(actualSize(a[0]!)),
  upperAscii: (a) => traversal(actualSize(a[0]!)),
  substring: (a) => traversal(actualSize(a[0]!)),
  trim: (a) => traversal(actualSize(a[0]!)),
  replace: (a) => traversal(actualSize(a[0]!), 0.2),
  split: (a) => traversal(actualSize(a[0]!), 0.2),
  join: (_a, r) => traversal(actualSize(r), 0.2),
};

const stringCostOverloads: RtOverload[] = libraryOverloads(extensionLibraries.stringsV2)
  .filter((o) => STRING_COSTS[o.name] !== undefined)
  .map((o) => ({ ...o, cost: STRING_COSTS[o.name] }));

/**
 * cel-go compiles constant regular expressions when the program is planned (Kubernetes' regex
 * library optimises find/findAll, cel-go matches): an invalid constant pattern fails program
 * instantiation. Returns Go's message for the first such pattern.
 */
function constantRegexError(e: Expr): string | undefined {
  switch (e.kind) {
    case 'call': {
      const isRegexFn = e.fn === 'find' || e.fn === 'findAll' || e.fn === 'matches';
      const pat = e.target !== undefined ? e.args[0] : e.fn === 'matches' ? e.args[1] : undefined;
      if (isRegexFn && pat?.kind === 'const' && pat.value.kind === 'string') {
        try {
          compileRegex(pat.value.value);
        } catch (err) {
          if (err instanceof RegexSyntaxError) return err.message;
        }
      }
      if (e.target !== undefined) {
        const r = constantRegexError(e.target);
        if (r !== undefined) return r;
      }
      for (const a of e.args) {
        const r = constantRegexError(a);
        if (r !== undefined) return r;
      }
      return undefined;
    }
    case 'select':
      return constantRegexError(e.operand);
    case 'list':
      for (const x of e.elements) {
        const r = constantRegexError(x);
        if (r !== undefined) return r;
      }
      return undefined;
    case 'map':
      for (const x of e.entries) {
        const r = constantRegexError(x.key) ?? constantRegexError(x.value);
        if (r !== undefined) return r;
      }
      return undefined;
    case 'struct':
      for (const x of e.fields) {
        const r = constantRegexError(x.value);
        if (r !== undefined) return r;
      }
      return undefined;
    case 'comprehension':
      return (
        constantRegexError(e.iterRange) ??
        constantRegexError(e.accuInit) ??
        constantRegexError(e.loopCondition) ??
        constantRegexError(e.loopStep) ??
        constantRegexError(e.result)
      );
  }
  return undefined;
}

// ---- rule environments -------------------------------------------------------------------------

/** A size the cost estimate had to assume because the schema sets no bound: where, and the keyword. */
export interface UnboundedSize {
  /** The value's path from self, as written in rules (`self.spec.items[*]`). */
  path: string;
  keyword: 'maxItems' | 'maxProperties' | 'maxLength';
}

export type CompileOutcome =
  | { program: Program; checked: CheckedExpr; cost: CostEstimate; unbounded: UnboundedSize[]; issues?: undefined; instantiationError?: undefined }
  | { issues: string; instantiationError?: undefined }
  | { instantiationError: string; issues?: undefined; checked: CheckedExpr };

/** The environment of the rules at one schema node: `self` (and `oldSelf`) of the node's type. */
export class RuleEnv {
  /** The declared type of self, with object types named. */
  readonly selfType: DeclType;
  private readonly env: Env;
  private readonly checkEnv: CheckEnv;
  private readonly sizes: ReturnType<typeof declSizeEstimator>;

  /**
   * optionalOldSelf: declare oldSelf as optional_type(T) (rules with optionalOldSelf: true).
   */
  constructor(declType: DeclType, optionalOldSelf: boolean, perCallLimit = PER_CALL_LIMIT, compatibilityVersion?: string) {
    this.selfType = assignTypeNames(declType, uniqueSelfTypeName());
    const selfCel: Type = this.selfType.celType;
    const variables: Record<string, Type> = { self: selfCel, oldSelf: optionalOldSelf ? optionalOf(selfCel) : selfCel };
    const provider = withKubernetesTypes(declTypeProvider(this.selfType, undefined, atLeast(compatibilityVersion, 1, 31)));
    this.env = new Env({
      variables,
      libraries: [...baseLibraries],
      provider,
      typeNames: kubernetesTypeNames,
      crossTypeNumericComparisons: true,
      presenceTestHasCost: false,
      costLimit: perCallLimit,
      optimize: true,
    });
    this.env.addOverloads(stringCostOverloads);
    this.checkEnv = new CheckEnv({
      provider,
      crossTypeNumericComparisons: true,
      libraries: [standardLibrary, optionalLibrary, ...baseLibraries],
      variables,
      validators,
    });
    this.sizes = declSizeEstimator(this.selfType);
  }

  /** Parse, check, estimate and plan one expression. */
  compile(source: string): CompileOutcome {
    const p = parse(source, parseOptions);
    if (!p.parsed) return { issues: p.issues.toString() };
    const c = check(p.parsed, this.checkEnv);
    if (!c.checked) return { issues: c.issues.toString() };
    const bad = constantRegexError(c.checked.expr);
    if (bad !== undefined) return { instantiationError: bad, checked: c.checked };
    const unbounded = new Map<string, UnboundedSize>();
    const sizeEstimator = (node: Parameters<typeof this.sizes>[0]) => {
      const r = this.sizes(node);
      if (r !== undefined && node.path !== undefined) {
        const t = declTypeAt(this.selfType, node.path);
        const keyword = t === undefined ? undefined : unboundedKeyword(t);
        if (keyword !== undefined) {
          const path = ['self', ...node.path.slice(1)].map((p) => (p === '@items' || p === '@values' ? '[*]' : p === '@keys' ? '{key}' : p)).join('.').replace(/\.\[/g, '[').replace(/\.\{/g, '{');
          unbounded.set(path, { path, keyword });
        }
      }
      return r;
    };
    const cost = estimateCost(c.checked, { sizeEstimator, callCost: kubernetesCallCost, presenceTestHasCost: false });
    return { program: this.env.planChecked(c.checked), checked: c.checked, cost, unbounded: [...unbounded.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
  }
}
