/**
 * Turns a parsed CEL AST back into source text, as cel-go's parser/unparser.go does: minimal
 * parentheses by operator precedence, macros printed from SourceInfo.macroCalls, strings quoted as
 * Go quotes them, bytes as octal escapes, and optional wrapping of long lines after chosen operators.
 * Variadic `&&`/`||` chains print all their terms (cel-go's unparser drops all but the first two).
 */
import type { Constant, Expr, SourceInfo } from './ast.ts';
import { goQuote } from './debug.ts';

export interface UnparseOptions {
  /** Wrap once a line reaches this many bytes (default 80; must be >= 1). */
  wrapOnColumn?: number;
  /** Operator function names to wrap on (default `_&&_`, `_||_`); binary or ternary only. */
  wrapOnOperators?: string[];
  /** Put the operator before the line break (default true) or after it. */
  wrapAfterColumnLimit?: boolean;
}

interface OpInfo {
  display: string;
  precedence: number;
  arity: number;
}

/** cel-go's operators.operatorMap. */
const OPS: Record<string, OpInfo> = {
  '_?_:_': { display: '', precedence: 8, arity: 3 },
  '_||_': { display: '||', precedence: 7, arity: 2 },
  '_&&_': { display: '&&', precedence: 6, arity: 2 },
  '_==_': { display: '==', precedence: 5, arity: 2 },
  '_>_': { display: '>', precedence: 5, arity: 2 },
  '_>=_': { display: '>=', precedence: 5, arity: 2 },
  '@in': { display: 'in', precedence: 5, arity: 2 },
  '_<_': { display: '<', precedence: 5, arity: 2 },
  '_<=_': { display: '<=', precedence: 5, arity: 2 },
  '_!=_': { display: '!=', precedence: 5, arity: 2 },
  '_in_': { display: 'in', precedence: 5, arity: 2 },
  '_+_': { display: '+', precedence: 4, arity: 2 },
  '_-_': { display: '-', precedence: 4, arity: 2 },
  '_/_': { display: '/', precedence: 3, arity: 2 },
  '_%_': { display: '%', precedence: 3, arity: 2 },
  '_*_': { display: '*', precedence: 3, arity: 2 },
  '!_': { display: '!', precedence: 2, arity: 1 },
  '-_': { display: '-', precedence: 2, arity: 1 },
  '_[_]': { display: '', precedence: 1, arity: 2 },
  '_[?_]': { display: '', precedence: 1, arity: 2 },
  '_?._': { display: '', precedence: 1, arity: 2 },
};

const BINARY = new Set([
  '_+_', '_/_', '_==_', '_>_', '_>=_', '@in', '_<_', '_<=_', '_&&_', '_||_', '_%_', '_*_', '_!=_', '_in_', '_-_',
]);

function precedence(fn: string): number {
  return OPS[fn]?.precedence ?? 0;
}

function binaryDisplay(fn: string): string | undefined {
  const op = OPS[fn];
  return op && op.arity === 2 && op.display ? op.display : undefined;
}

/**
 * Unparses an expression. Throws an Error (cel-go's messages) for invalid options or a node that
 * cannot be printed (a comprehension with no recorded macro call).
 */
export function unparse(expr: Expr, info?: Pick<SourceInfo, 'macroCalls'>, opts: UnparseOptions = {}): string {
  const col = opts.wrapOnColumn ?? 80;
  if (col < 1) {
    throw new Error(`Invalid unparser option. Wrap column value must be greater than or equal to 1. Got ${col} instead`);
  }
  let wrapOps = new Set(['_&&_', '_||_']);
  if (opts.wrapOnOperators) {
    wrapOps = new Set();
    for (const s of opts.wrapOnOperators) {
      const op = OPS[s];
      if (!op) throw new Error(`Invalid unparser option. Unsupported operator: ${s}`);
      if (op.arity < 2) throw new Error(`Invalid unparser option. Unary operators are unsupported: ${s}`);
      wrapOps.add(s);
    }
  }
  const u = new Unparser(info?.macroCalls ?? new Map(), col, wrapOps, opts.wrapAfterColumnLimit ?? true);
  u.visit(expr);
  return u.out;
}

