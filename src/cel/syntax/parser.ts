/**
 * The CEL parser: a hand-written recursive-descent port of cel-go's ANTLR grammar (parser/gen/CEL.g4)
 * and visitor (parser/parser.go, parser/helper.go). It builds the AST directly, allocating node ids in
 * the same order as cel-go's visitor so ids, positions and macro expansions match cel-go's, and
 * reports errors with cel-go's wording: ANTLR-style syntax errors (`mismatched input`, `extraneous
 * input`, `no viable alternative`, `token recognition error`) with ANTLR's single-token recovery, and
 * the visitor's errors (literals, reserved identifiers, macros, unsupported syntax).
 *
 * Hostile input ends in an error: nesting is bounded by maxRecursionDepth (cel-go's two checks, the
 * grammar-rule depth and the visitor depth), error recovery by attempt and lookahead limits.
 */
import type { Constant, Expr, MapEntry, ParsedExpr, SourceInfo, StructField } from './ast.ts';
import { CelSource, Issues } from '../common/issues.ts';
import { Lexer, T as Tok, TOKEN_DISPLAY, antlrEscape, codePoints, type Token } from './lexer.ts';
import { unescape } from './unescape.ts';
import {
  ACCUMULATOR_NAME, ALL_MACROS, HIDDEN_ACCUMULATOR_NAME, macroKey, type Macro, type MacroError, type MacroHelper,
} from './macros.ts';

export interface ParseOptions {
  /** Source description printed in errors; default `<input>`. */
  description?: string;
  /** true (default): every macro Kubernetes enables (ALL_MACROS); false: none; or an explicit list. */
  macros?: boolean | readonly Macro[];
  /** `a.?b`, `a[?b]`, `[?a]`, `{?k: v}`, `T{?f: v}`; default true. */
  enableOptionalSyntax?: boolean;
  /** Back-quoted field names (`` a.`b-c` ``); default true as cel-go. */
  enableIdentEscapeSyntax?: boolean;
  /**
   * Default 250 (cel-go's); -1 means as deep as the JS stack safely allows (HARD_DEPTH_LIMIT).
   * Values out of cel-go's range (here and below) make the parse fail with cel-go's option error.
   */
  maxRecursionDepth?: number;
  /** Default 100_000 code points; -1 means unlimited; at least -1. */
  expressionSizeCodePointLimit?: number;
  /** Accumulator `@result` (true, default) or `__result__`. */
  enableHiddenAccumulatorName?: boolean;
  /** Syntax errors reported before giving up; default 100; at least 1. */
  errorReportingLimit?: number;
  /**
   * cel-go's EnableVariadicOperatorASTs (default false): a chain `a && b && c` becomes one `_&&_`
   * call with every term as an argument (id of the first operator) instead of a balanced tree.
   */
  enableVariadicOperatorASTs?: boolean;
  /** Error-recovery attempts before giving up; default 30, -1 unlimited; at least -1. */
  errorRecoveryLimit?: number;
  /** Tokens one recovery may skip; default 256; at least 1. */
  errorRecoveryLookaheadTokenLimit?: number;
}

export interface ParseResult {
  /** Present when the parse succeeded (no issues). */
  parsed?: ParsedExpr;
  issues: Issues;
}

// A module-local copy: reading an imported binding goes through a getter on every access.
type T = Tok;
const T = Tok;

const RESERVED = new Set([
  'as', 'break', 'const', 'continue', 'else', 'false', 'for', 'function', 'if', 'import', 'in', 'let',
  'loop', 'package', 'namespace', 'null', 'return', 'true', 'var', 'void', 'while',
]);

const UNLIMITED = 0x7fffffff;
/**
 * Beyond this many nested expressions the JS stack, not the option, would be the limit (a default
 * Node stack holds about 430 nested calls `f(f(...))`): stop first. A stack that still runs out (a
 * caller already deep in its own stack) is caught and reported as the same error.
 */
export const HARD_DEPTH_LIMIT = 400;

// ---- token sets (ANTLR expected/follow sets), as sorted arrays of token types ----

type TokenSet = readonly T[];
const EXPR_START: TokenSet = [
  T.LBRACKET, T.LBRACE, T.LPAREN, T.DOT, T.MINUS, T.EXCLAM, T.CEL_TRUE, T.CEL_FALSE, T.NUL, T.NUM_FLOAT,
  T.NUM_INT, T.NUM_UINT, T.STRING, T.BYTES, T.IDENTIFIER,
];
const MEMBER_START: TokenSet = EXPR_START.filter((t) => t !== T.EXCLAM);
const set = (...ts: T[]): TokenSet => [...new Set(ts)].sort((a, b) => a - b);
const LIST_OPEN = set(...EXPR_START, T.QUESTIONMARK, T.COMMA, T.RPRACKET);
const MAP_OPEN = set(...EXPR_START, T.QUESTIONMARK, T.COMMA, T.RBRACE);
const MSG_OPEN = set(T.RBRACE, T.COMMA, T.QUESTIONMARK, T.IDENTIFIER, T.ESC_IDENTIFIER);
const OPT_FIELD = set(T.QUESTIONMARK, T.IDENTIFIER, T.ESC_IDENTIFIER);
const ESC_IDENT = set(T.IDENTIFIER, T.ESC_IDENTIFIER);
const LIST_CLOSE = set(T.COMMA, T.RPRACKET);
const MAP_CLOSE = set(T.COMMA, T.RBRACE);
const RELOPS = set(T.LESS, T.LESS_EQUALS, T.GREATER_EQUALS, T.GREATER, T.EQUALS, T.NOT_EQUALS, T.IN);
const CALCOPS = set(T.STAR, T.SLASH, T.PERCENT, T.PLUS, T.MINUS);
const F_EOF = set(T.EOF);
const F_QUESTION = set(T.QUESTIONMARK);
const F_COLON = set(T.COLON);
const F_OR = set(T.LOGICAL_OR);
const F_AND = set(T.LOGICAL_AND);
const F_MEMBER = set(T.DOT, T.LBRACKET);
const F_RPAREN = set(T.RPAREN);
const F_RBRACKET = set(T.RPRACKET);
const F_COMMA = set(T.COMMA);
const F_ARGS = set(T.COMMA, T.RPAREN);
const F_LIST_ELEM = set(T.COMMA, T.RPRACKET);
const F_MAP_VALUE = set(T.COMMA, T.RBRACE);
const EMPTY: TokenSet = [];

