/**
 * Go's encoding/json at the edges where its words reach clients: the syntax check (scanner.go)
 * with its exact messages (`invalid character 'x' looking for beginning of value`, `unexpected
 * end of JSON input`), and a reader that keeps number literals as text so that a decoder can
 * report `json: cannot unmarshal number 1.5 into Go struct field ... of type int64` as Go does.
 */

import { maxNestingDepth } from './depth.ts';

/** A JSON number literal as written. */
export class JSONNumber {
  constructor(readonly text: string) {}
}

const numberRe = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** scanner.go quoteChar */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  // strconv.Quote(string(rune(c))) without its double quotes.
  const ch = String.fromCharCode(c);
  const q = JSON.stringify(ch);
  let inner = q.slice(1, -1);
  if (c < 0x20 || c === 0x7f) {
    const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
    inner = named[c] ?? '\\x' + c.toString(16).padStart(2, '0');
  } else if (c >= 0x80 && c < 0xa0) inner = '\\u' + c.toString(16).padStart(4, '0');
  else if (c === 0xa0 || c === 0xad) inner = '\\u' + c.toString(16).padStart(4, '0');
  return `'${inner}'`;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/**
 * checkValid: undefined when text is one valid JSON value, otherwise Go's SyntaxError message.
 * Works on UTF-8 bytes, as Go's scanner does.
 */
export function goJSONSyntaxError(text: string | Uint8Array): string | undefined {
  const b = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  // parse stack: 0 = object key, 1 = object value, 2 = array value
  const stack: number[] = [];
  type State = (c: number) => State | string;
  const err = (c: number, ctx: string) => `invalid character ${quoteChar(c)} ${ctx}`;
  let endTop = false;

  const endValue: State = (c) => {
    if (stack.length === 0) {
      endTop = true;
      return endTopState(c);
    }
    if (isSpace(c)) return endValue;
    const top = stack[stack.length - 1]!;
    if (top === 0) {
      if (c === 0x3a) {
        stack[stack.length - 1] = 1;
        return beginValue;
      }
      return err(c, 'after object key');
    }
    if (top === 1) {
      if (c === 0x2c) {
        stack[stack.length - 1] = 0;
        return beginString;
      }
      if (c === 0x7d) {
        stack.pop();
        return endValue;
      }
      return err(c, 'after object key:value pair');
    }
    if (c === 0x2c) return beginValue;
    if (c === 0x5d) {
      stack.pop();
      return endValue;
    }
    return err(c, 'after array element');
  };
  const endTopState: State = (c) => (isSpace(c) ? endTopState : err(c, 'after top-level value'));
  const push = (c: number, k: number): string | undefined => {
    stack.push(k);
    return stack.length > maxNestingDepth ? err(c, 'exceeded max depth') : undefined;
  };
  const beginValue: State = (c) => {
    if (isSpace(c)) return beginValue;
    switch (c) {
      case 0x7b:
        return push(c, 0) ?? beginStringOrEmpty;
      case 0x5b:
        return push(c, 2) ?? beginValueOrEmpty;
      case 0x22:
        return inString;
      case 0x2d:
        return neg;
      case 0x30:
        return zero;
      case 0x74:
        return literal('true', 1);
      case 0x66:
        return literal('false', 1);
      case 0x6e:
        return literal('null', 1);
    }
    if (c >= 0x31 && c <= 0x39) return one;
    return err(c, 'looking for beginning of value');
  };
  const beginValueOrEmpty: State = (c) => {
    if (isSpace(c)) return beginValueOrEmpty;
    if (c === 0x5d) {
      stack.pop();
      return endValue;
    }
    return beginValue(c);
  };
  const beginStringOrEmpty: State = (c) => {
    if (isSpace(c)) return beginStringOrEmpty;
    if (c === 0x7d) {
      stack.pop();
      return endValue;
    }
    return beginString(c);
  };
  const beginString: State = (c) => {
    if (isSpace(c)) return beginString;
    if (c === 0x22) return inString;
    return err(c, 'looking for beginning of object key string');
  };
  const inString: State = (c) => {
    if (c === 0x22) return endValue;
    if (c === 0x5c) return inStringEsc;
    if (c < 0x20) return err(c, 'in string literal');
    return inString;
  };
  const inStringEsc: State = (c) => {
    if ('bfnrt\\/"'.includes(String.fromCharCode(c))) return inString;
    if (c === 0x75) return hex(4);
    return err(c, 'in string escape code');
  };
  const hex =
    (n: number): State =>
    (c) => {
      if (!isHex(c)) return err(c, 'in \\u hexadecimal character escape');
      return n === 1 ? inString : hex(n - 1);
    };
  const neg: State = (c) => {
    if (c === 0x30) return zero;
    if (c >= 0x31 && c <= 0x39) return one;
    return err(c, 'in numeric literal');
  };
  const one: State = (c) => (isDigit(c) ? one : zero(c));
  const zero: State = (c) => {
    if (c === 0x2e) return dot;
    if (c === 0x65 || c === 0x45) return exp;
    return endValue(c);
  };
  const dot: State = (c) => (isDigit(c) ? dot0 : err(c, 'after decimal point in numeric literal'));
  const dot0: State = (c) => {
    if (isDigit(c)) return dot0;
    if (c === 0x65 || c === 0x45) return exp;
    return endValue(c);
  };
  const exp: State = (c) => (c === 0x2b || c === 0x2d ? expSign : expSign(c));
  const expSign: State = (c) => (isDigit(c) ? exp0 : err(c, 'in exponent of numeric literal'));
  const exp0: State = (c) => (isDigit(c) ? exp0 : endValue(c));
  const literal =
    (word: string, i: number): State =>
    (c) => {
      if (c !== word.charCodeAt(i)) return err(c, `in literal ${word} (expecting '${word[i]}')`);
      return i === word.length - 1 ? endValue : literal(word, i + 1);
    };

  let state: State = beginValue;
  for (let i = 0; i < b.length; i++) {
    const next = state(b[i]!);
    if (typeof next === 'string') return next;
    state = next;
  }
  if (endTop) return undefined;
  // scanner.eof feeds a space: a literal cut short fails on that space, anything else open is EOF.
  const last = state(0x20);
  if (typeof last === 'string') return last;
  return endTop ? undefined : 'unexpected end of JSON input';
}

