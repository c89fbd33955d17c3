/**
 * Static cost estimation of a checked expression, a port of cel-go's `checker/cost.go`: every node
 * gets a [min, max] cost in cel-go's units, loops multiply their body by the size of their range,
 * and sizes flow through the tree (literals, concatenation, map/filter results, index results).
 *
 * Sizes the expression does not fix come from a SizeEstimator, which is asked with the node's
 * path (`self.spec.items.@items`) and type; the schema layer answers from maxLength, maxItems and
 * maxProperties. Function costs may be refined by a call estimator (kubernetesCallCost below is
 * the Kubernetes one). Arithmetic is on unsigned 64-bit values that saturate, as in cel-go.
 */
import type { Expr } from '../syntax/ast.ts';
import type { CheckedExpr } from './checker.ts';
import { kindOf, typeName, typeParams, type Type } from './types.ts';

/** An estimated size (string length in code points, bytes, list or map entries). */
export interface SizeEstimate {
  min: bigint;
  max: bigint;
}

/** An estimated cost range. */
export interface CostEstimate {
  min: bigint;
  max: bigint;
}

/** A function call's estimate: its own cost (arguments excluded) and the size of its result. */
export interface CallEstimate extends CostEstimate {
  resultSize?: SizeEstimate;
}

/** A node as the estimators see it (cel-go's checker.AstNode). */
export interface AstNode {
  /**
   * The path from a declared variable to this node: the variable name, then field names,
   * `@items` (list elements), `@keys`, `@values` (map keys and values), `@indices`.
   * Undefined when the node is not reachable from a variable.
   */
  path: string[] | undefined;
  type: Type;
  expr: Expr | undefined;
  /** The size the expression itself fixes (a literal, a concatenation), if any. */
  computedSize: SizeEstimate | undefined;
}

/** Supplies the maximum size of values the expression cannot bound itself. */
export type SizeEstimator = (node: AstNode) => SizeEstimate | undefined;

/** Refines the cost of a call; undefined falls back to cel-go's built-in figures. */
export type CallCostEstimator = (
  fn: string,
  overloadId: string,
  target: AstNode | undefined,
  args: AstNode[],
  sizeOf: (node: AstNode) => SizeEstimate,
) => CallEstimate | undefined;

export interface CostOptions {
  /** Sizes of variables and their parts (none: unbounded). */
  sizeEstimator?: SizeEstimator;
  /** A library call estimator (e.g. kubernetesCallCost). */
  callCost?: CallCostEstimator;
  /** Whether `has()` costs 1 (cel-go's default) or 0 (what Kubernetes configures). */
  presenceTestHasCost?: boolean;
  /** Per-overload estimators, tried first (cel-go's OverloadCostEstimate). */
  overloadEstimators?: Record<string, CallCostEstimator>;
}

export const MAX_UINT64 = (1n << 64n) - 1n;
const TWO_TO_64 = 2 ** 64;

/** cel-go's cost constants (common/cost.go). */
export const SELECT_AND_IDENT_COST = 1n;
export const CONST_COST = 0n;
export const LIST_CREATE_BASE_COST = 10n;
export const MAP_CREATE_BASE_COST = 30n;
export const STRUCT_CREATE_BASE_COST = 40n;
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

export const unknownSize = (): SizeEstimate => ({ min: 0n, max: MAX_UINT64 });
export const fixed = (n: bigint): CostEstimate => ({ min: n, max: n });

export function addU64(x: bigint, y: bigint): bigint {
  const s = x + y;
  return s > MAX_UINT64 ? MAX_UINT64 : s;
}

export function mulU64(x: bigint, y: bigint): bigint {
  const p = x * y;
  return p > MAX_UINT64 ? MAX_UINT64 : p;
}

/** x * factor rounded up, computed in float64 as cel-go does (so large values round alike). */
export function mulFactor(x: bigint, factor: number): bigint {
  const xf = Number(x);
  if (xf > 0 && factor > 0 && xf > Number(MAX_UINT64) / factor) return MAX_UINT64;
  const c = Math.ceil(xf * factor);
  if (c >= TWO_TO_64) return MAX_UINT64;
  return BigInt(c);
}