const RELOP_FN: Partial<Record<T, string>> = {
  [T.LESS]: '_<_', [T.LESS_EQUALS]: '_<=_', [T.GREATER_EQUALS]: '_>=_', [T.GREATER]: '_>_',
  [T.EQUALS]: '_==_', [T.NOT_EQUALS]: '_!=_', [T.IN]: '@in',
};
const CALC_FN: Partial<Record<T, string>> = {
  [T.STAR]: '_*_', [T.SLASH]: '_/_', [T.PERCENT]: '_%_', [T.PLUS]: '_+_', [T.MINUS]: '_-_',
};

function displaySet(s: TokenSet): string {
  if (s.length === 1) return TOKEN_DISPLAY[s[0]!]!;
  return '{' + s.map((t) => TOKEN_DISPLAY[t]).join(', ') + '}';
}

function tokenDisplay(t: Token): string {
  return t.type === T.EOF ? "'<EOF>'" : `'${antlrEscape(t.text)}'`;
}

/** Thrown to abandon the whole parse (cel-go's panics: limits exceeded). */
class Abort {
  constructor(readonly internal?: string) {}
}
/** Thrown to unwind to the innermost rule (ANTLR's RecognitionException). */
class Recognition {}
const RECOGNITION = new Recognition();

const MIN_INT = -(1n << 63n);
const MAX_INT = (1n << 63n) - 1n;
const MAX_UINT = (1n << 64n) - 1n;

/**
 * Parses a CEL expression. Never throws: problems are returned as issues (printed as cel-go prints
 * them); `parsed` is set only when there are none.
 */
export function parse(source: string, opts: ParseOptions = {}): ParseResult {
  const description = opts.description ?? '<input>';
  const src = new CelSource(source, description);
  const issues = new Issues(src);
  try {
    return parseInto(source, opts, src, issues);
  } catch (e) {
    // the caller's own stack was nearly exhausted before parsing began
    if (!(e instanceof RangeError)) throw e;
    issues.report(-1, `expression recursion limit exceeded: ${Math.min(normLimit(opts.maxRecursionDepth, 250), HARD_DEPTH_LIMIT)}`);
    return { issues };
  }
}

/**
 * cel-go's option checks (NewParser's errors, parser/options.go): a value out of range is a
 * configuration error, reported here as the parse's only issue. An omitted option (undefined) takes
 * the default; an explicit 0 means the default where cel-go's does.
 */
function optionError(o: ParseOptions): string | undefined {
  if (below(o.maxRecursionDepth, -1)) return `max recursion depth must be greater than or equal to -1: ${o.maxRecursionDepth}`;
  if (below(o.errorRecoveryLookaheadTokenLimit, 1)) {
    return `error recovery lookahead token limit must be at least 1: ${o.errorRecoveryLookaheadTokenLimit}`;
  }
  if (below(o.errorRecoveryLimit, -1)) return `error recovery limit must be greater than or equal to -1: ${o.errorRecoveryLimit}`;
  if (below(o.errorReportingLimit, 1)) return `error reporting limit must be at least 1: ${o.errorReportingLimit}`;
  if (below(o.expressionSizeCodePointLimit, -1)) {
    return `expression size code point limit must be greater than or equal to -1: ${o.expressionSizeCodePointLimit}`;
  }
  return undefined;
}

function below(v: number | undefined, min: number): boolean {
  return v !== undefined && v < min;
}

function parseInto(source: string, opts: ParseOptions, src: CelSource, issues: Issues): ParseResult {
  const bad = optionError(opts);
  if (bad) {
    issues.report(-1, bad);
    return { issues };
  }
  const limit = normLimit(opts.expressionSizeCodePointLimit, 100_000);
  const cps = codePoints(source);
  if (cps.length > limit) {
    issues.report(-1, `expression code point size exceeds limit: size: ${cps.length}, limit ${limit}`);
    return { issues };
  }
  const p = new Parser(source, cps, opts, src);
  const expr = p.run(issues);
  if (issues.hasErrors() || !expr) return { issues };
  const sourceInfo: SourceInfo = {
    source,
    description: src.description,
    lineOffsets: src.lineStarts.slice(),
    positions: p.positions,
    macroCalls: p.macroCalls,
  };
  return { parsed: { expr, sourceInfo }, issues };
}

function normLimit(v: number | undefined, dflt: number): number {
  if (v === undefined || v === 0) return dflt;
  if (v < 0) return UNLIMITED;
  return v;
}

function macroTable(m: ParseOptions['macros']): Map<string, Macro> {
  const list = m === undefined || m === true ? ALL_MACROS : m === false ? [] : m;
  const out = new Map<string, Macro>();
  for (const mac of list) out.set(macroKey(mac.name, mac.argCount, mac.receiver), mac);
  return out;
}

const macroCache = new WeakMap<object, Map<string, Macro>>();
let defaultMacros: Map<string, Macro> | undefined;

function macrosFor(m: ParseOptions['macros']): Map<string, Macro> {
  if (m === undefined || m === true) return (defaultMacros ??= macroTable(true));
  if (m === false) return macroTable(false);
  let t = macroCache.get(m);
  if (!t) macroCache.set(m, (t = macroTable(m)));
  return t;
}

class Parser {
  readonly positions = new Map<number, number>();
  readonly macroCalls = new Map<number, Expr>();
  readonly accuName: string;

  private readonly lexer: Lexer;
  private readonly toks: Token[] = [];
  private p = 0;
  private nextId = 1;
  private readonly macros: Map<string, Macro>;
  private readonly optional: boolean;
  private readonly escapeIdents: boolean;
  private readonly variadicLogic: boolean;
  private readonly maxDepth: number;
  private readonly reportLimit: number;
  private readonly recoveryLimit: number;
  private readonly lookaheadLimit: number;

  private issues!: Issues;
  /** Syntax errors (lexer and parser), reported as they happen. */
  private errorReports = 0;
  /** Errors cel-go's visitor would report; dropped when the parse is abandoned. */
  private readonly visitErrors: { offset: number; message: string; id: number }[] = [];
  private errorRecoveryMode = false;
  private lastErrorIndex = -1;
  private recoveryAttempts = 0;
  /** Follow sets of the rule invocations in progress (ANTLR's error recovery set). */
  private readonly follow: TokenSet[] = [];
  private exprDepth = 0;
  /** Nesting of grammar rules other than expr: [unused, relation, calc]. */
  private readonly ruleDepth = [0, 0, 0];
  /** Visitor depth (cel-go's checkAndIncrementRecursionDepth) of the last expression built. */
  private vd = 0;
  private visitDepthExceeded = false;

