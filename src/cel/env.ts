/**
 * The CEL environment: an `Env` (declared variables, object types, libraries, options) compiles
 * source text — parse, type-check, plan — into a `Program` evaluated against an activation.
 * Compile-time problems come back as issues printed as cel-go prints them; evaluation never throws
 * and reports runtime errors, with the actual cost, as values. Re-exported by index.ts, the
 * package's public face.
 */
import { check, type CheckedExpr } from './check/checker.ts';
import { estimateCost, type CostEstimate, type CostOptions } from './check/cost.ts';
import { CheckEnv } from './check/env.ts';
import { DynType, formatType, type Type, type TypeProvider } from './check/types.ts';
import type { ValidatorOptions } from './check/validators.ts';
import { addOverloads, libraryOverloads, type Registry, type RtOverload } from './eval/dispatch.ts';
import {
  type Activation,
  type CheckedInfo,
  EvalCancelled,
  enterFrame,
  Frame,
  leaveFrame,
  type Plan,
  type PlanOptions,
  plan,
} from './eval/planner.ts';
import { CelError, type Val, typeOfValue } from './eval/values.ts';
import type { Library } from './lib/decls.ts';
import { extensionOverloads } from './lib/runtime.ts';
import { optionalLibrary, standardLibrary } from './lib/std/decls.ts';
import { stdOverloads } from './lib/std/impl.ts';
import type { ParsedExpr } from './syntax/ast.ts';
import { macrosForLibraries } from './syntax/macros.ts';
import { parse, type ParseOptions } from './syntax/parser.ts';

export interface EnvOptions {
  /** Declared variables: name -> type. */
  variables?: Record<string, Type>;
  /** Extension libraries to install (the standard and optional libraries are always installed). */
  libraries?: Library[];
  /** Namespace in which names resolve. */
  container?: string;
  /** Object types (the schema layer derives them from CRD schemas). */
  provider?: TypeProvider;
  /** Object type names usable as type values and in `type(x) == T` comparisons. */
  typeNames?: string[];
  /**
   * Skip the type checker: plan the parsed AST and dispatch by runtime types only. Names then
   * resolve against the declared variables, or, when none are declared, against the activation at
   * run time (longest qualified name first, as cel-go resolves unchecked attributes).
   */
  disableCheck?: boolean;
  /** Allow `<`, `<=`, `>`, `>=` across int, uint and double in checked expressions (Kubernetes: on). */
  crossTypeNumericComparisons?: boolean;
  /** Reject mixed-type list and map literals (cel-go's HomogeneousAggregateLiterals). */
  homogeneousAggregateLiterals?: boolean;
  /** Runtime cost limit (cel-go CostLimit); exceeding it is the error `operation cancelled: actual cost limit exceeded`. */
  costLimit?: number;
  /** Comprehension iterations allowed per evaluation. */
  iterationLimit?: number;
  /** Whether `has()` costs 1 (cel-go's default, true) or 0 (as Kubernetes configures). */
  presenceTestHasCost?: boolean;
  /**
   * cel-go's OptOptimize (default true, as Kubernetes compiles its programs): constant list/map
   * literals and conversions of constants are computed at compile time and cost nothing at run time.
   */
  optimize?: boolean;
  /** A runtime call-cost estimator consulted first (cel-go's ActualCostEstimator, e.g. Kubernetes' library costs). */
  callCost?: (fn: string, overloadId: string, args: Val[], result: Val) => number | undefined;
  /**
   * Parser options (limits; macros default to the standard ones plus those the installed libraries
   * name in `Library.macros`).
   */
  parse?: ParseOptions;
  /** AST validators run after checking (cel-go's ASTValidators; Kubernetes': check/validators.ts kubernetesValidators). */
  validators?: ValidatorOptions;
  /**
   * Defaults of `Env.estimateCost`: a library call estimator (e.g. kubernetesCallCost) and
   * per-overload estimators (e.g. kubernetesExtensionCostEstimators).
   */
  costEstimation?: Pick<CostOptions, 'callCost' | 'overloadEstimators'>;
  /**
   * Runtime overloads registered after the libraries', replacing same-id ones (e.g. library functions
   * re-registered with another runtime cost, as Kubernetes charges string traversals).
   */
  overloads?: Iterable<RtOverload>;
}

/** The outcome of compile: a program, or issues printed as cel-go prints them. */
export type CompileResult =
  | { program: Program; issues?: undefined }
  | { program?: undefined; issues: string };

/** The outcome of one evaluation: a value or an error, with the actual cost either way. */
export type EvalResult = { value: Val; error?: undefined; cost: number } | { value?: undefined; error: CelError; cost: number };

const EMPTY: Record<string, Val> = Object.freeze({}) as Record<string, Val>;

