/**
 * The planner: compiles a (checked or unchecked) CEL AST once into a tree of closures, as cel-go's
 * interpreter/planner.go builds Interpretables, so that evaluation never walks the syntax tree.
 * Owns variable resolution (comprehension variables live in frame slots fixed at plan time; global
 * names are resolved against the container and declared variables), the non-strict operators
 * (`&&`, `||`, `?:`, `@not_strictly_false`, `optional.or/orValue`), comprehensions with an iteration
 * limit, literals, and runtime cost tracking with cel-go's runtimecost.go charges.
 *
 * Cost follows what cel-go's observer actually sees, not just the table in runtimecost.go: an
 * identifier or select costs 1, a call 1 or its tracker's figure, list/map creation 10/30,
 * constants 0; an attribute used as an index key or `?:` branch is resolved without observing its
 * root; a select/index on a non-attribute operand costs its relative attribute too; with the
 * optimizer (OptOptimize) constant literals and conversions cost nothing and `in` on a constant
 * list costs no call. Kubernetes' pinned figures (testdata/cel-runtime-cost) check all of this.
 */
import type { Expr } from '../syntax/ast.ts';
import { has, index, optIndex, optSelect, select } from './access.ts';
import { type RtOverload, type Registry, kindOf, matchesKinds, noSuchOverload } from './dispatch.ts';
import {
  CelError,
  CelMap,
  CelType,
  OpaqueValue,
  Optional,
  T,
  Uint,
  Unknown,
  type Val,
  codePointLength,
  equals,
  equality,
  keepInstanceofFast,
  listContains,
  typeName,
} from './values.ts';
import { WELL_KNOWN_MESSAGES, constructWellKnown } from './wellknown.ts';

/** Supplies global variables by name (undefined: not bound). */
export interface Activation {
  get(name: string): Val | undefined;
}

/** An Activation over a plain object of CEL values (own properties only). */
export class ObjectActivation implements Activation {
  constructor(public vars: Record<string, Val>) {}
  get(name: string): Val | undefined {
    return Object.hasOwn(this.vars, name) ? this.vars[name] : undefined;
  }
}

/**
 * An Activation over a plain object of CEL values. (A class, not a closure: evaluation runs this
 * per call, and closures created per call are measurably slower under some loaders.)
 */
export function activationOf(vars: Record<string, Val>): Activation {
  return new ObjectActivation(vars);
}

/** Thrown (internally only) when the cost limit is exceeded; caught by Program.eval. */
export class EvalCancelled {
  constructor(readonly message: string) {}
}
keepInstanceofFast(ObjectActivation);
keepInstanceofFast(EvalCancelled);

/** The largest list a library function may allocate from a numeric argument (`lists.range(n)`). */
export const MAX_ALLOCATED_LIST = 2 ** 24;

/** The innermost evaluation in progress (each frame links to the one it interrupted); see reserveAllocation. */
let activeFrame: Frame | undefined;

/**
 * Marks `f` as the evaluation in progress (Program.eval), for reserveAllocation; every call is
 * paired with leaveFrame in a `finally`. (Two calls rather than a wrapper taking a callback: the
 * callback would be a closure allocated per evaluation.)
 */
export function enterFrame(f: Frame): void {
  f.outer = activeFrame;
  f.ownedBase = ownedLists.length;
  activeFrame = f;
}

/** Ends the evaluation that the matching enterFrame began (also when it was cancelled midway). */
export function leaveFrame(f: Frame): void {
  activeFrame = f.outer;
  f.outer = undefined;
  // Only after a cancellation is there anything to cut (and setting an array's length is slow).
  if (ownedLists.length !== f.ownedBase) ownedLists.length = f.ownedBase;
}

/**
 * Called by library functions before allocating `n` elements whose cost (at least n) is charged
 * after they return: cancels the evaluation when that cost cannot fit in what remains of the cost
 * limit, and refuses lists beyond MAX_ALLOCATED_LIST, so that `lists.range(3000000000)` ends in an
 * error instead of exhausting memory.
 */