export const add = (a: CostEstimate, b: CostEstimate): CostEstimate => ({
  min: addU64(a.min, b.min),
  max: addU64(a.max, b.max),
});
export const multiply = (a: CostEstimate, b: CostEstimate): CostEstimate => ({
  min: mulU64(a.min, b.min),
  max: mulU64(a.max, b.max),
});
export const multiplyByFactor = (a: CostEstimate, f: number): CostEstimate => ({
  min: mulFactor(a.min, f),
  max: mulFactor(a.max, f),
});
export const union = (a: CostEstimate, b: CostEstimate): CostEstimate => ({
  min: b.min < a.min ? b.min : a.min,
  max: b.max > a.max ? b.max : a.max,
});

interface EntrySize {
  container: 'list' | 'map';
  key: SizeEstimate;
  val: SizeEstimate;
}

interface LocalVar {
  path: string[] | undefined;
  size: SizeEstimate | undefined;
  entrySize: EntrySize | undefined;
}

/** cel-go's parser.AccumulatorName and HiddenAccumulatorName. */
const ACCUMULATOR_NAME = '__result__';
const HIDDEN_ACCUMULATOR_NAME = '@result';

/**
 * Estimates the cost of a checked expression as cel-go's checker.Cost does (with the options
 * Kubernetes passes when given its call estimator and presenceTestHasCost: false).
 */
export function estimateCost(checked: CheckedExpr, opts: CostOptions = {}): CostEstimate {
  return new Coster(checked, opts).cost(checked.expr);
}

class Coster {
  private readonly exprPaths = new Map<number, string[]>();
  private readonly localVars = new Map<string, LocalVar[]>();
  private readonly computedSizes = new Map<number, SizeEstimate>();
  private readonly computedEntrySizes = new Map<number, EntrySize>();
  private readonly presenceTestCost: CostEstimate;

  constructor(
    private readonly checked: CheckedExpr,
    private readonly opts: CostOptions,
  ) {
    this.presenceTestCost = fixed(opts.presenceTestHasCost === false ? 0n : SELECT_AND_IDENT_COST);
  }

  cost(e: Expr): CostEstimate {
    switch (e.kind) {
      case 'const':
        return fixed(CONST_COST);
      case 'ident': {
        const v = this.peekLocal(e.name);
        if (v) {
          if (v.path) this.exprPaths.set(e.id, v.path);
        } else {
          this.exprPaths.set(e.id, [e.name]);
        }
        return fixed(SELECT_AND_IDENT_COST);
      }
      case 'select':
        return this.costSelect(e);
      case 'call':
        return this.costCall(e);
      case 'list':
        return this.costCreateList(e);
      case 'map':
        return this.costCreateMap(e);
      case 'struct': {
        let sum = fixed(0n);
        for (const f of e.fields) sum = add(sum, this.cost(f.value));
        return add(sum, fixed(STRUCT_CREATE_BASE_COST));
      }
      case 'comprehension':
        return isBind(e) ? this.costBind(e) : this.costComprehension(e);
    }
  }

  private costSelect(e: Extract<Expr, { kind: 'select' }>): CostEstimate {
    let sum = fixed(0n);
    if (e.testOnly) {
      sum = add(sum, this.presenceTestCost);
      return add(sum, this.cost(e.operand));
    }
    sum = add(sum, this.cost(e.operand));
    const k = kindOf(this.getType(e.operand));
    if (k === 'map' || k === 'struct' || k === 'typeParam') sum = add(sum, fixed(SELECT_AND_IDENT_COST));
    this.exprPaths.set(e.id, [...(this.getPath(e.operand) ?? []), e.field]);
    return sum;
  }