  constructor(text: string, cps: Uint32Array, opts: ParseOptions, private readonly src: CelSource) {
    this.lexer = new Lexer(text, cps, (offset, message) => this.syntaxError(offset, message));
    this.macros = macrosFor(opts.macros);
    this.optional = opts.enableOptionalSyntax ?? true;
    this.escapeIdents = opts.enableIdentEscapeSyntax ?? true;
    this.variadicLogic = opts.enableVariadicOperatorASTs ?? false;
    this.accuName = opts.enableHiddenAccumulatorName === false ? ACCUMULATOR_NAME : HIDDEN_ACCUMULATOR_NAME;
    // -1 (unlimited in cel-go) is bounded here by what the JS stack safely holds
    this.maxDepth = Math.min(normLimit(opts.maxRecursionDepth, 250), HARD_DEPTH_LIMIT);
    this.reportLimit = opts.errorReportingLimit && opts.errorReportingLimit > 0 ? opts.errorReportingLimit : 100;
    this.recoveryLimit = normLimit(opts.errorRecoveryLimit, 30);
    this.lookaheadLimit = normLimit(opts.errorRecoveryLookaheadTokenLimit, 256);
  }

  run(issues: Issues): Expr | undefined {
    this.issues = issues;
    let expr: Expr | undefined;
    try {
      expr = this.start();
    } catch (e) {
      if (e instanceof Abort) {
        if (e.internal) issues.report(-1, e.internal);
        return undefined;
      }
      if (e instanceof RangeError) {
        issues.report(-1, `expression recursion limit exceeded: ${this.maxDepth}`);
        return undefined;
      }
      throw e;
    }
    if (this.visitDepthExceeded) {
      issues.report(-1, 'max recursion depth exceeded');
      return undefined;
    }
    for (const v of this.visitErrors) issues.report(v.offset, v.message, v.id);
    return expr;
  }

  // ---------------------------------------------------------------- tokens

  private LT(k: number): Token {
    const i = this.p + k - 1;
    const toks = this.toks;
    while (toks.length <= i) {
      const last = toks[toks.length - 1];
      if (last && last.type === T.EOF) return last;
      toks.push(this.lexer.next());
    }
    return toks[i]!;
  }

  private LA(k: number): T {
    return this.LT(k).type;
  }

  private consume(): Token {
    const t = this.LT(1);
    if (t.type !== T.EOF) this.p++;
    return t;
  }

  // ---------------------------------------------------------------- ids and nodes

  private id(offset: number): number {
    const id = this.nextId++;
    this.positions.set(id, offset);
    return id;
  }

  private deleteId(id: number): void {
    this.positions.delete(id);
    if (id === this.nextId - 1) this.nextId--;
  }

  private errorExpr(offset: number): Expr {
    // not an ident or select, so macros reject it as cel-go's unspecified expression
    return { id: this.id(offset), kind: 'call', fn: '<<error>>', args: [] };
  }

  /** A visitor-phase error (cel-go's reportError): allocates an id at `offset`, as cel-go does. */
  private visitError(offset: number, message: string): Expr {
    const e = this.errorExpr(offset);
    this.visitErrors.push({ offset, message, id: e.id });
    return e;
  }

  // ---------------------------------------------------------------- error reporting (ANTLR strategy)

  private syntaxError(offset: number, message: string): void {
    if (this.errorReports < this.reportLimit) {
      this.errorReports++;
      this.issues.report(offset, 'Syntax error: ' + message);
      return;
    }
    this.issues.report(offset, `Syntax error: More than ${this.reportLimit} syntax errors`);
    throw new Abort();
  }

  /** Reports a recognition error unless already recovering (ANTLR's reportError). */
  private report(offset: number, message: string): void {
    if (this.errorRecoveryMode) return;
    this.errorRecoveryMode = true;
    this.syntaxError(offset, message);
  }

  private mismatch(expected: TokenSet): never {
    const t = this.LT(1);
    this.report(t.start, `mismatched input ${tokenDisplay(t)} expecting ${displaySet(expected)}`);
    throw RECOGNITION;
  }

  private noViable(start: Token, offending: Token): never {
    let text: string;
    if (start.type === T.EOF) text = '<EOF>';
    else {
      let stop = start.stop;
      for (let i = start.index; i <= offending.index && i < this.toks.length; i++) {
        const t = this.toks[i]!;
        if (t.type !== T.EOF) stop = t.stop;
      }
      text = antlrEscape(this.lexer.slice(start.start, stop));
    }
    let msg = `no viable alternative at input '${text}'`;
    // cel-go rewrites a reserved word after a dot into a clearer message
    const m = /^no viable alternative at input '.(true|false|null)'/.exec(msg);
    if (m) msg = msg.replace(m[0], `mismatched input '${m[1]}' expecting IDENTIFIER`);
    this.report(offending.start, msg);
    throw RECOGNITION;
  }

  private checkAttempts(): void {
    if (this.recoveryAttempts === this.recoveryLimit) {
      this.recoveryAttempts++;
      this.syntaxError(this.LT(1).start, `error recovery attempt limit exceeded: ${this.recoveryLimit}`);
      throw new Abort();
    }
    this.recoveryAttempts++;
  }

  /** Consumes a token during recovery, bounded by the lookahead limit. */
  private recoveryConsume(budget: { n: number }): void {
    if (budget.n >= this.lookaheadLimit) {
      throw new Abort(`error recovery token lookahead limit exceeded: ${this.lookaheadLimit}`);
    }
    budget.n++;
    this.consume();
  }

  /** ANTLR's recover(): skip to a token some enclosing rule can continue with. */
  private recover(base: number): void {
    this.follow.length = base;
    this.checkAttempts();
    const budget = { n: 0 };
    if (this.lastErrorIndex === this.p && this.LA(1) !== T.EOF) this.recoveryConsume(budget);
    this.lastErrorIndex = this.p;
    const stop = new Set<T>();
    for (const s of this.follow) for (const t of s) stop.add(t);
    stop.add(T.EOF);
    while (!stop.has(this.LA(1))) this.recoveryConsume(budget);
  }

