/**
 * A debug printer for CEL ASTs, the same text as cel-go's common/debug (ToDebugString and
 * ToAdornedDebugString): tests compare trees, ids and positions with it, and it prints literals as Go
 * prints them (strconv.Quote for strings and bytes, %v for doubles).
 */
import type { Constant, Expr, MapEntry, StructField } from './ast.ts';

/** A node as the printer sees it: an AST node or a placeholder standing for a nested macro call. */
export type DebugNode = Expr | { id: number; kind: 'unspecified' };

/** Returns the text appended after each node (and after each map entry / struct field). */
export type Adorner = (node: DebugNode | MapEntry | StructField, isEntry: boolean) => string;

const noAdorner: Adorner = () => '';

/** cel-go's ToDebugString / ToAdornedDebugString. */
export function toDebugString(e: DebugNode, adorner: Adorner = noAdorner): string {
  const w = new Writer(adorner);
  w.buffer(e);
  return w.out;
}

class Writer {
  out = '';
  private indent = 0;
  private lineStart = true;
  constructor(private readonly adorner: Adorner) {}

  private append(s: string): void {
    if (this.lineStart) {
      this.lineStart = false;
      this.out += '  '.repeat(this.indent);
    }
    this.out += s;
  }
  private line(): void {
    this.out += '\n';
    this.lineStart = true;
  }

  buffer(e: DebugNode): void {
    switch (e.kind) {
      case 'unspecified':
        break;
      case 'const':
        this.append(formatConstant(e.value));
        break;
      case 'ident':
        this.append(e.name);
        break;
      case 'select':
        this.buffer(e.operand);
        this.append('.');
        this.append(e.field);
        if (e.testOnly) this.append('~test-only~');
        break;
      case 'call':
        if (e.target) {
          this.buffer(e.target);
          this.append('.');
        }
        this.append(e.fn);
        this.append('(');
        if (e.args.length > 0) {
          this.indent++;
          this.line();
          e.args.forEach((a, i) => {
            if (i > 0) {
              this.append(',');
              this.line();
            }
            this.buffer(a);
          });
          this.indent--;
          this.line();
        }
        this.append(')');
        break;
      case 'list':
        this.append('[');
        if (e.elements.length > 0) {
          this.line();
          this.indent++;
          e.elements.forEach((a, i) => {
            if (i > 0) {
              this.append(',');
              this.line();
            }
            this.buffer(a);
          });
          this.indent--;
          this.line();
        }
        this.append(']');
        break;
      case 'struct':
        this.append(e.typeName);
        this.append('{');
        if (e.fields.length > 0) {
          this.line();
          this.indent++;
          e.fields.forEach((f, i) => {
            if (i > 0) {
              this.append(',');
              this.line();
            }
            if (f.optional) this.append('?');
            this.append(f.name);
            this.append(':');
            this.buffer(f.value);
            this.append(this.adorner(f, true));
          });
          this.indent--;
          this.line();
        }
        this.append('}');
        break;
      case 'map':
        this.append('{');
        if (e.entries.length > 0) {
          this.line();
          this.indent++;
          e.entries.forEach((en, i) => {
            if (i > 0) {
              this.append(',');
              this.line();
            }
            if (en.optional) this.append('?');
            this.buffer(en.key);
            this.append(':');
            this.buffer(en.value);
            this.append(this.adorner(en, true));
          });
          this.indent--;
          this.line();
        }
        this.append('}');
        break;
      case 'comprehension':
        this.append('__comprehension__(');
        this.indent++;
        this.line();
        this.append('// Variable');
        this.line();
        this.append(e.iterVar);
        this.append(',');
        this.line();
        if (e.iterVar2) {
          this.append(e.iterVar2);
          this.append(',');
          this.line();
        }
        this.append('// Target');
        this.line();
        this.buffer(e.iterRange);
        this.append(',');
        this.line();
        this.append('// Accumulator');
        this.line();
        this.append(e.accuVar);
        this.append(',');
        this.line();
        this.append('// Init');
        this.line();
        this.buffer(e.accuInit);
        this.append(',');
        this.line();
        this.append('// LoopCondition');
        this.line();
        this.buffer(e.loopCondition);
        this.append(',');
        this.line();
        this.append('// LoopStep');
        this.line();
        this.buffer(e.loopStep);
        this.append(',');
        this.line();
        this.append('// Result');
        this.line();
        this.buffer(e.result);
        this.append(')');
        this.indent--;
        break;
    }
    this.append(this.adorner(e, false));
  }
}