  private costCall(e: Extract<Expr, { kind: 'call' }>): CostEstimate {
    if (e.fn === 'dyn' && e.args.length === 1 && !e.target) {
      // dyn() only disables type checking: its argument plus one.
      const arg = e.args[0]!;
      const argCost = this.cost(arg);
      this.copySizeEstimates(e, arg);
      return add(fixed(1n), argCost);
    }
    const args = e.args;
    const argCosts = args.map((a) => this.cost(a));
    const argNodes = args.map((a) => this.newAstNode(a));
    const overloadIds = this.checked.referenceMap.get(e.id)?.overloadIds ?? [];
    if (overloadIds.length === 0) return fixed(0n);
    let sum = fixed(0n);
    let target: AstNode | undefined;
    if (e.target) {
      sum = add(sum, this.cost(e.target));
      target = this.newAstNode(e.target);
    }
    let fnCost: CostEstimate = { min: MAX_UINT64, max: 0n };
    let resultSize: SizeEstimate | undefined;
    for (const overload of overloadIds) {
      const oc = this.functionCost(e, e.fn, overload, target, argNodes, argCosts);
      fnCost = union(fnCost, oc);
      if (oc.resultSize) resultSize = resultSize ? union(resultSize, oc.resultSize) : oc.resultSize;
      if (overload === 'index_list' && args.length > 0) {
        resultSize = this.computeEntrySize(args[0]!)?.val;
        this.exprPaths.set(e.id, [...(this.getPath(args[0]!) ?? []), '@items']);
      } else if (overload === 'index_map' && args.length > 0) {
        resultSize = this.computeEntrySize(args[0]!)?.val;
        this.exprPaths.set(e.id, [...(this.getPath(args[0]!) ?? []), '@values']);
      }
      if (!resultSize) resultSize = this.computeSize(e);
    }
    if (resultSize) this.computedSizes.set(e.id, resultSize);
    return add(sum, fnCost);
  }

  private costCreateList(e: Extract<Expr, { kind: 'list' }>): CostEstimate {
    let sum = fixed(0n);
    let itemSize: SizeEstimate = { min: e.elements.length === 0 ? 0n : MAX_UINT64, max: 0n };
    for (const el of e.elements) {
      sum = add(sum, this.cost(el));
      itemSize = union(itemSize, this.sizeOrUnknown(el));
    }
    this.computedEntrySizes.set(e.id, { container: 'list', key: fixed(1n), val: itemSize });
    return add(sum, fixed(LIST_CREATE_BASE_COST));
  }

  private costCreateMap(e: Extract<Expr, { kind: 'map' }>): CostEstimate {
    let sum = fixed(0n);
    const empty = e.entries.length === 0;
    let keySize: SizeEstimate = { min: empty ? 0n : MAX_UINT64, max: 0n };
    let valSize: SizeEstimate = { min: empty ? 0n : MAX_UINT64, max: 0n };
    for (const entry of e.entries) {
      sum = add(sum, this.cost(entry.key));
      sum = add(sum, this.cost(entry.value));
      keySize = union(keySize, this.sizeOrUnknown(entry.key));
      valSize = union(valSize, this.sizeOrUnknown(entry.value));
    }
    this.computedEntrySizes.set(e.id, { container: 'map', key: keySize, val: valSize });
    return add(sum, fixed(MAP_CREATE_BASE_COST));
  }

  private costComprehension(e: Extract<Expr, { kind: 'comprehension' }>): CostEstimate {
    let sum = fixed(0n);
    sum = add(sum, this.cost(e.iterRange));
    sum = add(sum, this.cost(e.accuInit));
    this.pushLocalVar(e.accuVar, e.accuInit);
    if (e.iterVar2 !== '') {
      this.pushIter(e.iterVar, e.iterRange, 'key');
      this.pushIter(e.iterVar2, e.iterRange, 'value');
    } else {
      this.pushIter(e.iterVar, e.iterRange, 'single');
    }
    const loopCost = this.cost(e.loopCondition);
    const stepCost = this.cost(e.loopStep);
    this.popLocal(e.iterVar);
    if (e.iterVar2 !== '') this.popLocal(e.iterVar2);
    sum = add(sum, this.cost(e.result));
    this.popLocal(e.accuVar);

    const rangeCnt = this.sizeOrUnknown(e.iterRange);
    sum = add(sum, multiply(rangeCnt, add(stepCost, loopCost)));

    switch (e.accuInit.kind) {
      case 'const': {
        const s = this.computeSize(e.accuInit);
        if (s) this.computedSizes.set(e.id, s);
        break;
      }
      case 'list':
      case 'map': {
        this.computedSizes.set(e.id, rangeCnt);
        const stepEntry = this.computeEntrySize(e.loopStep);
        if (stepEntry) this.computedEntrySizes.set(e.id, stepEntry);
        break;
      }
    }
    return sum;
  }