  /** Matches a token, with ANTLR's single-token deletion and insertion. `after`: what may follow it. */
  private match(type: T, after: TokenSet | 'end'): Token {
    const t = this.LT(1);
    if (t.type === type) {
      this.errorRecoveryMode = false;
      return this.consume();
    }
    this.checkAttempts();
    if (this.LA(2) === type) {
      if (!this.errorRecoveryMode) {
        this.errorRecoveryMode = true;
        this.syntaxError(t.start, `extraneous input ${tokenDisplay(t)} expecting ${TOKEN_DISPLAY[type]}`);
      }
      this.recoveryConsume({ n: 0 });
      this.errorRecoveryMode = false;
      return this.consume();
    }
    if (this.canFollow(t.type, after)) {
      if (!this.errorRecoveryMode) {
        this.errorRecoveryMode = true;
        this.syntaxError(t.start, `missing ${TOKEN_DISPLAY[type]} at ${tokenDisplay(t)}`);
      }
      return { type, start: t.start, stop: t.start, text: '', index: t.index };
    }
    return this.mismatch([type]);
  }

  private canFollow(type: T, after: TokenSet | 'end'): boolean {
    if (after !== 'end') return after.includes(type);
    if (type === T.EOF) return true;
    for (const s of this.follow) if (s.includes(type)) return true;
    return false;
  }

  /** ANTLR's sync() before a block whose alternatives cannot be empty. */
  private sync(expected: TokenSet): void {
    if (this.errorRecoveryMode) return;
    const la = this.LA(1);
    if (expected.includes(la)) return;
    if (expected.includes(this.LA(2))) {
      const t = this.LT(1);
      this.errorRecoveryMode = true;
      this.syntaxError(t.start, `extraneous input ${tokenDisplay(t)} expecting ${displaySet(expected)}`);
      this.consume();
      this.errorRecoveryMode = false;
      return;
    }
    this.mismatch(expected);
  }

  /** ANTLR's sync at a loop-back: report the unwanted token and skip to what may follow. */
  private loopBackSync(): void {
    if (this.errorRecoveryMode) return;
    const t = this.LT(1);
    this.errorRecoveryMode = true;
    this.syntaxError(t.start, `extraneous input ${tokenDisplay(t)} expecting ${displaySet(EXPR_START)}`);
    const stop = new Set<T>(EXPR_START);
    for (const f of this.follow) for (const x of f) stop.add(x);
    stop.add(T.EOF);
    while (!stop.has(this.LA(1))) this.consume();
  }

  // ---------------------------------------------------------------- grammar

  private start(): Expr {
    const base = this.follow.length;
    this.follow.push(F_EOF);
    const e = this.expr();
    this.follow.length = base;
    try {
      this.match(T.EOF, EMPTY);
    } catch (err) {
      if (err !== RECOGNITION) throw err;
      this.recover(base);
    }
    return e;
  }

  /** expr: conditionalOr ('?' conditionalOr ':' expr)? */
  private expr(): Expr {
    if (++this.exprDepth > this.maxDepth) {
      throw new Abort(`expression recursion limit exceeded: ${this.maxDepth}`);
    }
    const base = this.follow.length;
    try {
      this.follow.push(F_QUESTION);
      const cond = this.conditionalOr();
      this.follow.length = base;
      if (this.LA(1) !== T.QUESTIONMARK) return cond;
      const cd = this.vd;
      const q = this.consume();
      this.errorRecoveryMode = false;
      const opId = this.id(q.start);
      this.follow.push(F_COLON);
      const t = this.conditionalOr();
      const td = this.vd;
      this.follow.length = base;
      this.match(T.COLON, EXPR_START);
      const f = this.expr();
      this.setDepth(Math.max(cd, td, this.vd) + 1);
      return this.globalCallOrMacro(opId, '_?_:_', undefined, [cond, t, f]);
    } catch (err) {
      if (err !== RECOGNITION) throw err;
      this.recover(base);
      return this.errorExpr(this.LT(1).start);
    } finally {
      this.exprDepth--;
    }
  }

  private setDepth(d: number): void {
    this.vd = d;
    if (d > this.maxDepth) this.visitDepthExceeded = true;
  }

  private conditionalOr(): Expr {
    return this.logical(T.LOGICAL_OR, '_||_', F_OR);
  }

  private conditionalAnd(): Expr {
    return this.logical(T.LOGICAL_AND, '_&&_', F_AND);
  }

  /**
   * A chain of `||` or `&&`, built as cel-go's logicManager does: a balanced tree, or one variadic
   * call carrying the first operator's id (the other operators' ids stay allocated, as in cel-go).
   */
  private logical(op: T, fn: string, follow: TokenSet): Expr {
    const or = op === T.LOGICAL_OR;
    this.follow.push(follow);
    const first = or ? this.conditionalAnd() : this.relation();
    this.follow.pop();
    if (this.LA(1) !== op) return first;
    let depth = this.vd;
    const terms = [first];
    const ops: number[] = [];
    while (this.LA(1) === op) {
      const t = this.consume();
      this.errorRecoveryMode = false;
      this.follow.push(follow);
      terms.push(or ? this.conditionalAnd() : this.relation());
      this.follow.pop();
      depth = Math.max(depth, this.vd);
      ops.push(this.id(t.start));
    }
    this.vd = depth;
    if (this.variadicLogic) return { id: ops[0]!, kind: 'call', fn, args: terms };
    return balanced(terms, ops, fn, 0, ops.length - 1);
  }

  /** relation: calc (relop calc)*, left associative. */
  private relation(): Expr {
    this.enterRule(1);
    try {
      return this.relationBody();
    } finally {
      this.ruleDepth[1]--;
    }
  }

  /**
   * cel-go's recursionListener counts nested invocations of each grammar rule; a relation or calc
   * operand on the right of an operator is one more nested invocation of that rule.
   */
  private enterRule(rule: number): void {
    if (++this.ruleDepth[rule]! > this.maxDepth) {
      throw new Abort(`expression recursion limit exceeded: ${this.maxDepth}`);
    }
  }

