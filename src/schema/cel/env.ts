/**
 * The CEL environment of CRD validation rules (k8s.io/apiserver pkg/cel/environment/base.go at the
 * current compatibility version, extended as apiextensions' compilation.go extends it): the
 * extension libraries (strings v2, lists v3, sets, two-variable comprehensions, Kubernetes regex)
 * and the Kubernetes libraries (url, lists, authz, quantity, ip, cidr, format, semver), cross-type
 * numeric comparisons, optional types, free has(), cel-go's program optimisation, the four AST
 * validators, the per-call cost limit, and `self` / `oldSelf` typed from the schema.
 *
 * The environment itself is kubernetesEnvOptions() (src/cel/kubernetes-env.ts) at the latest
 * version; this module adds the rule variables and the schema's object types and sizes.
 *
 * One RuleEnv is built per schema node with rules; compiling a rule parses, checks (with the
 * validators), estimates the cost with Kubernetes' call estimator and the schema's sizes, and plans.
 */
import {
  Env,
  RegexSyntaxError,
  compileRegex,
  kubernetesEnvOptions,
  optionalOf,
  type CheckedExpr,
  type CostEstimate,
  type Expr,
  type Program,
  type Type,
} from '../../cel/index.ts';
import { assignTypeNames, declSizeEstimator, declTypeAt, declTypeProvider, unboundedKeyword, type DeclType } from './types.ts';

/** celconfig.PerCallLimit: the runtime cost limit of one rule evaluation. */
export const PER_CALL_LIMIT = 1_000_000;
/** celconfig.RuntimeCELCostBudget: the runtime cost budget of validating one object. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;

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
  private readonly sizes: ReturnType<typeof declSizeEstimator>;

  /**
   * optionalOldSelf: declare oldSelf as optional_type(T) (rules with optionalOldSelf: true).
   */
  constructor(declType: DeclType, optionalOldSelf: boolean, perCallLimit = PER_CALL_LIMIT, compatibilityVersion?: string) {
    this.selfType = assignTypeNames(declType, uniqueSelfTypeName());
    const selfCel: Type = this.selfType.celType;
    const variables: Record<string, Type> = { self: selfCel, oldSelf: optionalOldSelf ? optionalOf(selfCel) : selfCel };
    const provider = declTypeProvider(this.selfType, undefined, atLeast(compatibilityVersion, 1, 31));
    this.env = new Env({ ...kubernetesEnvOptions({ provider, costLimit: perCallLimit }), variables });
    this.sizes = declSizeEstimator(this.selfType);
  }

  /** Parse, check, estimate and plan one expression. */
  compile(source: string): CompileOutcome {
    const c = this.env.check(source);
    if (!c.checked) return { issues: c.issues! };
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
    const cost = this.env.estimateCost(c.checked, { sizeEstimator });
    return { program: this.env.planChecked(c.checked), checked: c.checked, cost, unbounded: [...unbounded.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
  }
}