/** A constant as cel-go's debug printer formats it. */
export function formatConstant(c: Constant): string {
  switch (c.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return String(c.value);
    case 'int':
      return c.value.toString();
    case 'uint':
      return c.value.toString() + 'u';
    case 'double':
      return formatGoFloat(c.value);
    case 'string':
      return goQuote(c.value);
    case 'bytes':
      return 'b' + goQuoteBytes(c.value);
  }
}

/** Go's %v for a float64: shortest digits, exponent form when exp < -4 or exp >= 21. */
export function formatGoFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mant, expStr] = v.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  if (exp < -4 || exp >= 21) {
    const sign = exp < 0 ? '-' : '+';
    const abs = Math.abs(exp);
    return `${mant}e${sign}${abs < 10 ? '0' + abs : abs}`;
  }
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  let s: string;
  if (exp >= digits.length - 1) s = digits + '0'.repeat(exp - digits.length + 1);
  else if (exp >= 0) s = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  else s = '0.' + '0'.repeat(-exp - 1) + digits;
  return (neg ? '-' : '') + s;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

function quoteRune(cp: number, out: string[]): void {
  const ch = String.fromCodePoint(cp);
  switch (cp) {
    case 7: out.push('\\a'); return;
    case 8: out.push('\\b'); return;
    case 12: out.push('\\f'); return;
    case 10: out.push('\\n'); return;
    case 13: out.push('\\r'); return;
    case 9: out.push('\\t'); return;
    case 11: out.push('\\v'); return;
    case 0x22: out.push('\\"'); return;
    case 0x5c: out.push('\\\\'); return;
  }
  if (cp === 0x20 || PRINTABLE.test(ch)) {
    out.push(ch);
    return;
  }
  if (cp < 0x20 || cp === 0x7f) out.push('\\x' + cp.toString(16).padStart(2, '0'));
  else if (cp < 0x10000) out.push('\\u' + cp.toString(16).padStart(4, '0'));
  else out.push('\\U' + cp.toString(16).padStart(8, '0'));
}

/** Go's strconv.Quote of a (valid UTF-16) string. */
export function goQuote(s: string): string {
  const out: string[] = ['"'];
  for (const ch of s) quoteRune(ch.codePointAt(0)!, out);
  out.push('"');
  return out.join('');
}

/** Go's strconv.Quote of a byte string: valid UTF-8 runs as characters, other bytes as \xNN. */
export function goQuoteBytes(b: Uint8Array): string {
  const out: string[] = ['"'];
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let cp = -1;
    let size = 1;
    if (c < 0x80) cp = c;
    else if (c >= 0xc2 && c < 0xe0 && i + 1 < b.length && (b[i + 1]! & 0xc0) === 0x80) {
      cp = ((c & 0x1f) << 6) | (b[i + 1]! & 0x3f);
      size = 2;
    } else if (c >= 0xe0 && c < 0xf0 && i + 2 < b.length && (b[i + 1]! & 0xc0) === 0x80 && (b[i + 2]! & 0xc0) === 0x80) {
      cp = ((c & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
      size = 3;
      if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) cp = -1;
    } else if (c >= 0xf0 && c < 0xf5 && i + 3 < b.length && (b[i + 1]! & 0xc0) === 0x80 && (b[i + 2]! & 0xc0) === 0x80 && (b[i + 3]! & 0xc0) === 0x80) {
      cp = ((c & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f);
      size = 4;
      if (cp < 0x10000 || cp > 0x10ffff) cp = -1;
    }
    if (cp < 0) {
      out.push('\\x' + c.toString(16).padStart(2, '0'));
      i++;
      continue;
    }
    quoteRune(cp, out);
    i += size;
  }
  out.push('"');
  return out.join('');
}