  private relationBody(): Expr {
    this.follow.push(RELOPS);
    let lhs = this.calc(0);
    this.follow.pop();
    let ld = this.vd;
    for (;;) {
      const fn = RELOP_FN[this.LA(1)];
      if (!fn) return lhs;
      const t = this.consume();
      this.errorRecoveryMode = false;
      const opId = this.id(t.start);
      this.enterRule(1);
      let rhs: Expr;
      try {
        this.follow.push(RELOPS);
        rhs = this.calc(0);
        this.follow.pop();
      } finally {
        this.ruleDepth[1]--;
      }
      this.setDepth(Math.max(ld, this.vd) + 1);
      ld = this.vd;
      lhs = this.globalCallOrMacro(opId, fn, undefined, [lhs, rhs]);
      this.vd = ld;
    }
  }

  /** calc: precedence climbing over `* / %` (2) and `+ -` (1). */
  private calc(minPrec: number): Expr {
    this.enterRule(2);
    try {
      return this.calcBody(minPrec);
    } finally {
      this.ruleDepth[2]--;
    }
  }

  private calcBody(minPrec: number): Expr {
    this.follow.push(CALCOPS);
    let lhs = this.unary();
    this.follow.pop();
    let ld = this.vd;
    for (;;) {
      const la = this.LA(1);
      const fn = CALC_FN[la];
      if (!fn) return lhs;
      const prec = la === T.PLUS || la === T.MINUS ? 1 : 2;
      if (prec < minPrec) return lhs;
      const t = this.consume();
      this.errorRecoveryMode = false;
      const opId = this.id(t.start);
      this.follow.push(CALCOPS);
      const rhs = this.calc(prec + 1);
      this.follow.pop();
      this.setDepth(Math.max(ld, this.vd) + 1);
      ld = this.vd;
      lhs = this.globalCallOrMacro(opId, fn, undefined, [lhs, rhs]);
      this.vd = ld;
    }
  }

  /** unary: member | '!'+ member | '-'+ member (a single '-' before a number is a negative literal). */
  private unary(): Expr {
    const base = this.follow.length;
    try {
      this.sync(EXPR_START);
      const la = this.LA(1);
      if (la === T.EXCLAM) {
        const first = this.LT(1);
        let n = 0;
        while (this.LA(1) === T.EXCLAM) {
          this.consume();
          this.errorRecoveryMode = false;
          n++;
        }
        if (!MEMBER_START.includes(this.LA(1))) this.loopBackSync();
        if (n % 2 === 0) return this.member();
        const opId = this.id(first.start);
        const operand = this.member();
        return this.globalCallOrMacro(opId, '!_', undefined, [operand]);
      }
      if (la === T.MINUS) {
        const la2 = this.LA(2);
        if (la2 === T.NUM_INT || la2 === T.NUM_FLOAT) return this.member();
        const first = this.LT(1);
        // ANTLR predicts the '-'+ loop with full lookahead: the run of '-' must end at a member
        let k = 1;
        while (this.LA(k + 1) === T.MINUS) k++;
        if (!MEMBER_START.includes(this.LA(k + 1))) {
          if (k === 1) this.noViable(first, this.LT(2));
          this.consume();
          this.errorRecoveryMode = false;
          this.noViable(this.LT(1), this.LT(k));
        }
        for (let i = 0; i < k; i++) this.consume();
        this.errorRecoveryMode = false;
        if (k % 2 === 0) return this.member();
        const opId = this.id(first.start);
        const operand = this.member();
        return this.globalCallOrMacro(opId, '-_', undefined, [operand]);
      }
      return this.member();
    } catch (err) {
      if (err !== RECOGNITION) throw err;
      this.recover(base);
      this.vd = 0;
      return this.errorExpr(this.LT(1).start);
    }
  }

  /** member: primary ('.' '?'? ident | '.' ident '(' args ')' | '[' '?'? expr ']')* */
  private member(): Expr {
    const base = this.follow.length;
    let operand: Expr;
    try {
      this.follow.push(F_MEMBER);
      operand = this.primary();
      this.follow.pop();
    } catch (err) {
      if (err !== RECOGNITION) throw err;
      this.recover(base);
      this.vd = 0;
      return this.errorExpr(this.LT(1).start);
    }
    try {
      for (;;) {
        const la = this.LA(1);
        if (la === T.DOT) {
          operand = this.memberDot(operand);
        } else if (la === T.LBRACKET) {
          const od = this.vd;
          const open = this.consume();
          this.errorRecoveryMode = false;
          const opId = this.id(open.start);
          let opt = false;
          if (this.LA(1) === T.QUESTIONMARK) {
            this.consume();
            opt = true;
          }
          this.follow.push(F_RBRACKET);
          const index = this.expr();
          this.follow.pop();
          // after ']' the member loop may continue, or member ends
          this.follow.push(F_MEMBER);
          this.match(T.RPRACKET, 'end');
          this.follow.pop();
          this.setDepth(Math.max(od, this.vd) + 1);
          const d = this.vd;
          if (opt && !this.optional) {
            operand = this.visitError(open.start, "unsupported syntax '[?'");
          } else {
            operand = this.globalCallOrMacro(opId, opt ? '_[?_]' : '_[_]', undefined, [operand, index]);
          }
          this.vd = d;
        } else {
          return operand;
        }
      }
    } catch (err) {
      if (err !== RECOGNITION) throw err;
      this.recover(base);
      return operand;
    }
  }

  private memberDot(operand: Expr): Expr {
    const od = this.vd;
    const dot = this.LT(1);
    const la2 = this.LA(2);
    let opt = false;
    let idTok: Token;
    if (la2 === T.QUESTIONMARK) {
      const la3 = this.LA(3);
      if (la3 !== T.IDENTIFIER && la3 !== T.ESC_IDENTIFIER) this.noViable(dot, this.LT(3));
      this.consume();
      this.consume();
      opt = true;
      idTok = this.consume();
    } else if (la2 === T.IDENTIFIER || la2 === T.ESC_IDENTIFIER) {
      this.consume();
      idTok = this.consume();
    } else {
      return this.noViable(dot, this.LT(2));
    }
    this.errorRecoveryMode = false;
    if (!opt && idTok.type === T.IDENTIFIER && this.LA(1) === T.LPAREN) {
      // receiver call
      const open = this.consume();
      const opId = this.id(open.start);
      const args = this.args(F_MEMBER);
      this.setDepth(Math.max(od, this.vd) + 1);
      const d = this.vd;
      const r = this.receiverCallOrMacro(opId, idTok.text, operand, args);
      this.vd = d;
      return r;
    }
    let field = idTok.text;
    if (idTok.type === T.ESC_IDENTIFIER) {
      if (!this.escapeIdents) {
        this.visitError(idTok.start, "unsupported syntax: '`'");
        field = '';
      } else field = field.slice(1, -1);
    }
    this.setDepth(od + 1);
    if (opt) {
      if (!this.optional) return this.visitError(dot.start, "unsupported syntax '.?'");
      const lit = this.literalExpr(idTok.start, { kind: 'string', value: field });
      const callId = this.id(dot.start);
      return { id: callId, kind: 'call', fn: '_?._', args: [operand, lit] };
    }
    return { id: this.id(dot.start), kind: 'select', operand, field, testOnly: false };
  }