export function reserveAllocation(n: number): void {
  const f = activeFrame;
  if (f && f.cost + n > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
  checkListSize(n);
}

/**
 * Refuses a list of `n` elements beyond MAX_ALLOCATED_LIST (the JS engine aborts the process on
 * arrays of a few hundred million elements, where cel-go's lazy list concatenation does not
 * allocate at all): `cel.bind` chains doubling a list end here.
 */
export function checkListSize(n: number): void {
  if (n > MAX_ALLOCATED_LIST) throw new EvalCancelled(`operation cancelled: a list of ${n} elements exceeds the maximum of ${MAX_ALLOCATED_LIST}`);
}

/** Per-evaluation state. */
export class Frame {
  slots: Val[];
  cost = 0;
  iterations = 0;
  /**
   * The variables when they are a plain object (read directly, without an Activation's call),
   * whose prototype is Object.prototype or null (so that only Object.prototype's own names can be
   * inherited: see ownValue); otherwise undefined and `vars` answers.
   */
  obj: Record<string, Val> | undefined;
  vars: Activation;
  /** The evaluation this one interrupted (a library function evaluating another program). */
  outer: Frame | undefined = undefined;
  /** How many owned lists were on the stack when this evaluation began. */
  ownedBase = 0;
  constructor(
    vars: Activation,
    nslots: number,
    public costLimit: number,
    readonly iterationLimit: number,
  ) {
    this.vars = vars;
    this.obj = vars instanceof ObjectActivation && plainPrototype(vars.vars) ? vars.vars : undefined;
    this.slots = new Array(nslots).fill(null);
  }

  /** Binds the variables of one evaluation: an Activation (anything with `get`) or a plain object. */
  bind(vars: Activation | Record<string, Val>): void {
    if (typeof vars.get === 'function') {
      this.vars = vars as Activation;
      this.obj = undefined;
    } else if (plainPrototype(vars)) {
      this.obj = vars as Record<string, Val>;
    } else {
      this.vars = new ObjectActivation(vars as Record<string, Val>);
      this.obj = undefined;
    }
  }

  /** A global variable's value, or undefined when unbound. */
  lookup(name: string): Val | undefined {
    const o = this.obj;
    if (o !== undefined) return Object.hasOwn(o, name) ? o[name] : undefined;
    return this.vars.get(name);
  }
}

function plainPrototype(o: object): boolean {
  const p = Object.getPrototypeOf(o);
  return p === Object.prototype || p === null;
}

const NO_VARS: Activation = { get: () => undefined };

export type Closure = (f: Frame) => Val;

/** What the checker learned about the AST (all optional: the planner works on unchecked ASTs). */
export interface CheckedInfo {
  /** Node id -> the overload ids the checker resolved a call to. */
  overloads?: Map<number, string[]>;
  /** Node id -> the fully qualified variable name an identifier or select chain resolved to. */
  identNames?: Map<number, string>;
  /** Node id -> the value of an identifier or select chain the checker resolved to an enum constant. */
  constants?: Map<number, Val>;
}

export interface PlanOptions {
  registry: Registry;
  /** Namespace in which names are resolved (cel-go's container). */
  container?: string;
  /** Names of declared variables; when set, global names resolve statically. */
  declaredVars?: Set<string>;
  /** Object/enum type names usable as type values (beyond the built-in ones). */
  typeNames?: Set<string>;
  checked?: CheckedInfo;
  /** Cost limit (cel-go CostLimit); Infinity: none. */
  costLimit?: number;
  /** Total comprehension iterations allowed per evaluation; Infinity: none. */
  iterationLimit?: number;
  /** Whether `has()` costs 1 (cel-go's default) or 0. */
  presenceTestHasCost?: boolean;
  /**
   * cel-go's OptOptimize (Kubernetes enables it): constant list and map literals and type
   * conversions of constants are computed once at plan time (and cost nothing at run time), and
   * `x in [constant list]` costs no call.
   */
  optimize?: boolean;
  /**
   * A call cost estimator consulted before the overloads' own (cel-go's ActualCostEstimator):
   * returns the cost of the call, or undefined to fall back.
   */
  callCost?: (fn: string, overloadId: string, args: Val[], result: Val) => number | undefined;
  /**
   * The candidate overloads of call sites already planned against this registry (by function,
   * receiver style, arity and the checker's choice), shared by the programs of one environment;
   * cleared by its owner whenever the registry changes. Never modified by the planner.
   */
  candidateCache?: Map<string, readonly RtOverload[]>;
  /**
   * The same for call sites whose checked overload ids are a frozen array (the checker's memoized
   * resolutions share one per function and argument kinds): keyed by the array, without building
   * a key from a dozen ids. Cleared with candidateCache.
   */
  sharedCandidateCache?: Map<readonly string[], { name: string; receiver: boolean; argc: number; cands: readonly RtOverload[] }>;
}

export interface Plan {
  root: Closure;
  nslots: number;
}

const COST_LIST_CREATE = 10;
const COST_MAP_CREATE = 30;
const COST_STRUCT_CREATE = 40;

const BUILTIN_TYPES: Record<string, CelType> = {
  int: T.int,
  uint: T.uint,
  double: T.double,
  bool: T.bool,
  string: T.string,
  bytes: T.bytes,
  list: T.list,
  map: T.map,
  null_type: T.null,
  type: T.type,
  'google.protobuf.Timestamp': T.timestamp,
  'google.protobuf.Duration': T.duration,
  optional_type: T.optional,
};

/** Size of a value for cost purposes (cel-go actualSize). */
export function actualSize(v: Val): number {
  if (typeof v === 'string') return codePointLength(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof CelMap) return v.size;
  if (v instanceof Optional && v.value !== undefined) return actualSize(v.value);
  if (v instanceof OpaqueValue && v.size) return v.size();
  return 1;
}


/** cel-go's type conversion functions, folded over constant arguments by the optimizer. */
const CONVERSIONS = new Set(['bool', 'bytes', 'double', 'duration', 'dyn', 'int', 'string', 'timestamp', 'type', 'uint']);

/**
 * Lists that a comprehension in progress owns and may append to in place (the accumulators of
 * map/filter), innermost last: comprehensions nest, so each removes its own from the top when it
 * ends, and Program.eval cuts the stack back to where it began if evaluation is cancelled. (A stack
 * rather than a WeakSet: entering a comprehension must cost less than weak-table bookkeeping.)
 */
const ownedLists: (readonly Val[])[] = [];

function isOwned(l: readonly Val[]): boolean {
  for (let i = ownedLists.length - 1; i >= 0; i--) if (ownedLists[i] === l) return true;
  return false;
}

const noSuchOverloadPlain = () => new CelError('no such overload');

function isErrOrUnk(v: Val): v is CelError | Unknown {
  return typeof v === 'object' && v !== null && (v instanceof CelError || v instanceof Unknown);
}

/** Compiles expr into closures. */
export function plan(expr: Expr, opts: PlanOptions): Plan {
  const p = new Planner(opts);
  const root = p.plan(expr, new Map());
  return { root, nslots: p.nslots };
}

type Scope = Map<string, number>;

/** Slot markers of cel.@block indexes: not yet evaluated, and being evaluated (a cycle). */
const UNEVALUATED = { unevaluated: true } as unknown as Val;
const IN_PROGRESS = { inProgress: true } as unknown as Val;

class Planner {
  nslots = 0;
  /**
   * Closures that yield a constant (cel-go's InterpretableConst), with their value. (A Map owned
   * by this planning, not a module-wide WeakMap: weak tables cost far more per entry.)
   */
  private readonly constants = new Map<Closure, Val>();

  private constant(v: Val): Closure {
    const c = constantClosure(v);
    this.constants.set(c, v);
    return c;
  }

  /** Slots of cel.@block indexes -> their initialisers (filled once planned). */
  private readonly blockSlots = new Map<number, { init?: Closure }>();
  private readonly container: string[];
  constructor(private readonly o: PlanOptions) {
    this.container = o.container ? o.container.split('.') : [];
  }

  plan(e: Expr, sc: Scope): Closure {
    switch (e.kind) {
      case 'const': {
        const c = e.value;
        let v: Val;
        switch (c.kind) {
          case 'null':
            v = null;
            break;
          case 'uint':
            v = new Uint(c.value);
            break;
          default:
            v = c.value;
        }
        return this.constant(v);
      }
      case 'ident':
        return this.planIdent(e, sc);
      case 'select':
        return this.planSelect(e, sc);
      case 'call':
        return this.planCall(e, sc);
      case 'list':
        return this.planList(e, sc);
      case 'map':
        return this.planMap(e, sc);
      case 'struct':
        return this.planStruct(e, sc);
      case 'comprehension':
        return this.planComprehension(e, sc);
    }
  }

  // ---- names -----------------------------------------------------------------------------------

  /** Candidate qualified names for `name` in the container, most qualified first. */
  private candidates(name: string): string[] {
    if (name.startsWith('.')) return [name.slice(1)];
    const out: string[] = [];
    for (let i = this.container.length; i > 0; i--) out.push(this.container.slice(0, i).join('.') + '.' + name);
    out.push(name);
    return out;
  }

  private typeValue(name: string): CelType | undefined {
    for (const c of this.candidates(name)) {
      const t = BUILTIN_TYPES[c];
      if (t) return t;
      if (this.o.typeNames?.has(c)) return new CelType(c);
    }
    return undefined;
  }

  private planIdent(e: Expr & { kind: 'ident' }, sc: Scope): Closure {
    const slot = sc.get(e.name);
    const lazy = slot !== undefined ? this.blockSlots.get(slot) : undefined;
    if (lazy) {
      // A cel.@block index: evaluated on first use, then memoised for the rest of the evaluation.
      const name = e.name;
      return (f) => {
        f.cost++;
        let v: Val = f.slots[slot!]!;
        if (v === UNEVALUATED) {
          f.slots[slot!] = IN_PROGRESS;
          v = lazy.init!(f);
          f.slots[slot!] = v;
        } else if (v === IN_PROGRESS) return new CelError(`no such attribute(s): id: ${e.id}, names: [${name}]`, e.id);
        return v;
      };
    }
    if (slot !== undefined) {
      const read = slotRead(slot);
      this.slotReads.set(read, slot);
      return read;
    }
    const resolved = this.planGlobal([e.name], e.id);
    if (resolved) return resolved.fn;
    return this.missingName(e.name, e.id);
  }

  private missingName(name: string, id: number): Closure {
    const t = this.typeValue(name);
    if (t)
      return (f) => {
        f.cost++;
        return t;
      };
    const err = missingAttribute(id, this.candidates(name));
    return (f) => {
      f.cost++;
      return err;
    };
  }

  /**
   * Resolves the longest prefix of a dotted name chain that names a global variable. Returns a
   * closure yielding that variable's value (with the remaining parts selected) or, when variables
   * are not declared, a runtime search over the candidates.
   */
  private planGlobal(parts: string[], id: number): { fn: Closure; used: number } | undefined {
    const enumValue = this.o.checked?.constants?.get(id);
    if (enumValue !== undefined) return { fn: this.constant(enumValue), used: parts.length };
    const checkedName = unrooted(this.o.checked?.identNames?.get(id));
    if (checkedName !== undefined) {
      return { fn: this.globalGetter(checkedName, 0, id), used: parts.length };
    }
    if (this.o.checked && parts.length === 1) {
      const t = this.typeValue(parts[0]!);
      if (t) return { fn: this.constant(t), used: 1 };
    }
    const declared = this.o.declaredVars;
    if (declared) {
      for (let n = parts.length; n > 0; n--) {
        const name = parts.slice(0, n).join('.');
        for (const c of this.candidates(name)) {
          if (declared.has(c)) {
            let fn = this.globalGetter(c, n - 1, id);
            for (let i = n; i < parts.length; i++) fn = this.selectOf(fn, parts[i]!);
            return { fn, used: parts.length };
          }
        }
      }
      return undefined;
    }
    // Undeclared environment: search the activation at run time, longest name first.
    const options: { name: string; rest: string[] }[] = [];
    for (let n = parts.length; n > 0; n--) {
      const name = parts.slice(0, n).join('.');
      for (const c of this.candidates(name)) options.push({ name: c, rest: parts.slice(n) });
    }
    const typeVal = parts.length === 1 ? this.typeValue(parts[0]!) : this.typeValue(parts.join('.'));
    const missing = missingAttribute(id, options.filter((o) => o.rest.length === 0).map((o) => o.name));
    const extra = parts.length - 1;
    const fn: Closure = unnamed((f: Frame) => {
      f.cost += 1 + extra;
      for (const o of options) {
        let v = f.lookup(o.name);
        if (v === undefined) continue;
        for (const r of o.rest) v = select(v, r);
        return v;
      }
      return typeVal ?? missing;
    });
    return { fn, used: parts.length };
  }

  /**
   * Reads a global variable. `qualifiers` is the number of selects the name was written with
   * beyond its first part: cel-go charges each as a qualifier when it resolves an unchecked dotted
   * name, while a name the checker resolved is one identifier (cost 1).
   */
  private globalGetter(qualified: string, qualifiers: number, id: number): Closure {
    if (!this.o.declaredVars?.has(qualified)) {
      // The checker resolved a type name: cel-go plans it as a constant.
      const t = this.typeValue('.' + qualified) ?? this.typeValue(qualified);
      if (t) return this.constant(t);
    }
    const missing = missingAttribute(id, [qualified]);
    const cost = 1 + qualifiers;
    const read = globalRead(qualified, cost, missing);
    this.globalReads.set(read, { qualified, cost, missing });
    return read;
  }

  /**
   * Closures reading a comprehension variable or accumulator (cost 1), with its slot: the
   * operations most often applied to one (a select, `!`, `||`, `&&`, a comparison with a constant)
   * read the slot themselves, one closure call fewer per iteration, with the same charges.
   */
  private readonly slotReads = new Map<Closure, number>();
  /** Closures computing `!` of a slot (planned from a slot read), with the slot. */
  private readonly notOfSlot = new Map<Closure, number>();

  /** Closures reading a global variable (globalGetter), with what they read. */
  private readonly globalReads = new Map<Closure, { qualified: string; cost: number; missing: CelError }>();

  /**
   * `operand.field`. On a global variable (`self.spec`), one closure reads both, with the same
   * charges: there is one closure call fewer per evaluation.
   */
  private selectOf(operand: Closure, field: string): Closure {
    const slot = this.slotReads.get(operand);
    if (slot !== undefined) return selectSlot(slot, field);
    const g = this.globalReads.get(operand);
    if (!g) return selectClosure(operand, field);
    const { qualified, missing } = g;
    const cost = g.cost + 1;
    const inherited = qualified in Object.prototype;
    return (f) => {
      f.cost += cost;
      const o = f.obj;
      const v = o !== undefined ? ownValue(o, qualified, inherited) : f.vars.get(qualified);
      if (v instanceof CelMap) {
        const x = v.m.get(field);
        if (x !== undefined) return x;
      }
      return select(v === undefined ? missing : v, field);
    };
  }

  /** The dotted name of an ident/select chain (no test-only selects), or undefined. */
  private chainOf(e: Expr, sc: Scope): string[] | undefined {
    const parts: string[] = [];
    let cur: Expr = e;
    while (cur.kind === 'select' && !cur.testOnly) {
      parts.unshift(cur.field);
      cur = cur.operand;
    }
    if (cur.kind !== 'ident' || sc.has(cur.name)) return undefined;
    parts.unshift(cur.name);
    return parts;
  }

  private planSelect(e: Expr & { kind: 'select' }, sc: Scope): Closure {
    if (!e.testOnly) {
      const chain = this.chainOf(e, sc);
      if (chain) {
        const enumValue = this.o.checked?.constants?.get(e.id);
        if (enumValue !== undefined) return this.constant(enumValue);
        const checkedName = unrooted(this.o.checked?.identNames?.get(e.id));
        if (checkedName !== undefined) return this.globalGetter(checkedName, 0, e.id);
        if (!this.o.declaredVars) {
          const g = this.planGlobal(chain, e.id);
          if (g) return g.fn;
        } else {
          // Prefer a declared qualified name; otherwise fall through to field selection.
          const declared = this.o.declaredVars;
          for (const c of this.candidates(chain.join('.'))) if (declared.has(c)) return this.globalGetter(c, chain.length - 1, e.id);
          const t = this.typeValue(chain.join('.'));
          if (t) return this.constant(t);
        }
      }
    }
    const operand = this.plan(e.operand, sc);
    const field = e.field;
    if (e.testOnly) {
      const c = this.o.presenceTestHasCost === false ? 0 : 1;
      return (f) => {
        const v = operand(f);
        f.cost += c;
        return has(v, field);
      };
    }
    if (relativeAttributeCost(e.operand)) {
      return (f) => {
        const v = operand(f);
        f.cost += 2;
        return select(v, field);
      };
    }
    return this.selectOf(operand, field);
  }

  // ---- calls -----------------------------------------------------------------------------------

  private qualifiedFunction(e: Expr & { kind: 'call' }, sc: Scope): string | undefined {
    if (!e.target) return undefined;
    const chain = this.chainOf(e.target, sc);
    if (!chain) return undefined;
    const name = chain.join('.') + '.' + e.fn;
    for (const c of this.candidates(name)) if (this.o.registry.has(c)) return c;
    return undefined;
  }

  private planCall(e: Expr & { kind: 'call' }, sc: Scope): Closure {
    if (e.fn === 'cel.@block' && !e.target && e.args.length === 2) return this.planBlock(e.args[0]!, e.args[1]!, sc);
    const qualified = this.qualifiedFunction(e, sc);
    if (qualified && !(e.target && this.targetIsVariable(e.target, sc))) {
      return this.planFunction(qualified, false, e.args.map((a) => this.plan(a, sc)), e);
    }
    const append = this.planAccuAppend(e, sc) ?? this.planConcatChain(e, sc);
    if (append) return append;
    const args = e.args.map((a) => this.plan(a, sc));
    switch (e.fn) {
      case '!_': {
        // Inline the common case; anything else goes through dispatch with the value already computed.
        const a = args[0]!;
        let pending: Val = null;
        const generic = this.planFunction('!_', false, [() => pending], e);
        const slot = this.slotReads.get(a);
        if (slot !== undefined) {
          const not: Closure = notSlot(slot, (f, x) => {
            pending = x;
            return generic(f);
          });
          this.notOfSlot.set(not, slot);
          return not;
        }
        return (f) => {
          const x = a(f);
          if (typeof x === 'boolean') {
            f.cost++;
            return !x;
          }
          pending = x;
          return generic(f);
        };
      }
      case '_&&_':
      case '_||_': {
        const slot = this.slotReads.get(args[0]!);
        const or = e.fn === '_||_';
        if (slot === undefined) return or ? logicalOr(args[0]!, args[1]!) : logicalAnd(args[0]!, args[1]!);
        const step = or ? logicalOrSlot(slot, args[1]!) : logicalAndSlot(slot, args[1]!);
        this.logicSteps.set(step, { slot, or, operand: args[1]! });
        return step;
      }
      case '_?_:_':
        return conditional(args[0]!, this.unobservedRoot(e.args[1]!, args[1]!, sc), this.unobservedRoot(e.args[2]!, args[2]!, sc));
      case '@not_strictly_false': {
        const a = args[0]!;
        // The loop conditions of all() and exists(): `accu` and `!accu`.
        const slot = this.slotReads.get(a);
        if (slot !== undefined) {
          const cond = slotNotStrictlyFalse(slot);
          this.accuConditions.set(cond, { slot, negated: false });
          return cond;
        }
        const notSlotOf = this.notOfSlot.get(a);
        if (notSlotOf !== undefined) {
          const cond = notSlotNotStrictlyFalse(notSlotOf, a);
          this.accuConditions.set(cond, { slot: notSlotOf, negated: true });
          return cond;
        }
        return (f) => {
          const v = a(f);
          f.cost++;
          return typeof v === 'boolean' ? v : true;
        };
      }
      case '_[_]': {
        const c = args[0]!;
        const k = this.unobservedRoot(e.args[1]!, args[1]!, sc);
        const q = 1 + relativeAttributeCost(e.args[0]!);
        return (f) => {
          const cv = c(f);
          const kv = k(f);
          f.cost += q;
          return index(cv, kv);
        };
      }
      case '_[?_]': {
        const c = args[0]!;
        const k = this.unobservedRoot(e.args[1]!, args[1]!, sc);
        return (f) => {
          const cv = c(f);
          const kv = k(f);
          const r = optIndex(cv, kv);
          if (r instanceof Optional && r.value !== undefined) f.cost++;
          return r;
        };
      }
      case '_?._': {
        const c = args[0]!;
        const fe = e.args[1]!;
        const field = fe.kind === 'const' && fe.value.kind === 'string' ? fe.value.value : undefined;
        if (field === undefined) return () => new CelError('unsupported optional field selection', e.id);
        return (f) => {
          const cv = c(f);
          const r = optSelect(cv, field);
          if (r instanceof Optional && r.value !== undefined) f.cost++;
          return r;
        };
      }
      case '_==_':
      case '_!=_': {
        const [a, b] = args as [Closure, Closure];
        const neg = e.fn === '_!=_';
        const fn = e.fn;
        const c = this.constants.get(b);
        // A comparison with a string constant (a constant costs nothing to read).
        if (typeof c === 'string') return equalsString(fn, neg, a, this.slotReads.get(a) ?? -1, c);
        return (f) => equalOutcome(f, fn, neg, a(f), b(f));
      }
    }
    if (e.target && (e.fn === 'or' || e.fn === 'orValue') && args.length === 1 && this.o.registry.has(e.fn)) {
      return optionalOr(this.plan(e.target, sc), args[0]!, e.fn === 'orValue');
    }
    if (e.target) {
      return this.planFunction(e.fn, true, [this.plan(e.target, sc), ...args], e);
    }
    return this.planFunction(e.fn, false, args, e);
  }

  /**
   * cel-go resolves an attribute (an identifier with selects and indexes) used as an index key or
   * as a branch of `?:` through the attribute itself, bypassing the cost observer of its root
   * identifier: only its qualifiers are charged. Mirror that by refunding the root's cost.
   */
  private unobservedRoot(e: Expr, planned: Closure, sc: Scope): Closure {
    let cur = e;
    for (;;) {
      if (cur.kind === 'select' && !cur.testOnly) cur = cur.operand;
      else if (cur.kind === 'call' && cur.fn === '_[_]' && !cur.target && cur.args.length === 2) cur = cur.args[0]!;
      else break;
    }
    if (cur.kind !== 'ident' || this.constants.has(planned)) return planned;
    if (!sc.has(cur.name) && this.typeValue(cur.name) && !this.o.declaredVars?.has(cur.name)) return planned;
    return (f) => {
      const v = planned(f);
      f.cost--;
      return v;
    };
  }

  private targetIsVariable(target: Expr, sc: Scope): boolean {
    const chain = this.chainOf(target, sc);
    if (!chain) return true;
    const declared = this.o.declaredVars;
    if (!declared) return false;
    for (let n = chain.length; n > 0; n--) {
      for (const c of this.candidates(chain.slice(0, n).join('.'))) if (declared.has(c)) return true;
    }
    return false;
  }

  private planFunction(name: string, receiver: boolean, args: Closure[], e: Expr): Closure {
    if (this.o.optimize && !receiver && args.length === 1 && CONVERSIONS.has(name) && this.constants.has(args[0]!)) {
      return this.fold(this.planFunctionInner(name, receiver, args, e));
    }
    const constList = args.length === 2 ? this.constants.get(args[1]!) : undefined;
    if (this.o.optimize && name === '@in' && !receiver && Array.isArray(constList)) {
      // cel-go's set-membership optimisation: no call is observed, so there is no call cost.
      const x = args[0]!;
      const list = constList as readonly Val[];
      const strings = list.every((v) => typeof v === 'string') ? new Set(list as string[]) : undefined;
      return (f) => {
        const v = x(f);
        if (isErrOrUnk(v)) return v;
        if (strings) return typeof v === 'string' && strings.has(v);
        if (typeof v !== 'object' || v === null) {
          for (const e of list) if (equals(v, e)) return true;
          return false;
        }
        return listContains(list, v);
      };
    }
    return this.planFunctionInner(name, receiver, args, e);
  }

  private planFunctionInner(name: string, receiver: boolean, args: Closure[], e: Expr): Closure {
    // The checker's choice is tried first; the others stay as cel-go's dynamic dispatch does when a
    // value typed dyn turns out to need another overload (e.g. `dyn(1) < 1u`).
    const ids = this.o.checked?.overloads?.get(e.id);
    const shared = ids !== undefined && Object.isFrozen(ids) ? this.o.sharedCandidateCache : undefined;
    const hit = shared?.get(ids!);
    let cands = hit !== undefined && hit.name === name && hit.receiver === receiver && hit.argc === args.length ? hit.cands : undefined;
    const cache = shared ? undefined : this.o.candidateCache;
    const key = cache && `${name}\0${receiver}\0${args.length}\0${ids ? ids.join('\0') : ''}`;
    if (key !== undefined) cands = cache!.get(key);
    if (cands === undefined) {
      const chosen: RtOverload[] = [];
      const others: RtOverload[] = [];
      for (const o of this.o.registry.get(name) ?? []) {
        if (o.receiver !== receiver || (!o.variadic && o.kinds.length !== args.length)) continue;
        if (ids !== undefined && ids.includes(o.id)) chosen.push(o);
        else others.push(o);
      }
      cands = chosen.length ? chosen.concat(others) : others;
      if (key !== undefined) cache!.set(key, cands);
      else if (shared !== undefined && hit === undefined) shared.set(ids!, { name, receiver, argc: args.length, cands });
    }
    const display = name;
    if (cands.length === 0) {
      const exists = this.o.registry.has(name);
      return (f) => {
        const vals = args.map((a) => a(f));
        f.cost++;
        for (const v of vals) if (isErrOrUnk(v)) return noSuchOverload(display, vals);
        return exists ? noSuchOverload(display, vals) : new CelError(`no such overload: ${display}`, e.id);
      };
    }
    const nonStrict = cands.some((o) => o.nonStrict);
    const callCost = this.o.callCost;
    if (nonStrict || args.length > 2) return (f) => callAny(f, display, cands, nonStrict, callCost, args.map((x) => x(f)));
    // Overload choice depends only on the argument kinds: cache it per call site.
    if (args.length === 0) return (f) => callAny(f, display, cands, nonStrict, callCost, []);
    if (args.length === 1) {
      const [a] = args as [Closure];
      const table: Record<string, RtOverload | null> = {};
      // The last kind seen and its overload: a call site nearly always sees one kind.
      let lastKind = '';
      let last: RtOverload | null = null;
      return (f) => {
        const x = a(f);
        const k = kindOf(x);
        let o: RtOverload | null | undefined;
        if (k === lastKind) o = last;
        else {
          o = table[k];
          if (o === undefined) o = table[k] = k === '?' ? null : (cands.find((c) => matchesKinds(c, [x])) ?? null);
          lastKind = k;
          last = o;
        }
        if (o === null) {
          f.cost++;
          return noSuchOverload(display, [x]);
        }
        const r = o.impl(x);
        if (o.cost || callCost) charge(f, display, callCost, o, [x], r);
        else f.cost++;
        return r;
      };
    }
    const [a, b] = args as [Closure, Closure];
    const apply = this.binaryApplier(name, cands, e);
    const c = this.constants.get(b);
    if (!callCost) {
      const inline = typeof c === 'bigint' ? intComparisonWithConstant(name, a, c, apply) : intOperation(name, a, b, apply);
      if (inline) return inline;
    }
    // A constant second argument (`k.matches('^[a-z]+$')`) costs nothing to read: not called.
    if (c !== undefined) {
      const slot = this.slotReads.get(a);
      return slot !== undefined ? slotConstantCall(slot, c, apply) : (f) => apply(f, a(f), c);
    }
    return (f) => apply(f, a(f), b(f));
  }

  /**
   * Applies a two-argument function to values: the int fast path, then the overload cached for the
   * argument kinds, charging the call cost.
   */
  private binaryApplier(name: string, cands: readonly RtOverload[], _e: Expr): (f: Frame, x: Val, y: Val) => Val {
    const callCost = this.o.callCost;
    const fast = callCost ? undefined : fastBinary(name);
    const table: Record<string, Record<string, RtOverload | null>> = {};
    // The last pair of kinds seen and its overload: a call site nearly always sees one pair.
    let lastX = '';
    let lastY = '';
    let last: RtOverload | null = null;
    return (f, x, y) => {
      if (fast !== undefined && typeof x === 'bigint' && typeof y === 'bigint') {
        f.cost++;
        return fast(x, y);
      }
      const kx = kindOf(x);
      const ky = kindOf(y);
      let o: RtOverload | null | undefined;
      if (kx === lastX && ky === lastY) o = last;
      else {
        const row = (table[kx] ??= {});
        o = row[ky];
        if (o === undefined) o = row[ky] = kx === '?' || ky === '?' ? null : (cands.find((c) => matchesKinds(c, [x, y])) ?? null);
        lastX = kx;
        lastY = ky;
        last = o;
      }
      if (o === null) {
        f.cost++;
        return noSuchOverload(name, [x, y]);
      }
      const r = o.impl(x, y);
      if (o.cost || callCost) {
        const custom = callCost?.(name, o.id, [x, y], r);
        f.cost += custom ?? (o.cost ? o.cost([x, y], r) : 1);
        if (f.cost > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
      } else f.cost++;
      return r;
    };
  }

  /**
   * `a + b + c + ...` (three or more parts): when every part is a string, concatenates once and
   * charges each add_string step from the parts' sizes, so that intermediate results are never
   * rescanned; otherwise folds through the generic `_+_`. Costs and results are those of the
   * left-to-right chain of binary additions.
   */
  private planConcatChain(e: Expr & { kind: 'call' }, sc: Scope): Closure | undefined {
    if (this.o.callCost || e.fn !== '_+_' || e.target) return undefined;
    const parts: Expr[] = [];
    let cur: Expr = e;
    while (cur.kind === 'call' && cur.fn === '_+_' && !cur.target && cur.args.length === 2) {
      parts.unshift(cur.args[1]!);
      cur = cur.args[0]!;
    }
    parts.unshift(cur);
    if (parts.length < 3) return undefined;
    const cands = (this.o.registry.get('_+_') ?? []).filter((o) => !o.receiver && o.kinds.length === 2);
    const apply = this.binaryApplier('_+_', cands, e);
    const planned = parts.map((p) => this.plan(p, sc));
    const n = planned.length;
    const vals: Val[] = new Array(n);
    // Constant strings (the message text around the values) are measured once, here.
    const fixed = planned.map((p) => this.constants.get(p));
    const fixedCp = fixed.map((v) => (typeof v === 'string' ? codePointLength(v) : -1));
    return (f) => {
      // One pass: the parts are evaluated, and (while they are strings) concatenated and their
      // add_string costs summed; the costs are charged once every part has proved a string.
      let allStrings = true;
      let acc = '';
      let accCp = 0;
      let cost = 0;
      // The last code unit of acc, tracked from the parts (reading it from acc would flatten it).
      let last = 0;
      for (let i = 0; i < n; i++) {
        const v = fixedCp[i]! >= 0 ? fixed[i]! : planned[i]!(f);
        vals[i] = v;
        if (!allStrings) continue;
        if (typeof v !== 'string') {
          allStrings = false;
          continue;
        }
        const bCp = fixedCp[i]! >= 0 ? fixedCp[i]! : codePointLength(v);
        if (i === 0) {
          acc = v;
          accCp = bCp;
          last = v.length ? v.charCodeAt(v.length - 1) : 0;
          continue;
        }
        cost += Math.ceil((accCp + bCp) * 0.1);
        if (v.length === 0) continue;
        // A high surrogate ending acc pairs with a low one starting v.
        const first = v.charCodeAt(0);
        accCp += bCp - (last >= 0xd800 && last <= 0xdbff && first >= 0xdc00 && first <= 0xdfff ? 1 : 0);
        last = v.charCodeAt(v.length - 1);
        acc = acc + v;
      }
      if (allStrings) {
        f.cost += cost;
        return acc;
      }
      let r: Val = vals[0]!;
      for (let i = 1; i < n; i++) r = apply(f, r, vals[i]!);
      return r;
    };
  }

  // ---- literals --------------------------------------------------------------------------------

  private planList(e: Expr & { kind: 'list' }, sc: Scope): Closure {
    const elems = e.elements.map((x) => this.plan(x, sc));
    const fn = this.planListOf(elems, new Set(e.optionalIndices));
    return this.o.optimize && elems.every((c) => this.constants.has(c)) ? this.fold(fn) : fn;
  }
  /** Slots of comprehension accumulators that start as [] (appended to in place). */
  private readonly ownedAccuSlots = new Set<number>();

  /**
   * `acc + [x]` where acc is an owned accumulator (the step of map/filter): push in place, charging
   * exactly what the generic path charges (identifier 1, element, list creation 10, add_list 1).
   */
  private planAccuAppend(e: Expr & { kind: 'call' }, sc: Scope): Closure | undefined {
    if (e.fn !== '_+_' || e.target || e.args.length !== 2 || this.o.callCost) return undefined;
    const [l, r] = e.args as [Expr, Expr];
    if (l.kind !== 'ident' || r.kind !== 'list' || r.elements.length !== 1 || r.optionalIndices.length) return undefined;
    const slot = sc.get(l.name);
    if (slot === undefined || !this.ownedAccuSlots.has(slot)) return undefined;
    const elem = this.plan(r.elements[0]!, sc);
    const append: Closure = appendStep(slot, elem);
    this.appendSteps.set(append, { slot, elem });
    return append;
  }

  /** Steps of map() planned by planAccuAppend, with the accumulator's slot and the element's closure. */
  private readonly appendSteps = new Map<Closure, { slot: number; elem: Closure }>();
  /** Steps `accu || p` (or: true) and `accu && p` (or: false), with the accumulator's slot and p. */
  private readonly logicSteps = new Map<Closure, { slot: number; or: boolean; operand: Closure }>();
  /** Loop conditions `@not_strictly_false(accu)` (negated: false) and `@not_strictly_false(!accu)` (negated: true). */
  private readonly accuConditions = new Map<Closure, { slot: number; negated: boolean }>();

  /** Evaluates a closure whose inputs are all constants once, at plan time (errors stay runtime). */
  private fold(fn: Closure): Closure {
    const v = fn(new Frame(NO_VARS, 0, Infinity, Infinity));
    return v instanceof CelError || v instanceof Unknown ? fn : this.constant(v);
  }

  private planListOf(elems: Closure[], opt: Set<number>): Closure {
    if (opt.size === 0) {
      return (f) => {
        const out: Val[] = new Array(elems.length);
        let bad: Val | undefined;
        for (let i = 0; i < elems.length; i++) {
          const v = elems[i]!(f);
          if (bad === undefined && isErrOrUnk(v)) bad = v;
          else if (bad instanceof Unknown && v instanceof Unknown) bad = bad.merge(v);
          out[i] = v;
        }
        f.cost += COST_LIST_CREATE;
        return bad ?? out;
      };
    }
    return (f) => {
      const out: Val[] = [];
      for (let i = 0; i < elems.length; i++) {
        const v = elems[i]!(f);
        if (isErrOrUnk(v)) return v;
        if (opt.has(i)) {
          if (!(v instanceof Optional)) return new CelError(`cannot initialize optional list element from non-optional value ${typeName(v)}`);
          if (v.value !== undefined) out.push(v.value);
        } else out.push(v);
      }
      f.cost += COST_LIST_CREATE;
      return out;
    };
  }

  private planMap(e: Expr & { kind: 'map' }, sc: Scope): Closure {
    const entries = e.entries.map((en) => ({ k: this.plan(en.key, sc), v: this.plan(en.value, sc), opt: en.optional }));
    const fn = this.planMapInner(entries);
    return this.o.optimize && entries.every((en) => this.constants.has(en.k) && this.constants.has(en.v)) ? this.fold(fn) : fn;
  }

  private planMapInner(entries: { k: Closure; v: Closure; opt: boolean }[]): Closure {
    return (f) => {
      const m = new CelMap();
      for (const en of entries) {
        const k = en.k(f);
        if (isErrOrUnk(k)) return k;
        let v = en.v(f);
        if (isErrOrUnk(v)) return v;
        if (en.opt) {
          if (!(v instanceof Optional)) return new CelError(`cannot initialize optional entry '${typeof k === 'string' ? k : String(k)}' from non-optional value ${typeName(v)}`);
          if (v.value === undefined) continue;
          v = v.value;
        }
        const err = m.set(k, v);
        if (err) return err;
      }
      f.cost += COST_MAP_CREATE;
      return m;
    };
  }

  private planStruct(e: Expr & { kind: 'struct' }, sc: Scope): Closure {
    const fields = e.fields.map((fl) => ({ name: fl.name, v: this.plan(fl.value, sc), opt: fl.optional }));
    const wkt = this.candidates(e.typeName).find((c) => WELL_KNOWN_MESSAGES.has(c));
    if (wkt && !this.o.typeNames?.has(wkt)) return this.planWellKnown(wkt, fields);
    const known = this.o.typeNames && this.candidates(e.typeName).find((c) => this.o.typeNames!.has(c));
    if (!known) {
      const err = new CelError(`unknown type: ${e.typeName}`, e.id);
      return () => err;
    }
    return (f) => {
      const m = new CelMap(new Map(), known);
      for (const fl of fields) {
        let v = fl.v(f);
        if (isErrOrUnk(v)) return v;
        if (fl.opt) {
          if (!(v instanceof Optional)) return new CelError(`cannot initialize optional entry '${fl.name}' from non-optional value ${typeName(v)}`);
          if (v.value === undefined) continue;
          v = v.value;
        }
        m.m.set(fl.name, v);
      }
      f.cost += COST_STRUCT_CREATE;
      return m;
    };
  }

  /**
   * `cel.@block([init0, ...], expr)` (cel-go ext/bindings.go): `@indexN` names initialiser N, each
   * evaluated at most once per evaluation, when first referenced (initialisers may refer to each
   * other). An empty initialiser list is just `expr`.
   */
  private planBlock(inits: Expr, body: Expr, sc: Scope): Closure {
    if (inits.kind !== 'list') {
      const err = new CelError('cel.@block expects a list constructor as the first argument', inits.id);
      return () => err;
    }
    if (inits.elements.length === 0) return this.plan(body, sc);
    const inner = new Map(sc);
    const cells = inits.elements.map((_, i) => {
      const slot = this.nslots++;
      inner.set(`@index${i}`, slot);
      const cell: { init?: Closure } = {};
      this.blockSlots.set(slot, cell);
      return { slot, cell };
    });
    inits.elements.forEach((el, i) => (cells[i]!.cell.init = this.plan(el, inner)));
    const fn = this.plan(body, inner);
    const slots = cells.map((c) => c.slot);
    return (f) => {
      for (const s of slots) f.slots[s] = UNEVALUATED;
      return fn(f);
    };
  }

  /** A well-known message constructed by name: the CEL value it stands for (eval/wellknown.ts). */
  private planWellKnown(name: string, fields: { name: string; v: Closure; opt: boolean }[]): Closure {
    return (f) => {
      const set: [string, Val][] = [];
      for (const fl of fields) {
        let v = fl.v(f);
        if (isErrOrUnk(v)) return v;
        if (fl.opt) {
          if (!(v instanceof Optional)) return new CelError(`cannot initialize optional entry '${fl.name}' from non-optional value ${typeName(v)}`);
          if (v.value === undefined) continue;
          v = v.value;
        }
        set.push([fl.name, v]);
      }
      f.cost += COST_STRUCT_CREATE;
      return constructWellKnown(name, set);
    };
  }

  // ---- comprehensions --------------------------------------------------------------------------

  private planComprehension(e: Expr & { kind: 'comprehension' }, sc: Scope): Closure {
    const range = this.plan(e.iterRange, sc);
    const accuInit = this.plan(e.accuInit, sc);
    const inner = new Map(sc);
    const s1 = this.nslots++;
    inner.set(e.iterVar, s1);
    const s2 = e.iterVar2 ? this.nslots++ : -1;
    if (e.iterVar2) inner.set(e.iterVar2, s2);
    const accuScope = new Map(sc);
    const sa = this.nslots++;
    inner.set(e.accuVar, sa);
    accuScope.set(e.accuVar, sa);
    // Appending to an accumulator that starts as [] may reuse one array (cel-go's mutable list).
    const ownAccu = e.accuInit.kind === 'list' && e.accuInit.elements.length === 0;
    if (ownAccu) this.ownedAccuSlots.add(sa);
    const cond = this.plan(e.loopCondition, inner);
    const step = this.plan(e.loopStep, inner);
    const result = this.plan(e.result, accuScope);
    const condTrue = e.loopCondition.kind === 'const' && e.loopCondition.value.kind === 'bool' && e.loopCondition.value.value;
    const twoVar = s2 >= 0;
    // (An argument of unnamed: see constantClosure.)
    const general = unnamed((f: Frame, r: Val): Val => {
      if (isErrOrUnk(r)) return r;
      let accu = accuInit(f);
      const owns = ownAccu && Array.isArray(accu);
      if (owns) {
        accu = [];
        ownedLists.push(accu as Val[]);
      }
      const slots = f.slots;
      slots[sa] = accu;
      const limit = f.iterationLimit;
      if (Array.isArray(r)) {
        for (let i = 0; i < r.length; i++) {
          if (++f.iterations > limit) throw new EvalCancelled('operation cancelled: comprehension iteration limit exceeded');
          if (twoVar) {
            slots[s1] = BigInt(i);
            slots[s2] = r[i]!;
          } else slots[s1] = r[i]!;
          if (!condTrue) {
            const c = cond(f);
            if (c === false) break;
          }
          slots[sa] = step(f);
          if (f.cost > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
        }
      } else if (r instanceof CelMap) {
        for (const [n, v] of r.m) {
          const k = r.keyOf(n);
          if (++f.iterations > limit) throw new EvalCancelled('operation cancelled: comprehension iteration limit exceeded');
          slots[s1] = k;
          if (twoVar) slots[s2] = v;
          if (!condTrue) {
            const c = cond(f);
            if (c === false) break;
          }
          slots[sa] = step(f);
          if (f.cost > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
        }
      } else {
        if (owns) ownedLists.pop();
        return new CelError(`unsupported comprehension range type: ${typeName(r)}`, e.id);
      }
      if (owns) ownedLists.pop();
      const out = result(f);
      // Also after the result: nested cel.bind (comprehensions without iterations) can double a
      // value per level and would otherwise never reach the check in the loop.
      if (f.cost > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
      return out;
    });
    if (!twoVar && e.accuInit.kind === 'const') {
      const logic = this.logicSteps.get(step);
      const c = this.accuConditions.get(cond);
      if (logic && c && logic.slot === sa && c.slot === sa && c.negated === logic.or) {
        return quantifierLoop(range, accuInit, result, general, s1, sa, logic.or, logic.operand, cond, step);
      }
    }
    const append = this.appendSteps.get(step);
    if (!twoVar && ownAccu && condTrue && append && append.slot === sa) return mapLoop(range, accuInit, result, general, s1, sa, append.elem, step);
    return (f) => general(f, range(f));
  }
}

/**
 * all() and exists() over a list or a map's keys: the loop condition and the step `accu && p` / `accu || p`
 * inline while the accumulator is a bool (the condition's 2 or 3 and the accumulator read's 1
 * charged as their closures charge them), p the only closure called per element; an accumulator
 * that is an error or unknown goes through the planned condition and step. Other ranges: `general`.
 */
function quantifierLoop(
  range: Closure, accuInit: Closure, result: Closure, general: (f: Frame, r: Val) => Val,
  s1: number, sa: number, or: boolean, p: Closure, cond: Closure, step: Closure,
): Closure {
  // exists: `@not_strictly_false(!accu)`, accu starts false; all: `@not_strictly_false(accu)`, true.
  const identity = !or;
  const condCost = or ? 3 : 2;
  return (f) => {
    const r = range(f);
    const slots = f.slots;
    if (Array.isArray(r)) {
      slots[sa] = accuInit(f);
      for (let i = 0; i < r.length; i++) {
        slots[s1] = r[i]!;
        if (!quantifierStep(f, slots, sa, identity, condCost, p, cond, step)) break;
      }
    } else if (r instanceof CelMap) {
      slots[sa] = accuInit(f);
      for (const n of r.m.keys()) {
        slots[s1] = r.keyOf(n);
        if (!quantifierStep(f, slots, sa, identity, condCost, p, cond, step)) break;
      }
    } else return general(f, r);
    const out = result(f);
    if (f.cost > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
    return out;
  };
}

/** One element of quantifierLoop (already in its slot): false when the loop ends. */
function quantifierStep(
  f: Frame, slots: Val[], sa: number, identity: boolean, condCost: number, p: Closure, cond: Closure, step: Closure,
): boolean {
  if (++f.iterations > f.iterationLimit) throw new EvalCancelled('operation cancelled: comprehension iteration limit exceeded');
  const a = slots[sa];
  if (a === identity) {
    f.cost += condCost + 1;
    const y = p(f);
    slots[sa] = typeof y === 'boolean' ? y : combineLogical(identity, y, identity);
  } else if (a === !identity) {
    f.cost += condCost;
    return false;
  } else {
    if (cond(f) === false) return false;
    slots[sa] = step(f);
  }
  if (f.cost > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
  return true;
}

/**
 * map() over a list: the element pushed onto the owned accumulator inline (charging what
 * appendStep charges), the element's closure the only one called per element; an accumulator that
 * is no longer the owned list (an element was an error) goes through the planned step.
 */
function mapLoop(
  range: Closure, accuInit: Closure, result: Closure, general: (f: Frame, r: Val) => Val,
  s1: number, sa: number, elem: Closure, step: Closure,
): Closure {
  return (f) => {
    const r = range(f);
    if (!Array.isArray(r)) return general(f, r);
    // The `[]` it starts from: planned as a constant, or (unoptimized) a list creation to charge.
    accuInit(f);
    const slots = f.slots;
    const accu: Val[] = [];
    ownedLists.push(accu);
    slots[sa] = accu;
    const limit = f.iterationLimit;
    for (let i = 0; i < r.length; i++) {
      if (++f.iterations > limit) throw new EvalCancelled('operation cancelled: comprehension iteration limit exceeded');
      slots[s1] = r[i]!;
      if (slots[sa] === accu) {
        f.cost++;
        const v = elem(f);
        f.cost += COST_LIST_CREATE + 1;
        if (isErrOrUnk(v)) slots[sa] = v;
        else accu.push(v);
      } else slots[sa] = step(f);
      if (f.cost > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
    }
    ownedLists.pop();
    const out = result(f);
    if (f.cost > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
    return out;
  };
}

/** A checked name without its leading dot (`.x` names x in the root namespace). */
function unrooted(name: string | undefined): string | undefined {
  return name !== undefined && name.charCodeAt(0) === 46 ? name.slice(1) : name;
}

/** cel-go's error for an unbound variable: the attribute's id and candidate names, as Go prints them. */
function missingAttribute(id: number, names: string[]): CelError {
  return new CelError(`no such attribute(s): id: ${id}, names: [${names.join(' ')}]`, id);
}

/**
 * cel-go evaluates a select or index whose operand is not itself an attribute (a call, a literal, a
 * comprehension) through a relative attribute, observed once on top of its qualifiers: 1 more.
 */
function relativeAttributeCost(operand: Expr): number {
  switch (operand.kind) {
    case 'ident':
    case 'select':
      return 0;
    case 'call':
      return operand.fn === '_[_]' || operand.fn === '_?._' || operand.fn === '_[?_]' || operand.fn === '_?_:_' ? 0 : 1;
    default:
      return 1;
  }
}

// Closures kept in a variable are made by these module-level factories: under tsx (esbuild's
// keepNames) a named function expression inside a method costs a `__name` call, an
// Object.defineProperty, each time it is created, a tenth of a small expression's compile time.

/** Returns its argument: a function passed to it is not named by keepNames, as one assigned to a variable is. */
function unnamed<F>(fn: F): F {
  return fn;
}

function constantClosure(v: Val): Closure {
  return () => v;
}

function globalRead(qualified: string, cost: number, missing: CelError): Closure {
  const inherited = qualified in Object.prototype;
  return (f) => {
    f.cost += cost;
    // Read plain objects here, where the property name is fixed (a monomorphic load).
    const o = f.obj;
    const v = o !== undefined ? ownValue(o, qualified, inherited) : f.vars.get(qualified);
    return v === undefined ? missing : v;
  };
}

/**
 * An own property of the variables' object (Frame.obj, whose prototype is Object.prototype or
 * null): only a name Object.prototype also has (`constructor`, `toString`, ...) needs the own-property
 * test, which costs a builtin call (a third of reading `self`).
 */
function ownValue(o: Record<string, Val>, name: string, inherited: boolean): Val | undefined {
  const v = o[name];
  return inherited && v !== undefined && !Object.hasOwn(o, name) ? undefined : v;
}

function selectClosure(operand: Closure, field: string): Closure {
  return (f) => {
    const v = operand(f);
    f.cost++;
    if (v instanceof CelMap) {
      const x = v.m.get(field);
      if (x !== undefined) return x;
    }
    return select(v, field);
  };
}

/** The append step of map() (planAccuAppend): identifier 1, element, list creation 10, add_list 1. */
function appendStep(slot: number, elem: Closure): Closure {
  return (f) => {
    const acc = f.slots[slot]!;
    f.cost++;
    const v = elem(f);
    f.cost += COST_LIST_CREATE + 1;
    if (isErrOrUnk(v)) return v;
    if (Array.isArray(acc)) {
      if (isOwned(acc)) {
        (acc as Val[]).push(v);
        return acc;
      }
      return [...acc, v];
    }
    return noSuchOverload('_+_', [acc, [v]]);
  };
}

/** `@not_strictly_false(slot)`: the loop condition of all(). */
function slotNotStrictlyFalse(slot: number): Closure {
  return (f) => {
    const v = f.slots[slot]!;
    f.cost += 2;
    return typeof v === 'boolean' ? v : true;
  };
}

/** `@not_strictly_false(!slot)` (`not` computes `!slot`): the loop condition of exists(). */
function notSlotNotStrictlyFalse(slot: number, not: Closure): Closure {
  return (f) => {
    const v = f.slots[slot]!;
    if (typeof v === 'boolean') {
      f.cost += 3;
      return !v;
    }
    const r = not(f);
    f.cost++;
    return typeof r === 'boolean' ? r : true;
  };
}

/** A closure reading a comprehension slot. */
function slotRead(slot: number): Closure {
  return (f) => {
    f.cost++;
    return f.slots[slot]!;
  };
}

/** `slot.field`: the slot read and the select. */
function selectSlot(slot: number, field: string): Closure {
  return (f) => {
    const v = f.slots[slot]!;
    f.cost += 2;
    if (v instanceof CelMap) {
      const x = v.m.get(field);
      if (x !== undefined) return x;
    }
    return select(v, field);
  };
}

/** A two-argument call on a comprehension slot and a constant. */
function slotConstantCall(slot: number, c: Val, apply: (f: Frame, x: Val, y: Val) => Val): Closure {
  return (f) => {
    const x = f.slots[slot]!;
    f.cost++;
    return apply(f, x, c);
  };
}

/** `!slot`: a bool inline, anything else through `other` (dispatch), after the slot read's charge. */
function notSlot(slot: number, other: (f: Frame, x: Val) => Val): Closure {
  return (f) => {
    const x = f.slots[slot]!;
    f.cost++;
    if (typeof x === 'boolean') {
      f.cost++;
      return !x;
    }
    return other(f, x);
  };
}

/**
 * The outcome of `x == y` (`!=` when neg), charging its cost. Lists carrying their own equality
 * (ListBehavior) and library values may answer with an error value: `==` yields it, `!=` is true
 * unless the equality was true (cel-go's evalNe).
 */
function equalOutcome(f: Frame, fn: string, neg: boolean, x: Val, y: Val): Val {
  if (isErrOrUnk(x) || isErrOrUnk(y)) {
    f.cost++;
    return noSuchOverload(fn, [x, y]);
  }
  f.cost += equalsCost(x, y);
  const r = typeof x === 'object' && x !== null ? equality(x, y) : equals(x, y);
  if (neg) return r !== true;
  return r;
}

/** `a == c` (or `!=`) for a string constant c; `slot` >= 0 when a reads a comprehension slot. */
function equalsString(fn: string, neg: boolean, a: Closure, slot: number, c: string): Closure {
  return (f) => {
    let x: Val;
    if (slot >= 0) {
      x = f.slots[slot]!;
      f.cost++;
    } else x = a(f);
    if (typeof x === 'string') {
      f.cost += equalsCost(x, c);
      return neg ? x !== c : x === c;
    }
    return equalOutcome(f, fn, neg, x, c);
  };
}

function equalsCost(a: Val, b: Val): number {
  if (typeof a === 'string' && typeof b === 'string') {
    // ceil(min(code points) * 0.1): short strings need no code-point count.
    const m = Math.min(a.length, b.length);
    if (m <= 10) return m === 0 ? 0 : 1;
  } else if (typeof a !== 'string' && typeof a !== 'object') return 1;
  const s = Math.min(actualSize(a), actualSize(b));
  return Math.ceil(s * 0.1);
}

function logicalAnd(a: Closure, b: Closure): Closure {
  return (f) => {
    const x = a(f);
    if (x === false) return false;
    const y = b(f);
    if (y === false) return false;
    if (x === true && y === true) return true;
    return combineLogical(x, y, true);
  };
}

/** `slot && b`: the accumulator step of all(). */
function logicalAndSlot(slot: number, b: Closure): Closure {
  return (f) => {
    const x = f.slots[slot]!;
    f.cost++;
    if (x === false) return false;
    const y = b(f);
    if (y === false) return false;
    if (x === true && y === true) return true;
    return combineLogical(x, y, true);
  };
}

/** `slot || b`: the accumulator step of exists(). */
function logicalOrSlot(slot: number, b: Closure): Closure {
  return (f) => {
    const x = f.slots[slot]!;
    f.cost++;
    if (x === true) return true;
    const y = b(f);
    if (y === true) return true;
    if (x === false && y === false) return false;
    return combineLogical(x, y, false);
  };
}

function logicalOr(a: Closure, b: Closure): Closure {
  return (f) => {
    const x = a(f);
    if (x === true) return true;
    const y = b(f);
    if (y === true) return true;
    if (x === false && y === false) return false;
    return combineLogical(x, y, false);
  };
}

/** Neither operand decided the result: unknowns win, then the first error or non-bool operand. */
function combineLogical(x: Val, y: Val, identity: boolean): Val {
  let unk: Unknown | undefined;
  let err: Val | undefined;
  for (const v of [x, y]) {
    if (v === identity) continue;
    if (v instanceof Unknown) unk = unk ? unk.merge(v) : v;
    else if (err === undefined) err = v instanceof CelError ? v : noSuchOverloadPlain();
  }
  return unk ?? err ?? identity;
}

function conditional(c: Closure, t: Closure, e: Closure): Closure {
  return (f) => {
    const v = c(f);
    if (v === true) return t(f);
    if (v === false) return e(f);
    if (isErrOrUnk(v)) return v;
    return noSuchOverloadPlain();
  };
}

function optionalOr(target: Closure, alt: Closure, orValue: boolean): Closure {
  return (f) => {
    const t = target(f);
    if (!(t instanceof Optional)) return isErrOrUnk(t) ? t : noSuchOverload(orValue ? 'orValue' : 'or', [t]);
    if (t.value !== undefined) return orValue ? t.value : t;
    const a = alt(f);
    if (isErrOrUnk(a) || orValue) return a;
    return a instanceof Optional ? a : noSuchOverload('or', [t, a]);
  };
}

const INT_MIN = -(2n ** 63n);
const INT_MAX = 2n ** 63n - 1n;
const overflow = () => new CelError('integer overflow');

/** Inline int x int operators (the common case), bypassing dispatch. */
function fastBinary(name: string): ((x: bigint, y: bigint) => Val) | undefined {
  switch (name) {
    case '_+_':
      return (x, y) => {
        const r = x + y;
        return r < INT_MIN || r > INT_MAX ? overflow() : r;
      };
    case '_-_':
      return (x, y) => {
        const r = x - y;
        return r < INT_MIN || r > INT_MAX ? overflow() : r;
      };
    case '_*_':
      return (x, y) => {
        const r = x * y;
        return r < INT_MIN || r > INT_MAX ? overflow() : r;
      };
    case '_<_':
      return (x, y) => x < y;
    case '_<=_':
      return (x, y) => x <= y;
    case '_>_':
      return (x, y) => x > y;
    case '_>=_':
      return (x, y) => x >= y;
  }
  return undefined;
}

type CallCostFn = PlanOptions['callCost'];

/** Charges a call's cost (the estimator's figure, else the overload's, else 1). */
function charge(f: Frame, fn: string, callCost: CallCostFn, o: RtOverload, vals: Val[], r: Val): void {
  const custom = callCost?.(fn, o.id, vals, r);
  f.cost += custom ?? (o.cost ? o.cost(vals, r) : 1);
  // Size-dependent costs can jump: stop before the next step builds on an oversized value.
  if (f.cost > f.costLimit) throw new EvalCancelled('operation cancelled: actual cost limit exceeded');
}

/** A call dispatched on its argument values: the first candidate whose kinds match. */
function callAny(f: Frame, fn: string, cands: readonly RtOverload[], nonStrict: boolean, callCost: CallCostFn, vals: Val[]): Val {
  if (!nonStrict) {
    for (const v of vals) {
      if (isErrOrUnk(v)) {
        f.cost++;
        return noSuchOverload(fn, vals);
      }
    }
  }
  let o: RtOverload | undefined;
  for (const c of cands) {
    if (matchesKinds(c, vals)) {
      o = c;
      break;
    }
  }
  if (!o) {
    f.cost++;
    return noSuchOverload(fn, vals);
  }
  const r = o.impl(...vals);
  charge(f, fn, callCost, o, vals, r);
  return r;
}

type Applier = (f: Frame, x: Val, y: Val) => Val;

/**
 * `x op c` for an int constant c and an int comparison: the int case inline (one closure call
 * fewer than through the applier), anything else through the applier. Costs as the applier's.
 */
function intComparisonWithConstant(name: string, a: Closure, c: bigint, apply: Applier): Closure | undefined {
  switch (name) {
    case '_<_':
      return (f) => {
        const x = a(f);
        if (typeof x !== 'bigint') return apply(f, x, c);
        f.cost++;
        return x < c;
      };
    case '_<=_':
      return (f) => {
        const x = a(f);
        if (typeof x !== 'bigint') return apply(f, x, c);
        f.cost++;
        return x <= c;
      };
    case '_>_':
      return (f) => {
        const x = a(f);
        if (typeof x !== 'bigint') return apply(f, x, c);
        f.cost++;
        return x > c;
      };
    case '_>=_':
      return (f) => {
        const x = a(f);
        if (typeof x !== 'bigint') return apply(f, x, c);
        f.cost++;
        return x >= c;
      };
  }
  return intOperation(name, a, () => c, apply);
}

/** `x op y` with the int x int case of a comparison or `+`, `-`, `*` inline; else undefined. */
function intOperation(name: string, a: Closure, b: Closure, apply: Applier): Closure | undefined {
  switch (name) {
    case '_<_':
      return (f) => {
        const x = a(f);
        const y = b(f);
        if (typeof x !== 'bigint' || typeof y !== 'bigint') return apply(f, x, y);
        f.cost++;
        return x < y;
      };
    case '_<=_':
      return (f) => {
        const x = a(f);
        const y = b(f);
        if (typeof x !== 'bigint' || typeof y !== 'bigint') return apply(f, x, y);
        f.cost++;
        return x <= y;
      };
    case '_>_':
      return (f) => {
        const x = a(f);
        const y = b(f);
        if (typeof x !== 'bigint' || typeof y !== 'bigint') return apply(f, x, y);
        f.cost++;
        return x > y;
      };
    case '_>=_':
      return (f) => {
        const x = a(f);
        const y = b(f);
        if (typeof x !== 'bigint' || typeof y !== 'bigint') return apply(f, x, y);
        f.cost++;
        return x >= y;
      };
  }
  return undefined;
}

/** Appends in place when the left operand is a comprehension-owned accumulator; else undefined. */
export function appendOwned(l: Val, r: Val): Val | undefined {
  if (Array.isArray(l) && Array.isArray(r) && isOwned(l)) {
    checkListSize(l.length + r.length);
    (l as Val[]).push(...r);
    return l;
  }
  return undefined;
}