const IDENT_PART = /^[A-Za-z_][0-9A-Za-z_]*$/;

function maybeQuoteField(f: string): string {
  return !IDENT_PART.test(f) || f === 'in' ? '`' + f + '`' : f;
}

function isCall(e: Expr): e is Extract<Expr, { kind: 'call' }> {
  return e.kind === 'call';
}
function isSamePrecedence(op: string, e: Expr): boolean {
  return isCall(e) && precedence(op) === precedence(e.fn);
}
function isComplexOperator(e: Expr): boolean {
  return isCall(e) && e.args.length >= 2;
}
function isComplexOperatorWithRespectTo(op: string, e: Expr): boolean {
  return isCall(e) && e.args.length >= 2 && precedence(op) < precedence(e.fn);
}
function isBinaryOrTernaryOperator(e: Expr): boolean {
  if (!isCall(e) || e.args.length < 2) return false;
  return binaryDisplay(e.fn) !== undefined || isSamePrecedence('_?_:_', e);
}

class Unparser {
  out = '';
  private bytes = 0;
  private lastWrapped = 0;

  constructor(
    private readonly macroCalls: Map<number, Expr>,
    private readonly wrapOnColumn: number,
    private readonly wrapOps: Set<string>,
    private readonly wrapAfter: boolean,
  ) {}

  private w(s: string): void {
    this.out += s;
    this.bytes += Buffer.byteLength(s);
  }

  visit(e: Expr): void {
    const macro = e.id !== 0 ? this.macroCalls.get(e.id) : undefined;
    if (macro) {
      this.visit(macro);
      return;
    }
    switch (e.kind) {
      case 'call':
        return this.visitCall(e);
      case 'const':
        return this.w(formatConst(e.value));
      case 'ident':
        return this.w(e.name);
      case 'list':
        this.w('[');
        e.elements.forEach((el, i) => {
          if (e.optionalIndices.includes(i)) this.w('?');
          this.visit(el);
          if (i < e.elements.length - 1) this.w(', ');
        });
        return this.w(']');
      case 'map':
        this.w('{');
        e.entries.forEach((en, i) => {
          if (en.optional) this.w('?');
          this.visit(en.key);
          this.w(': ');
          this.visit(en.value);
          if (i < e.entries.length - 1) this.w(', ');
        });
        return this.w('}');
      case 'struct':
        this.w(e.typeName);
        this.w('{');
        e.fields.forEach((f, i) => {
          if (f.optional) this.w('?');
          this.w(maybeQuoteField(f.name));
          this.w(': ');
          this.visit(f.value);
          if (i < e.fields.length - 1) this.w(', ');
        });
        return this.w('}');
      case 'select':
        return this.visitSelect(e.operand, e.testOnly, '.', e.field);
      case 'comprehension':
        throw new Error(`unsupported expression: comprehension ${e.id}`);
    }
  }

  private nested(e: Expr, nested: boolean): void {
    if (nested) this.w('(');
    this.visit(e);
    if (nested) this.w(')');
  }

  private visitSelect(operand: Expr, testOnly: boolean, op: string, field: string): void {
    if (testOnly) this.w('has(');
    this.nested(operand, !testOnly && isBinaryOrTernaryOperator(operand));
    this.w(op);
    this.w(maybeQuoteField(field));
    if (testOnly) this.w(')');
  }