  /** `(` already consumed: exprList? `)`. Leaves the max depth of the arguments in vd. */
  private args(localAfter?: TokenSet): Expr[] {
    const args: Expr[] = [];
    let d = 0;
    if (this.LA(1) !== T.RPAREN) {
      this.follow.push(F_RPAREN);
      for (;;) {
        this.follow.push(F_COMMA);
        args.push(this.expr());
        this.follow.pop();
        d = Math.max(d, this.vd);
        if (this.LA(1) !== T.COMMA) break;
        this.consume();
        this.errorRecoveryMode = false;
      }
      this.follow.pop();
    }
    if (localAfter) this.follow.push(localAfter);
    this.match(T.RPAREN, 'end');
    if (localAfter) this.follow.pop();
    this.vd = d;
    return args;
  }

  /** primary is a rule of its own: its failures recover with member's follow set still in place. */
  private primary(): Expr {
    const base = this.follow.length;
    try {
      return this.primaryBody();
    } catch (err) {
      if (err !== RECOGNITION) throw err;
      this.recover(base);
      this.vd = 0;
      return this.errorExpr(this.LT(1).start);
    }
  }

  private primaryBody(): Expr {
    const t = this.LT(1);
    switch (t.type) {
      case T.DOT:
      case T.IDENTIFIER:
        return this.identOrCall();
      case T.LPAREN: {
        this.consume();
        this.errorRecoveryMode = false;
        this.follow.push(F_RPAREN);
        const e = this.expr();
        this.follow.pop();
        const d = this.vd;
        this.match(T.RPAREN, 'end');
        this.vd = d;
        return e;
      }
      case T.LBRACKET:
        return this.list();
      case T.LBRACE:
        return this.mapLiteral();
      case T.MINUS:
      case T.NUM_INT:
      case T.NUM_UINT:
      case T.NUM_FLOAT:
      case T.STRING:
      case T.BYTES:
      case T.CEL_TRUE:
      case T.CEL_FALSE:
      case T.NUL:
        this.vd = 0;
        return this.literal();
    }
    return this.noViable(t, t);
  }

  private identOrCall(): Expr {
    const first = this.LT(1);
    let leadingDot = false;
    if (first.type === T.DOT) {
      if (this.LA(2) !== T.IDENTIFIER) this.noViable(first, this.LT(2));
      leadingDot = true;
    }
    // CreateMessage: '.'? IDENT ('.' IDENT)* '{'
    let k = leadingDot ? 2 : 1;
    for (;;) {
      if (this.LA(k + 1) === T.DOT && this.LA(k + 2) === T.IDENTIFIER) k += 2;
      else break;
    }
    if (this.LA(k + 1) === T.LBRACE) return this.message(leadingDot, k);
    if (leadingDot) this.consume();
    const idTok = this.consume();
    this.errorRecoveryMode = false;
    const name = (leadingDot ? '.' : '') + idTok.text;
    if (this.LA(1) === T.LPAREN) {
      const open = this.consume();
      if (RESERVED.has(idTok.text)) {
        // cel-go reports the name without visiting the arguments
        const mark = this.visitErrors.length;
        this.args();
        this.visitErrors.length = mark;
        this.vd = 0;
        return this.visitError(first.start, `reserved identifier: ${idTok.text}`);
      }
      const opId = this.id(open.start);
      const args = this.args();
      const d = this.vd;
      const r = this.globalCallOrMacro(opId, name, undefined, args);
      this.vd = d;
      return r;
    }
    this.vd = 0;
    if (RESERVED.has(idTok.text)) return this.visitError(first.start, `reserved identifier: ${idTok.text}`);
    return { id: this.id(idTok.start), kind: 'ident', name };
  }

  private message(leadingDot: boolean, k: number): Expr {
    let name = '';
    if (leadingDot) this.consume();
    for (let i = leadingDot ? 1 : 0; i < k; i += 2) {
      const t = this.consume();
      name += name ? '.' + t.text : t.text;
      if (i + 1 < k) this.consume();
    }
    if (leadingDot) name = '.' + name;
    const open = this.consume();
    this.errorRecoveryMode = false;
    const objId = this.id(open.start);
    const fields: StructField[] = [];
    let d = 0;
    this.sync(MSG_OPEN);
    if (this.LA(1) !== T.RBRACE && this.LA(1) !== T.COMMA) {
      const base = this.follow.length;
      this.follow.push(MAP_CLOSE);
      const listStart = this.LT(1).start;
      try {
        for (;;) {
          this.follow.push(F_COLON);
          const f = this.optField();
          this.follow.pop();
          const col = this.match(T.COLON, EXPR_START);
          const colId = this.id(col.start);
          this.follow.push(F_COMMA);
          const value = this.expr();
          this.follow.pop();
          d = Math.max(d, this.vd);
          if (f.optional && !this.optional) {
            this.visitError(f.tok.start, "unsupported syntax '?'");
          } else if (f.tok.type === T.ESC_IDENTIFIER && !this.escapeIdents) {
            this.visitError(listStart, "unsupported syntax: '`'");
          } else {
            fields.push({ id: colId, name: f.name, value, optional: f.optional });
          }
          if (this.LA(1) !== T.COMMA || !OPT_FIELD.includes(this.LA(2))) break;
          this.consume();
          this.errorRecoveryMode = false;
        }
      } catch (err) {
        if (err !== RECOGNITION) throw err;
        this.recover(base + 1);
      }
      this.follow.length = base;
    }
    this.optionalComma(MAP_CLOSE);
    this.match(T.RBRACE, 'end');
    this.vd = d;
    return { id: objId, kind: 'struct', typeName: name, fields };
  }