/** A compiled expression. Reusable and safe to evaluate concurrently (each eval has its own frame). */
export class Program {
  private readonly root: Plan['root'];
  private readonly nslots: number;
  /** @internal */
  constructor(
    p: Plan,
    /** The checked result type (dyn when unchecked). */
    readonly type: Type,
    /** The checked AST, when the checker ran. */
    readonly checked: CheckedExpr | undefined,
    private readonly costLimit: number,
    private readonly iterationLimit: number,
  ) {
    this.root = p.root;
    this.nslots = p.nslots;
  }

  /**
   * Evaluates against an activation (anything with `get(name)`, e.g. a Map) or a plain object of
   * CEL values. Never throws: errors and
   * cancellation (cost or iteration limits) come back as `error`.
   */
  eval(vars?: Activation | Record<string, Val>, opts?: { costLimit?: number }): EvalResult {
    // One frame is reused across evaluations (nothing is allocated per evaluation but the result);
    // a re-entrant call (a library function evaluating this same program) gets a fresh one.
    const f = this.frame;
    if (f === undefined || this.busy || opts !== undefined) return this.evalInFrame(vars, opts?.costLimit ?? this.costLimit);
    const limit = this.costLimit;
    f.cost = 0;
    f.iterations = 0;
    f.costLimit = limit;
    f.bind(vars ?? EMPTY);
    this.busy = true;
    enterFrame(f);
    let v: Val;
    try {
      v = this.root(f);
    } catch (e) {
      this.release(f);
      return { error: failure(e), cost: f.cost };
    }
    // (Not a `finally`: released on both paths, which costs less per evaluation.)
    this.release(f);
    return outcome(v, f.cost, limit);
  }

  /** Ends an evaluation in the reused frame: it holds no reference to the caller's variables after. */
  private release(f: Frame): void {
    leaveFrame(f);
    this.busy = false;
    f.obj = EMPTY;
    f.vars = NONE;
  }

  /** The first evaluation (which creates the reused frame), a re-entrant one, or one with options. */
  private evalInFrame(vars: Activation | Record<string, Val> | undefined, limit: number): EvalResult {
    const reuse = !this.busy;
    let f = this.frame;
    if (!reuse || f === undefined) {
      f = new Frame(NONE, this.nslots, limit, this.iterationLimit);
      if (reuse) this.frame = f;
    } else {
      f.cost = 0;
      f.iterations = 0;
      f.costLimit = limit;
    }
    f.bind(vars ?? EMPTY);
    this.busy = true;
    enterFrame(f);
    let v: Val;
    try {
      v = this.root(f);
    } catch (e) {
      return { error: failure(e), cost: f.cost };
    } finally {
      leaveFrame(f);
      if (reuse) {
        this.busy = false;
        // Hold no reference to the caller's variables between evaluations.
        f.obj = EMPTY;
        f.vars = NONE;
      }
    }
    return outcome(v, f.cost, limit);
  }

  private busy = false;
  private frame: Frame | undefined;
}

const NONE: Activation = { get: () => undefined };

/** The result of an evaluation that returned `v` having spent `cost`. */
function outcome(v: Val, cost: number, limit: number): EvalResult {
  if (cost > limit) return { error: new CelError('operation cancelled: actual cost limit exceeded'), cost };
  if (typeof v === 'object' && v instanceof CelError) return { error: v, cost };
  return { value: v, cost };
}

/** The error of an evaluation that threw: a cancellation, or what internalFailure makes of the exception. */
function failure(e: unknown): CelError {
  return new CelError(e instanceof EvalCancelled ? e.message : internalFailure(e));
}

/**
 * The message of an exception escaping evaluation: JS engine limits (stack depth, string and array
 * sizes) as cancellations, anything else as an internal error.
 */
function internalFailure(e: unknown): string {
  if (e instanceof RangeError) {
    if (/call stack/i.test(e.message)) return 'operation cancelled: stack exhausted';
    return `operation cancelled: value too large (${e.message})`;
  }
  return `internal error: ${(e as Error)?.message ?? String(e)}`;
}

/** A CEL environment: built once, compiles many expressions. */
export class Env {
  readonly options: EnvOptions;
  private readonly checkEnv: CheckEnv;
  private readonly registry: Registry;
  private readonly declared: Set<string>;
  private readonly parseOptions: ParseOptions;