  private visitCall(e: Extract<Expr, { kind: 'call' }>): void {
    const { fn, args } = e;
    switch (fn) {
      case '_?_:_': {
        if (args.length !== 3) throw new Error('unsupported expression');
        const nest = (x: Expr): boolean => isSamePrecedence('_?_:_', x) || isComplexOperator(x);
        this.nested(args[0]!, nest(args[0]!));
        this.operator(fn, '?');
        this.nested(args[1]!, nest(args[1]!));
        this.w(' : ');
        this.nested(args[2]!, nest(args[2]!));
        return;
      }
      case '_?._': {
        const f = args[1];
        if (!f || f.kind !== 'const' || f.value.kind !== 'string') throw new Error('unsupported expression');
        this.visitSelect(args[0]!, false, '.?', f.value.value);
        return;
      }
      case '_[_]':
      case '_[?_]':
        if (args.length !== 2) throw new Error('unsupported expression');
        this.nested(args[0]!, isBinaryOrTernaryOperator(args[0]!));
        this.w(fn === '_[_]' ? '[' : '[?');
        this.visit(args[1]!);
        this.w(']');
        return;
      case '!_':
      case '-_':
        if (args.length !== 1) throw new Error('unsupported expression');
        this.w(OPS[fn]!.display);
        this.nested(args[0]!, isComplexOperator(args[0]!));
        return;
    }
    if ((fn === '_&&_' || fn === '_||_') && args.length > 2) {
      // A variadic chain (EnableVariadicOperatorASTs). cel-go's unparser prints only its first two
      // terms; every term is printed here, which parses back to the same chain.
      args.forEach((a, i) => {
        if (i > 0) this.operator(fn, binaryDisplay(fn)!);
        this.nested(a, isComplexOperatorWithRespectTo(fn, a));
      });
      return;
    }
    if (BINARY.has(fn)) {
      if (args.length !== 2) throw new Error('unsupported expression');
      const [lhs, rhs] = args as [Expr, Expr];
      const lhsParen = isComplexOperatorWithRespectTo(fn, lhs);
      let rhsParen = isComplexOperatorWithRespectTo(fn, rhs);
      if (!rhsParen && fn !== '_&&_' && fn !== '_||_') rhsParen = isSamePrecedence(fn, rhs);
      this.nested(lhs, lhsParen);
      this.operator(fn, binaryDisplay(fn)!);
      this.nested(rhs, rhsParen);
      return;
    }
    if (e.target) {
      this.nested(e.target, isBinaryOrTernaryOperator(e.target));
      this.w('.');
    }
    this.w(fn);
    this.w('(');
    args.forEach((a, i) => {
      this.visit(a);
      if (i < args.length - 1) this.w(', ');
    });
    this.w(')');
  }

  private operator(fn: string, display: string): void {
    const lineLength = this.bytes - this.lastWrapped + fn.length;
    if (this.wrapOps.has(fn) && lineLength >= this.wrapOnColumn) {
      this.lastWrapped = this.bytes;
      if (this.wrapAfter) this.w(` ${display}\n`);
      else this.w(`\n${display} `);
      return;
    }
    this.w(` ${display} `);
  }
}

/** A constant as cel-go's unparser writes it. */
function formatConst(c: Constant): string {
  switch (c.kind) {
    case 'bool':
      return String(c.value);
    case 'bytes': {
      let s = 'b"';
      for (const b of c.value) s += '\\' + b.toString(8).padStart(3, '0');
      return s + '"';
    }
    case 'double': {
      const d = formatGoG(c.value);
      return /[.eE]/.test(d) ? d : d + '.0';
    }
    case 'int':
      return c.value.toString();
    case 'null':
      return 'null';
    case 'string':
      return goQuote(c.value);
    case 'uint':
      return c.value.toString() + 'u';
  }
}

/** Go's strconv.FormatFloat(v, 'g', -1, 64): shortest digits, exponent form when exp < -4 or exp >= 6. */
function formatGoG(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mant, expStr] = v.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  const digits = mant.replace('-', '').replace('.', '');
  // shortest 'g' switches to %e when exp < -4 or exp >= 6
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' + abs : abs}`;
  }
  const neg = mant.startsWith('-');
  let s: string;
  if (exp >= digits.length - 1) s = digits + '0'.repeat(exp - digits.length + 1);
  else if (exp >= 0) s = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  else s = '0.' + '0'.repeat(-exp - 1) + digits;
  return (neg ? '-' : '') + s;
}