  private optField(): { name: string; optional: boolean; tok: Token } {
    let optTok: Token | undefined;
    const base = this.follow.length;
    try {
      this.sync(OPT_FIELD);
      if (this.LA(1) === T.QUESTIONMARK) {
        optTok = this.consume();
        this.errorRecoveryMode = false;
      }
    } catch (err) {
      if (err !== RECOGNITION) throw err;
      this.recover(base);
      return { name: '', optional: false, tok: this.LT(1) };
    }
    // escapeIdent is a rule of its own: a failure there leaves the field in place, as in ANTLR
    let tok = this.LT(1);
    try {
      this.sync(ESC_IDENT);
      tok = this.LT(1);
      if (tok.type !== T.IDENTIFIER && tok.type !== T.ESC_IDENTIFIER) this.mismatch(ESC_IDENT);
      this.consume();
      this.errorRecoveryMode = false;
    } catch (err) {
      if (err !== RECOGNITION) throw err;
      this.recover(base);
      return { name: '', optional: optTok !== undefined, tok: optTok ?? tok };
    }
    const name = tok.type === T.ESC_IDENTIFIER ? tok.text.slice(1, -1) : tok.text;
    return { name, optional: optTok !== undefined, tok: optTok ?? tok };
  }

  /** The `','?` before a closing bracket. */
  private optionalComma(expected: TokenSet): void {
    this.sync(expected);
    if (this.LA(1) === T.COMMA) {
      this.consume();
      this.errorRecoveryMode = false;
    }
  }

  private list(): Expr {
    const open = this.consume();
    this.errorRecoveryMode = false;
    const listId = this.id(open.start);
    const elements: Expr[] = [];
    const optionalIndices: number[] = [];
    let d = 0;
    this.sync(LIST_OPEN);
    if (this.LA(1) !== T.RPRACKET && this.LA(1) !== T.COMMA) {
      const base = this.follow.length;
      this.follow.push(LIST_CLOSE);
      try {
        for (;;) {
          let optTok: Token | undefined;
          if (this.LA(1) === T.QUESTIONMARK) {
            optTok = this.consume();
            this.errorRecoveryMode = false;
          }
          this.follow.push(F_COMMA);
          elements.push(this.expr());
          this.follow.pop();
          d = Math.max(d, this.vd);
          if (optTok) {
            if (!this.optional) this.visitError(optTok.start, "unsupported syntax '?'");
            else optionalIndices.push(elements.length - 1);
          }
          if (this.LA(1) !== T.COMMA) break;
          const la2 = this.LA(2);
          if (!EXPR_START.includes(la2) && la2 !== T.QUESTIONMARK) break;
          this.consume();
          this.errorRecoveryMode = false;
        }
      } catch (err) {
        if (err !== RECOGNITION) throw err;
        this.recover(base + 1);
      }
      this.follow.length = base;
    }
    this.optionalComma(LIST_CLOSE);
    this.match(T.RPRACKET, 'end');
    this.vd = d;
    return { id: listId, kind: 'list', elements, optionalIndices };
  }

  private mapLiteral(): Expr {
    const open = this.consume();
    this.errorRecoveryMode = false;
    const mapId = this.id(open.start);
    const entries: MapEntry[] = [];
    let d = 0;
    this.sync(MAP_OPEN);
    if (this.LA(1) !== T.RBRACE && this.LA(1) !== T.COMMA) {
      const base = this.follow.length;
      this.follow.push(MAP_CLOSE);
      try {
        for (;;) {
          let optTok: Token | undefined;
          if (this.LA(1) === T.QUESTIONMARK) {
            optTok = this.consume();
            this.errorRecoveryMode = false;
          }
          // cel-go allocates the entry id (at the colon) before visiting the key
          const colId = this.id(-1);
          this.follow.push(F_COLON);
          const key = this.expr();
          this.follow.pop();
          const kd = this.vd;
          const col = this.match(T.COLON, EXPR_START);
          this.positions.set(colId, col.start);
          this.follow.push(F_COMMA);
          const value = this.expr();
          this.follow.pop();
          d = Math.max(d, kd, this.vd);
          if (optTok && !this.optional) {
            this.visitError(optTok.start, "unsupported syntax '?'");
          } else {
            entries.push({ id: colId, key, value, optional: optTok !== undefined });
          }
          if (this.LA(1) !== T.COMMA) break;
          const la2 = this.LA(2);
          if (!EXPR_START.includes(la2) && la2 !== T.QUESTIONMARK) break;
          this.consume();
          this.errorRecoveryMode = false;
        }
      } catch (err) {
        if (err !== RECOGNITION) throw err;
        this.recover(base + 1);
      }
      this.follow.length = base;
    }
    this.optionalComma(MAP_CLOSE);
    this.match(T.RBRACE, 'end');
    this.vd = d;
    return { id: mapId, kind: 'map', entries };
  }

  private literalExpr(offset: number, value: Constant): Expr {
    return { id: this.id(offset), kind: 'const', value };
  }

  private literal(): Expr {
    const first = this.consume();
    this.errorRecoveryMode = false;
    let tok = first;
    let neg = false;
    if (first.type === T.MINUS) {
      tok = this.consume();
      neg = true;
    }
    const at = first.start;
    switch (tok.type) {
      case T.NUM_INT: {
        // BigInt reads both decimal and 0x-prefixed text
        let v = BigInt(tok.text);
        if (neg) v = -v;
        if (v < MIN_INT || v > MAX_INT) return this.visitError(at, 'invalid int literal');
        return this.literalExpr(at, { kind: 'int', value: v });
      }
      case T.NUM_UINT: {
        const v = BigInt(tok.text.slice(0, -1));
        if (v > MAX_UINT) return this.visitError(at, 'invalid uint literal');
        return this.literalExpr(at, { kind: 'uint', value: v });
      }
      case T.NUM_FLOAT: {
        let v = Number(tok.text);
        if (!Number.isFinite(v)) return this.visitError(at, 'invalid double literal');
        if (neg) v = -v;
        return this.literalExpr(at, { kind: 'double', value: v });
      }
      case T.STRING: {
        const r = unescape(tok.text, false);
        if (!r.ok) {
          this.visitError(at, r.error);
          return this.literalExpr(at, { kind: 'string', value: tok.text });
        }
        return this.literalExpr(at, { kind: 'string', value: r.value as string });
      }
      case T.BYTES: {
        const r = unescape(tok.text.slice(1), true);
        if (!r.ok) {
          this.visitError(at, r.error);
          return this.literalExpr(at, { kind: 'bytes', value: new TextEncoder().encode(tok.text.slice(1)) });
        }
        return this.literalExpr(at, { kind: 'bytes', value: r.value as Uint8Array });
      }
      case T.CEL_TRUE:
        return this.literalExpr(at, { kind: 'bool', value: true });
      case T.CEL_FALSE:
        return this.literalExpr(at, { kind: 'bool', value: false });
      case T.NUL:
        return this.literalExpr(at, { kind: 'null' });
    }
    return this.noViable(first, tok);
  }