/**
 * Parses JSON text that Go would accept; numbers become JSONNumber (their literal text), or
 * whatever `number` makes of the literal. Returns Go's syntax error message for anything else.
 */
export function parseGoJSONText(
  text: string,
  number: (literal: string) => unknown = (literal) => new JSONNumber(literal),
): { value: unknown; error?: undefined } | { error: string } {
  const syntax = goJSONSyntaxError(text);
  if (syntax !== undefined) return { error: syntax };
  let i = 0;
  const ws = () => {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    // Go replaces invalid UTF-16 surrogates with U+FFFD; JSON.parse keeps them; both rare.
    return JSON.parse(text.slice(start, i)) as string;
  };
  const scalar = (): unknown => {
    const c = text[i]!;
    if (c === '"') return str();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    numberRe.lastIndex = i;
    const m = numberRe.exec(text)!;
    i += m[0].length;
    return number(m[0]);
  };
  // An explicit stack of open containers (the text may nest maxNestingDepth deep). Each
  // container is placed in its parent when it opens, so closing one only pops it.
  let root: unknown;
  const open: Array<{ c: Record<string, unknown> | unknown[]; key: string }> = [];
  const put = (v: unknown): void => {
    const top = open[open.length - 1];
    if (top === undefined) root = v;
    else if (Array.isArray(top.c)) top.c.push(v);
    else Object.defineProperty(top.c, top.key, { value: v, writable: true, enumerable: true, configurable: true });
  };
  const key = (): void => {
    ws();
    const k = str();
    ws();
    i++; // ':'
    open[open.length - 1]!.key = k;
  };
  for (;;) {
    // A value starts here.
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      const container = c === '{' ? {} : [];
      put(container);
      ws();
      if (text[i] !== (c === '{' ? '}' : ']')) {
        open.push({ c: container, key: '' });
        if (c === '{') key();
        continue;
      }
      i++;
    } else put(scalar());
    // After a value: close containers until one continues with another member.
    let next = false;
    while (open.length > 0 && !next) {
      ws();
      const d = text[i++];
      if (d === ',') {
        next = true;
        if (!Array.isArray(open[open.length - 1]!.c)) key();
      } else open.pop();
    }
    if (!next) return { value: root };
  }
}

/** The kind of a JSON value as encoding/json's UnmarshalTypeError names it (`string`, `number`, `bool`, `array`, `object`). */
export function goJSONKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}
