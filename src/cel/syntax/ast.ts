/**
 * The CEL abstract syntax tree, shaped like cel-go's `ast.Expr` (and cel.expr.Expr): every node has
 * a unique numeric id; source positions live beside the tree in a SourceInfo keyed by id, so that
 * the checker, the cost estimator and the planner can attach facts to nodes by id.
 *
 * Macros (has, all, exists, exists_one, map, filter, cel.bind, two-variable comprehensions, and the
 * opt-in sortBy and math.greatest/least) are expanded by the parser into `comprehension`,
 * `select`-with-testOnly and internal-call nodes, as cel-go does; the
 * original call is kept in SourceInfo.macroCalls for error messages and unparsing.
 */

export type Constant =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: bigint }
  | { kind: 'uint'; value: bigint }
  | { kind: 'double'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'bytes'; value: Uint8Array };

export type Expr =
  | { id: number; kind: 'const'; value: Constant }
  | { id: number; kind: 'ident'; name: string }
  /** `operand.field`; testOnly marks the `has(operand.field)` macro; optional marks `operand.?field`
   * (cel-go parses `a.?b` into a call of `_?._`; we keep the call form, see `call`). */
  | { id: number; kind: 'select'; operand: Expr; field: string; testOnly: boolean }
  /** A function call; `target` is set for receiver-style calls (`x.f(y)`). Operators are calls
   * with their cel-go names (`_+_`, `_==_`, `_[_]`, `!_`, `-_`, `_?_:_`, `_&&_`, `_||_`, `@in`,
   * `_?._`, `_[?_]`, `@not_strictly_false`). */
  | { id: number; kind: 'call'; fn: string; target?: Expr; args: Expr[] }
  /** `[a, b, ?c]`: optionalIndices lists the positions written with `?`. */
  | { id: number; kind: 'list'; elements: Expr[]; optionalIndices: number[] }
  /** `{k: v, ?k2: v2}` */
  | { id: number; kind: 'map'; entries: MapEntry[] }
  /** `Type{field: value}` message construction. */
  | { id: number; kind: 'struct'; typeName: string; fields: StructField[] }
  | {
      id: number;
      kind: 'comprehension';
      iterRange: Expr;
      iterVar: string;
      /** Second iteration variable of two-variable comprehensions ('' when absent). */
      iterVar2: string;
      accuVar: string;
      accuInit: Expr;
      loopCondition: Expr;
      loopStep: Expr;
      result: Expr;
    };

export interface MapEntry {
  id: number;
  key: Expr;
  value: Expr;
  optional: boolean;
}

export interface StructField {
  id: number;
  name: string;
  value: Expr;
  optional: boolean;
}

/** Where each node came from. Offsets are in code points of the source text. */
export interface SourceInfo {
  /** The expression text. */
  source: string;
  /** Description used in error messages (`<input>`). */
  description: string;
  /** Code-point offsets at which each line starts (line 1 starts at 0). */
  lineOffsets: number[];
  /** Node id -> code-point offset in source. */
  positions: Map<number, number>;
  /** Comprehension node id -> the macro call it expanded from. */
  macroCalls: Map<number, Expr>;
}

export interface ParsedExpr {
  expr: Expr;
  sourceInfo: SourceInfo;
}

/** Line and column (both 1-based; column counts code points, as cel-go prints them). */
export function locationOf(info: SourceInfo, offset: number): { line: number; column: number } {
  let line = 1;
  for (let i = 1; i < info.lineOffsets.length; i++) {
    if (info.lineOffsets[i]! > offset) break;
    line = i + 1;
  }
  const column = offset - info.lineOffsets[line - 1]! + 1;
  return { line, column };
}

/**
 * A deep copy of `e` (constants' byte arrays shared: nothing mutates them). The checker rewrites
 * the tree it checks; this is several times cheaper than structuredClone on compile's path.
 */
export function cloneExpr(e: Expr): Expr {
  switch (e.kind) {
    case 'const':
      return { id: e.id, kind: 'const', value: { ...e.value } };
    case 'ident':
      return { id: e.id, kind: 'ident', name: e.name };
    case 'select':
      return { id: e.id, kind: 'select', operand: cloneExpr(e.operand), field: e.field, testOnly: e.testOnly };
    case 'call':
      return e.target !== undefined
        ? { id: e.id, kind: 'call', fn: e.fn, target: cloneExpr(e.target), args: e.args.map(cloneExpr) }
        : { id: e.id, kind: 'call', fn: e.fn, args: e.args.map(cloneExpr) };
    case 'list':
      return { id: e.id, kind: 'list', elements: e.elements.map(cloneExpr), optionalIndices: [...e.optionalIndices] };
    case 'map':
      return { id: e.id, kind: 'map', entries: e.entries.map((x) => ({ id: x.id, key: cloneExpr(x.key), value: cloneExpr(x.value), optional: x.optional })) };
    case 'struct':
      return { id: e.id, kind: 'struct', typeName: e.typeName, fields: e.fields.map((x) => ({ id: x.id, name: x.name, value: cloneExpr(x.value), optional: x.optional })) };
    case 'comprehension':
      return {
        id: e.id,
        kind: 'comprehension',
        iterRange: cloneExpr(e.iterRange),
        iterVar: e.iterVar,
        iterVar2: e.iterVar2,
        accuVar: e.accuVar,
        accuInit: cloneExpr(e.accuInit),
        loopCondition: cloneExpr(e.loopCondition),
        loopStep: cloneExpr(e.loopStep),
        result: cloneExpr(e.result),
      };
  }
}