  // ---------------------------------------------------------------- macros

  private globalCallOrMacro(id: number, fn: string, target: Expr | undefined, args: Expr[]): Expr {
    const expanded = this.expandMacro(id, fn, target, args);
    if (expanded) return expanded;
    return { id, kind: 'call', fn, args };
  }

  private receiverCallOrMacro(id: number, fn: string, target: Expr, args: Expr[]): Expr {
    const expanded = this.expandMacro(id, fn, target, args);
    if (expanded) return expanded;
    return { id, kind: 'call', fn, target, args };
  }

  private expandMacro(id: number, fn: string, target: Expr | undefined, args: Expr[]): Expr | undefined {
    if (this.macros.size === 0) return undefined;
    const receiver = target !== undefined;
    const macro = this.macros.get(macroKey(fn, args.length, receiver)) ?? this.macros.get(macroKey(fn, '*', receiver));
    if (!macro) return undefined;
    const out = macro.expand(new MacroBuilder(this, this.positions.get(id) ?? -1, this.accuName), target, args);
    if (out === undefined) return undefined;
    if ('error' in out) {
      const offset = this.positions.get(out.exprId) ?? this.positions.get(id) ?? -1;
      this.deleteId(id);
      return this.visitError(offset, out.error);
    }
    const call: Expr = target
      ? { id: 0, kind: 'call', fn, target, args }
      : { id: 0, kind: 'call', fn, args };
    this.macroCalls.set(out.id, call);
    this.deleteId(id);
    return out;
  }

  /** Allocates an id at an offset (used by macro expansion). */
  newId(offset: number): number {
    return this.id(offset);
  }
}

/** cel-go's exprHelper: builds expansion nodes, each with a fresh id positioned at the macro call. */
class MacroBuilder implements MacroHelper {
  constructor(
    private readonly parser: Parser,
    private readonly at: number,
    readonly accuName: string,
  ) {}
  private nid(): number {
    return this.parser.newId(this.at);
  }
  ident(name: string): Expr {
    return { id: this.nid(), kind: 'ident', name };
  }
  accuIdent(): Expr {
    return { id: this.nid(), kind: 'ident', name: this.accuName };
  }
  literal(value: Constant): Expr {
    return { id: this.nid(), kind: 'const', value };
  }
  list(...elements: Expr[]): Expr {
    return { id: this.nid(), kind: 'list', elements, optionalIndices: [] };
  }
  map(): Expr {
    return { id: this.nid(), kind: 'map', entries: [] };
  }
  call(fn: string, ...args: Expr[]): Expr {
    return { id: this.nid(), kind: 'call', fn, args };
  }
  memberCall(fn: string, target: Expr, ...args: Expr[]): Expr {
    return { id: this.nid(), kind: 'call', fn, target, args };
  }
  presenceTest(operand: Expr, field: string): Expr {
    return { id: this.nid(), kind: 'select', operand, field, testOnly: true };
  }
  select(operand: Expr, field: string): Expr {
    return { id: this.nid(), kind: 'select', operand, field, testOnly: false };
  }
  copy(e: Expr): Expr {
    const id = this.parser.newId(this.parser.positions.get(e.id) ?? 0);
    switch (e.kind) {
      case 'const':
        return { id, kind: 'const', value: e.value };
      case 'ident':
        return { id, kind: 'ident', name: e.name };
      case 'select':
        return { id, kind: 'select', operand: this.copy(e.operand), field: e.field, testOnly: e.testOnly };
      case 'call': {
        const args = e.args.map((a) => this.copy(a));
        if (!e.target) return { id, kind: 'call', fn: e.fn, args };
        return { id, kind: 'call', fn: e.fn, target: this.copy(e.target), args };
      }
      case 'list':
        return { id, kind: 'list', elements: e.elements.map((a) => this.copy(a)), optionalIndices: [...e.optionalIndices] };
      case 'map':
        return {
          id, kind: 'map',
          entries: e.entries.map((en) => {
            const entryId = this.nid();
            return { id: entryId, key: this.copy(en.key), value: this.copy(en.value), optional: en.optional };
          }),
        };
      case 'struct':
        return {
          id, kind: 'struct', typeName: e.typeName,
          fields: e.fields.map((f) => {
            const fieldId = this.nid();
            return { id: fieldId, name: f.name, value: this.copy(f.value), optional: f.optional };
          }),
        };
      case 'comprehension': {
        const iterRange = this.copy(e.iterRange);
        const accuInit = this.copy(e.accuInit);
        const loopCondition = this.copy(e.loopCondition);
        const loopStep = this.copy(e.loopStep);
        const result = this.copy(e.result);
        return {
          id, kind: 'comprehension', iterRange, iterVar: e.iterVar, iterVar2: e.iterVar2, accuVar: e.accuVar,
          accuInit, loopCondition, loopStep, result,
        };
      }
    }
  }
  comprehension(
    iterRange: Expr, iterVar: string, iterVar2: string, accuVar: string, accuInit: Expr,
    loopCondition: Expr, loopStep: Expr, result: Expr,
  ): Expr {
    return {
      id: this.nid(), kind: 'comprehension', iterRange, iterVar, iterVar2, accuVar, accuInit, loopCondition,
      loopStep, result,
    };
  }
  error(exprId: number, message: string): MacroError {
    return { error: message, exprId };
  }
}

function balanced(terms: Expr[], ops: number[], fn: string, lo: number, hi: number): Expr {
  const mid = (lo + hi + 1) >> 1;
  const left = mid === lo ? terms[mid]! : balanced(terms, ops, fn, lo, mid - 1);
  const right = mid === hi ? terms[mid + 1]! : balanced(terms, ops, fn, mid + 1, hi);
  return { id: ops[mid]!, kind: 'call', fn, args: [left, right] };
}
