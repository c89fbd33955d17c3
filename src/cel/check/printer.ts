/**
 * Prints a checked expression as cel-go's `checker.Print` does (the debug form of the tree, each
 * node adorned with `~type` and `^reference`), e.g. `_+_(1~int, 2~int)~int^add_int64`. Used to
 * compare the checker against cel-go's own tables, which ignore whitespace.
 */
import type { Constant, Expr } from '../syntax/ast.ts';
import type { CheckedExpr } from './checker.ts';
import { formatType } from './types.ts';

/** The adorned debug string of a checked expression (cel-go's checker.Print). */
export function printChecked(checked: CheckedExpr): string {
  const w = new DebugWriter((id) => adornment(checked, id));
  w.buffer(checked.expr);
  return w.toString();
}

function adornment(checked: CheckedExpr, id: number): string {
  let result = '';
  const t = checked.typeMap.get(id);
  if (t) result += '~' + formatType(t);
  const ref = checked.referenceMap.get(id);
  if (ref) {
    if (ref.overloadIds.length === 0) result += '^' + (ref.name ?? '');
    else result += '^' + [...ref.overloadIds].sort().join('|');
  }
  return result;
}

class DebugWriter {
  private out = '';
  private indent = 0;
  private lineStart = true;

  constructor(private readonly adorn: (id: number) => string) {}

  buffer(e: Expr): void {
    switch (e.kind) {
      case 'const':
        this.append(formatLiteral(e.value));
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
        if (e.args.length) {
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
        if (e.elements.length) {
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
      case 'map':
        this.append('{');
        if (e.entries.length) {
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
            this.append(this.adorn(en.id));
          });
          this.indent--;
          this.line();
        }
        this.append('}');
        break;
      case 'struct':
        this.append(e.typeName);
        this.append('{');
        if (e.fields.length) {
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
            this.append(this.adorn(f.id));
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
        this.append(e.iterVar + ',');
        this.line();
        if (e.iterVar2 !== '') {
          this.append(e.iterVar2 + ',');
          this.line();
        }
        for (const [label, sub, last] of [
          ['Target', e.iterRange, false],
          ['Accumulator', undefined, false],
          ['Init', e.accuInit, false],
          ['LoopCondition', e.loopCondition, false],
          ['LoopStep', e.loopStep, false],
          ['Result', e.result, true],
        ] as const) {
          this.append(`// ${label}`);
          this.line();
          if (sub) this.buffer(sub);
          else this.append(e.accuVar);
          if (!last) {
            this.append(',');
            this.line();
          }
        }
        this.append(')');
        this.indent--;
        break;
    }
    this.append(this.adorn(e.id));
  }

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

  toString(): string {
    return this.out;
  }
}

/** Go's formatting of literals in cel-go's debug printer (strconv.Quote for strings and bytes). */
function formatLiteral(c: Constant): string {
  switch (c.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return String(c.value);
    case 'int':
      return c.value.toString();
    case 'uint':
      return `${c.value}u`;
    case 'double':
      return goFloat(c.value);
    case 'string':
      return goQuote(c.value);
    case 'bytes':
      return 'b' + goQuote(Buffer.from(c.value).toString('latin1'));
  }
}

/** Go's `%v` of a float64. */
function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e21)) {
    return v.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(v);
}

/** Go's strconv.Quote, close enough for test output: printable text is kept, the rest escaped. */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}