  private costBind(e: Extract<Expr, { kind: 'comprehension' }>): CostEstimate {
    let sum = fixed(0n);
    sum = add(sum, this.cost(e.iterRange));
    sum = add(sum, this.cost(e.accuInit));
    this.pushLocalVar(e.accuVar, e.accuInit);
    sum = add(sum, this.cost(e.result));
    this.popLocal(e.accuVar);
    this.copySizeEstimates(e, e.result);
    return sum;
  }

  private functionCost(
    e: Expr,
    fn: string,
    overloadId: string,
    target: AstNode | undefined,
    args: AstNode[],
    argCosts: CostEstimate[],
  ): CallEstimate {
    const argCostSum = (): CostEstimate => argCosts.reduce(add, fixed(0n));
    const sizeOf = (n: AstNode): SizeEstimate => this.sizeOrUnknownNode(n);
    const custom = this.opts.overloadEstimators?.[overloadId];
    if (custom) {
      const est = custom(fn, overloadId, target, args, sizeOf);
      if (est) return withResult(add(est, argCostSum()), est.resultSize);
    }
    if (this.opts.callCost) {
      const est = this.opts.callCost(fn, overloadId, target, args, sizeOf);
      if (est) return withResult(add(est, argCostSum()), est.resultSize);
    }
    switch (overloadId) {
      case 'string_format':
        if (target) return add(multiplyByFactor(sizeOf(target), STRING_TRAVERSAL_COST_FACTOR), argCostSum());
        break;
      case 'string_to_bytes':
        if (args.length === 1) {
          const sz = sizeOf(args[0]!);
          return withResult(add(multiplyByFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argCostSum()), {
            min: sz.min,
            max: mulU64(sz.max, 4n),
          });
        }
        break;
      case 'bytes_to_string':
        if (args.length === 1) {
          const sz = sizeOf(args[0]!);
          return withResult(add(multiplyByFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argCostSum()), {
            min: sz.min / 4n,
            max: sz.max,
          });
        }
        break;
      case 'strings_quote':
        if (args.length === 1) {
          const sz = sizeOf(args[0]!);
          return withResult(add(multiplyByFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argCostSum()), {
            min: addU64(sz.min, 2n),
            max: addU64(mulU64(sz.max, 2n), 2n),
          });
        }
        break;
      case 'starts_with_string':
      case 'ends_with_string':
        if (args.length === 1) return add(multiplyByFactor(sizeOf(args[0]!), STRING_TRAVERSAL_COST_FACTOR), argCostSum());
        break;
      case 'in_list':
        if (args.length === 2) return add(multiplyByFactor(sizeOf(args[1]!), 1), argCostSum());
        break;
      case 'matches_string':
        if (target && args.length === 1) {
          const strCost = multiplyByFactor(add(sizeOf(target), fixed(1n)), STRING_TRAVERSAL_COST_FACTOR);
          const regexCost = multiplyByFactor(sizeOf(args[0]!), REGEX_STRING_LENGTH_COST_FACTOR);
          return add(multiply(strCost, regexCost), argCostSum());
        }
        break;
      case 'contains_string':
        if (target && args.length === 1) {
          const strCost = multiplyByFactor(sizeOf(target), STRING_TRAVERSAL_COST_FACTOR);
          const subCost = multiplyByFactor(sizeOf(args[0]!), STRING_TRAVERSAL_COST_FACTOR);
          return add(multiply(strCost, subCost), argCostSum());
        }
        break;
      case 'logical_or':
      case 'logical_and': {
        const lhs = argCosts[0]!;
        const rhs = argCosts[1]!;
        return { min: lhs.min, max: add(lhs, rhs).max };
      }
      case 'conditional': {
        const size = union(sizeOf(args[1]!), sizeOf(args[2]!));
        const a = this.computeEntrySize(args[1]!.expr!);
        const b = this.computeEntrySize(args[2]!.expr!);
        if (a && b) this.computedEntrySizes.set(e.id, unionEntry(a, b));
        return withResult(add(argCosts[0]!, union(argCosts[1]!, argCosts[2]!)), size);
      }
      case 'add_string':
      case 'add_bytes':
      case 'add_list':
        if (args.length === 2) {
          const resultSize = add(sizeOf(args[0]!), sizeOf(args[1]!));
          const l = this.computeEntrySize(args[0]!.expr!);
          const r = this.computeEntrySize(args[1]!.expr!);
          if (l && r) this.computedEntrySizes.set(e.id, unionEntry(l, r));
          if (overloadId === 'add_list') return withResult(add(fixed(1n), argCostSum()), resultSize);
          return withResult(
            add(multiplyByFactor(resultSize, STRING_TRAVERSAL_COST_FACTOR), argCostSum()),
            resultSize,
          );
        }
        break;
      case 'less_string':
      case 'greater_string':
      case 'less_equals_string':
      case 'greater_equals_string':
      case 'less_bytes':
      case 'greater_bytes':
      case 'less_equals_bytes':
      case 'greater_equals_bytes':
      case 'equals':
      case 'not_equals': {
        const lhs = sizeOf(args[0]!);
        const rhs = sizeOf(args[1]!);
        const smallestMax = rhs.max < lhs.max ? rhs.max : lhs.max;
        const min = smallestMax > 0n ? 1n : 0n;
        return add(multiplyByFactor({ min, max: smallestMax }, STRING_TRAVERSAL_COST_FACTOR), argCostSum());
      }
    }
    return add(fixed(1n), argCostSum());
  }