  constructor(opts: EnvOptions = {}) {
    this.options = opts;
    const libs = [standardLibrary, optionalLibrary, ...(opts.libraries ?? [])];
    // Libraries name the macros they enable (ext.Lists' sortBy, ext.Math's greatest/least, ...).
    this.parseOptions = { ...opts.parse, macros: opts.parse?.macros ?? macrosForLibraries(libs.flatMap((l) => l.macros ?? [])) };
    this.checkEnv = new CheckEnv({
      container: opts.container,
      provider: opts.provider,
      crossTypeNumericComparisons: opts.crossTypeNumericComparisons,
      homogeneousAggregateLiterals: opts.homogeneousAggregateLiterals,
      libraries: libs,
      variables: opts.variables,
      validators: opts.validators,
    });
    this.registry = new Map();
    addOverloads(this.registry, stdOverloads);
    addOverloads(this.registry, extensionOverloads);
    for (const lib of opts.libraries ?? []) addOverloads(this.registry, libraryOverloads(lib));
    if (opts.overloads) addOverloads(this.registry, opts.overloads);
    this.declared = new Set(Object.keys(opts.variables ?? {}));
    for (const lib of opts.libraries ?? []) for (const v of lib.variables ?? []) this.declared.add(v.name);
  }

  /** Parses only. */
  parse(source: string): { parsed?: ParsedExpr; issues?: string } {
    const r = parse(source, this.parseOptions);
    return r.parsed ? { parsed: r.parsed } : { issues: r.issues.toString() };
  }

  /** Parses and type-checks. */
  check(source: string): { checked?: CheckedExpr; issues?: string } {
    const r = parse(source, this.parseOptions);
    if (!r.parsed) return { issues: r.issues.toString() };
    const c = check(r.parsed, this.checkEnv, true);
    return c.checked ? { checked: c.checked } : { issues: c.issues.toString() };
  }

  /** Estimated cost range of a checked expression (cel-go's EstimateCost). */
  estimateCost(checked: CheckedExpr, opts?: CostOptions): CostEstimate {
    return estimateCost(checked, { presenceTestHasCost: this.options.presenceTestHasCost, ...this.options.costEstimation, ...opts });
  }

  /** Parse -> check (unless disabled) -> plan. */
  compile(source: string): CompileResult {
    const r = parse(source, this.parseOptions);
    if (!r.parsed) return { issues: r.issues.toString() };
    if (this.options.disableCheck) return { program: this.planParsed(r.parsed.expr, undefined, DynType) };
    const c = check(r.parsed, this.checkEnv, true);
    if (!c.checked) return { issues: c.issues.toString() };
    return { program: this.planChecked(c.checked) };
  }

  /** Plans an already checked expression. */
  planChecked(checked: CheckedExpr): Program {
    const overloads = new Map<number, string[]>();
    const identNames = new Map<number, string>();
    const constants = new Map<number, Val>();
    for (const [id, ref] of checked.referenceMap) {
      if (ref.overloadIds.length) overloads.set(id, ref.overloadIds);
      else if (ref.value !== undefined) constants.set(id, ref.value);
      else if (ref.name !== undefined) identNames.set(id, ref.name);
    }
    const t = checked.typeMap.get(checked.expr.id) ?? DynType;
    return this.planParsed(checked.expr, { overloads, identNames, constants }, t, checked);
  }

  private planParsed(expr: ParsedExpr['expr'], info: CheckedInfo | undefined, type: Type, checked?: CheckedExpr): Program {
    const costLimit = this.options.costLimit ?? Infinity;
    const iterationLimit = this.options.iterationLimit ?? Infinity;
    const p = plan(expr, {
      registry: this.registry,
      container: this.options.container,
      declaredVars: info || this.declared.size ? this.declared : undefined,
      checked: info,
      costLimit,
      iterationLimit,
      presenceTestHasCost: this.options.presenceTestHasCost,
      optimize: this.options.optimize ?? true,
      callCost: this.options.callCost,
      candidateCache: this.candidates,
      sharedCandidateCache: this.sharedCandidates,
      typeNames: this.typeNames,
    });
    return new Program(p, type, checked, costLimit, iterationLimit);
  }

  /** Adds runtime overloads (for libraries implemented outside the declaration format). */
  addOverloads(ovs: Iterable<RtOverload>): void {
    addOverloads(this.registry, ovs);
    this.candidates.clear();
    this.sharedCandidates.clear();
  }

  /** Call sites' candidate overloads, shared by this environment's plans (PlanOptions.candidateCache). */
  private readonly candidates = new Map<string, readonly RtOverload[]>();
  /** PlanOptions.sharedCandidateCache. */
  private readonly sharedCandidates: NonNullable<PlanOptions['sharedCandidateCache']> = new Map();
  private get typeNames(): Set<string> {
    return (this.typeNameSet ??= new Set(this.options.typeNames ?? []));
  }
  private typeNameSet: Set<string> | undefined;
}

/** cel-go's display name of a value's runtime type or a checked type. */
export function typeDisplay(v: Val, checkedType?: Type): string {
  if (checkedType && checkedType.kind !== 'dyn' && checkedType.kind !== 'typeParam') return formatType(checkedType);
  return typeOfValue(v).name;
}