  // ---- paths, sizes and local variables ----

  private getType(e: Expr): Type {
    return this.checked.typeMap.get(e.id) ?? { kind: 'dyn' };
  }

  /** The node's path; undefined (Go's nil) when it has none. */
  private getPath(e: Expr): string[] | undefined {
    if (e.kind === 'ident') {
      const v = this.peekLocal(e.name);
      if (v) return v.path;
    }
    return this.exprPaths.get(e.id);
  }

  private newAstNode(e: Expr): AstNode {
    let path = this.getPath(e);
    // Only paths from declared variables are given out; accumulators have none.
    if (path && path.length > 0 && (path[0] === ACCUMULATOR_NAME || path[0] === HIDDEN_ACCUMULATOR_NAME)) path = undefined;
    return { path, type: this.getType(e), expr: e, computedSize: this.computeSize(e) };
  }

  private sizeOrUnknown(e: Expr): SizeEstimate {
    return this.computeSize(e) ?? unknownSize();
  }

  /**
   * A node's size: what the expression fixes, else the size estimator's bound, else unknown.
   * (cel-go consults only ComputedSize here, which already holds the estimator's answer for nodes
   * of the tree; estimators also ask about synthetic nodes such as a list's elements.)
   */
  private sizeOrUnknownNode(n: AstNode): SizeEstimate {
    return n.computedSize ?? this.opts.sizeEstimator?.(n) ?? unknownSize();
  }

  private copySizeEstimates(dst: Expr, src: Expr): void {
    const s = this.computeSize(src);
    if (s) this.computedSizes.set(dst.id, s);
    const es = this.computeEntrySize(src);
    if (es) this.computedEntrySizes.set(dst.id, es);
  }

  private computeSize(e: Expr): SizeEstimate | undefined {
    const known = this.computedSizes.get(e.id);
    if (known) return known;
    const own = computeExprSize(e);
    if (own) return own;
    const node: AstNode = { path: this.getPath(e), type: this.getType(e), expr: e, computedSize: undefined };
    const est = this.opts.sizeEstimator?.(node);
    if (est) {
      this.computedSizes.set(e.id, est);
      return est;
    }
    if (isScalar(this.getType(e))) return fixed(1n);
    if (e.kind === 'ident') {
      const v = this.peekLocal(e.name);
      if (v?.size) return v.size;
    }
    return undefined;
  }

  private computeEntrySize(e: Expr): EntrySize | undefined {
    const known = this.computedEntrySizes.get(e.id);
    if (known) return known;
    if (e.kind === 'ident') return this.peekLocal(e.name)?.entrySize;
    return undefined;
  }

  private pushIter(name: string, range: Expr, which: 'key' | 'value' | 'single'): void {
    const entry = this.computeEntrySize(range);
    const container = entry?.container ?? kindOf(this.getType(range));
    const path = this.getPath(range);
    let size: SizeEstimate | undefined;
    let sub: string;
    if (which === 'key') {
      size = entry?.key;
      sub = container === 'list' ? '@indices' : '@keys';
    } else if (which === 'value') {
      size = entry?.val;
      sub = container === 'list' ? '@items' : '@values';
    } else if (container === 'list') {
      size = entry?.val;
      sub = '@items';
    } else {
      size = entry?.key;
      sub = '@keys';
    }
    this.pushLocal(name, { path: [...(path ?? []), sub], size, entrySize: undefined });
  }

  private pushLocalVar(name: string, e: Expr): void {
    this.pushLocal(name, { path: this.getPath(e), size: this.computeSize(e), entrySize: this.computeEntrySize(e) });
  }

  private pushLocal(name: string, v: LocalVar): void {
    const stack = this.localVars.get(name);
    if (stack) stack.push(v);
    else this.localVars.set(name, [v]);
  }

  private peekLocal(name: string): LocalVar | undefined {
    const stack = this.localVars.get(name);
    return stack && stack.length ? stack[stack.length - 1] : undefined;
  }

  private popLocal(name: string): void {
    this.localVars.get(name)?.pop();
  }
}

function withResult(cost: CostEstimate, resultSize: SizeEstimate | undefined): CallEstimate {
  return resultSize ? { ...cost, resultSize } : cost;
}

function unionEntry(a: EntrySize, b: EntrySize): EntrySize {
  return { container: a.container, key: union(a.key, b.key), val: union(a.val, b.val) };
}

/** cel.bind's expansion: an empty range, a constant-false condition, a named accumulator. */
function isBind(e: Extract<Expr, { kind: 'comprehension' }>): boolean {
  return (
    e.iterRange.kind === 'list' &&
    e.iterRange.elements.length === 0 &&
    e.loopCondition.kind === 'const' &&
    e.loopCondition.value.kind === 'bool' &&
    e.loopCondition.value.value === false &&
    e.accuVar !== ACCUMULATOR_NAME
  );
}

/** Sizes fixed by the expression itself: literals and list/map literals. */
function computeExprSize(e: Expr): SizeEstimate | undefined {
  switch (e.kind) {
    case 'const':
      switch (e.value.kind) {
        case 'string':
          return fixed(BigInt(Array.from(e.value.value).length));
        case 'bytes':
          return fixed(BigInt(e.value.value.length));
        default:
          return fixed(1n);
      }
    case 'list':
      return fixed(BigInt(e.elements.length));
    case 'map':
      return fixed(BigInt(e.entries.length));
    default:
      return undefined;
  }
}

/** Types of a fixed size (strings, bytes, any and dyn are not). */
function isScalar(t: Type): boolean {
  switch (kindOf(t)) {
    case 'bool':
    case 'double':
    case 'duration':
    case 'int':
    case 'timestamp':
    case 'uint':
      return true;
    case 'opaque':
      return typeName(t) === 'optional_type' && isScalar(typeParams(t)[0]!);
  }
  return false;
}
