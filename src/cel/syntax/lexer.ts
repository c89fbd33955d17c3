/**
 * The CEL lexer: turns expression text into tokens exactly as cel-go's ANTLR lexer (parser/gen/CEL.g4)
 * does — longest match, falling back to the longest accepted prefix, and on text no rule accepts a
 * `token recognition error at: '...'` covering the text up to and including the offending character,
 * which is then skipped.
 *
 * Positions are code-point offsets. Tokens are produced on demand so that lexer errors interleave with
 * parser errors in the order cel-go reports them.
 */

/** Token types, numbered as the ANTLR grammar numbers them (the order of `expecting {...}` sets). */
export enum T {
  EOF = 0,
  EQUALS = 1, NOT_EQUALS, IN, LESS, LESS_EQUALS, GREATER_EQUALS, GREATER, LOGICAL_AND, LOGICAL_OR,
  LBRACKET, RPRACKET, LBRACE, RBRACE, LPAREN, RPAREN, DOT, COMMA, MINUS, EXCLAM, QUESTIONMARK, COLON,
  PLUS, STAR, SLASH, PERCENT, CEL_TRUE, CEL_FALSE, NUL, WHITESPACE, COMMENT, NUM_FLOAT, NUM_INT,
  NUM_UINT, STRING, BYTES, IDENTIFIER, ESC_IDENTIFIER,
}

/** ANTLR display names by token type, as used in `expecting ...` messages. */
export const TOKEN_DISPLAY: readonly string[] = [
  '<EOF>', "'=='", "'!='", "'in'", "'<'", "'<='", "'>='", "'>'", "'&&'", "'||'", "'['", "']'", "'{'",
  "'}'", "'('", "')'", "'.'", "','", "'-'", "'!'", "'?'", "':'", "'+'", "'*'", "'/'", "'%'", "'true'",
  "'false'", "'null'", 'WHITESPACE', 'COMMENT', 'NUM_FLOAT', 'NUM_INT', 'NUM_UINT', 'STRING', 'BYTES',
  'IDENTIFIER', 'ESC_IDENTIFIER',
];

export interface Token {
  type: T;
  /** Code-point offset of the first character. */
  start: number;
  /** Code-point offset just past the last character. */
  stop: number;
  text: string;
  /** Index in the token stream. */
  index: number;
}

/** Receives `token recognition error` reports; returning false aborts lexing. */
export type LexErrorSink = (offset: number, message: string) => void;

const C_0 = 48, C_9 = 57, C_a = 97, C_z = 122, C_A = 65, C_Z = 90, C_US = 95;

function isDigit(c: number): boolean {
  return c >= C_0 && c <= C_9;
}
function isLetter(c: number): boolean {
  return (c >= C_a && c <= C_z) || (c >= C_A && c <= C_Z);
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= C_a && c <= 102) || (c >= C_A && c <= 70);
}
function isIdentPart(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === C_US;
}

/** Escapes a token's text as ANTLR's getErrorDisplay does. */
export function antlrEscape(s: string): string {
  return s.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

const SINGLE_CHAR: Record<number, T> = {
  0x5b: T.LBRACKET, 0x5d: T.RPRACKET, 0x7b: T.LBRACE, 0x7d: T.RBRACE, 0x28: T.LPAREN, 0x29: T.RPAREN,
  0x2c: T.COMMA, 0x2d: T.MINUS, 0x3f: T.QUESTIONMARK, 0x3a: T.COLON, 0x2b: T.PLUS, 0x2a: T.STAR,
  0x25: T.PERCENT,
};

/** Result of scanning one lexical rule from a start position. */
interface Scan {
  /** End (exclusive) of the longest accepted match, or -1 when nothing was accepted. */
  accept: number;
  /** Where scanning could not continue (the offending character), for error reports. */
  fail: number;
}

export class Lexer {
  readonly cps: Uint32Array;
  private readonly text: string;
  private readonly ascii: boolean;
  private pos = 0;
  private count = 0;

  constructor(text: string, cps: Uint32Array, private readonly onError: LexErrorSink) {
    this.text = text;
    this.cps = cps;
    this.ascii = cps.length === text.length;
  }

  /** The source text between two code-point offsets. */
  slice(start: number, stop: number): string {
    if (this.ascii) return this.text.slice(start, stop);
    let out = '';
    for (let i = start; i < stop; i += 4096) {
      out += String.fromCodePoint(...this.cps.subarray(i, Math.min(stop, i + 4096)));
    }
    return out;
  }

  private tok(type: T, start: number, stop: number): Token {
    this.pos = stop;
    return { type, start, stop, text: this.slice(start, stop), index: this.count++ };
  }

  /** The next token on the default channel (whitespace and comments are skipped). */
  next(): Token {
    const cps = this.cps;
    const n = cps.length;
    for (;;) {
      let p = this.pos;
      // whitespace and comments (hidden channel)
      while (p < n) {
        const c = cps[p]!;
        if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) p++;
        else if (c === 0x2f && cps[p + 1] === 0x2f) {
          p += 2;
          while (p < n && cps[p] !== 10) p++;
        } else break;
      }
      this.pos = p;
      if (p >= n) return { type: T.EOF, start: n, stop: n, text: '<EOF>', index: this.count++ };
      const c = cps[p]!;
      const single = SINGLE_CHAR[c];
      if (single !== undefined) return this.tok(single, p, p + 1);
      switch (c) {
        case 0x3d: // =
          if (cps[p + 1] === 0x3d) return this.tok(T.EQUALS, p, p + 2);
          this.error(p, p + 1);
          continue;
        case 0x21: // !
          return cps[p + 1] === 0x3d ? this.tok(T.NOT_EQUALS, p, p + 2) : this.tok(T.EXCLAM, p, p + 1);
        case 0x3c:
          return cps[p + 1] === 0x3d ? this.tok(T.LESS_EQUALS, p, p + 2) : this.tok(T.LESS, p, p + 1);
        case 0x3e:
          return cps[p + 1] === 0x3d ? this.tok(T.GREATER_EQUALS, p, p + 2) : this.tok(T.GREATER, p, p + 1);
        case 0x26: // &
          if (cps[p + 1] === 0x26) return this.tok(T.LOGICAL_AND, p, p + 2);
          this.error(p, p + 1);
          continue;
        case 0x7c: // |
          if (cps[p + 1] === 0x7c) return this.tok(T.LOGICAL_OR, p, p + 2);
          this.error(p, p + 1);
          continue;
        case 0x2f:
          return this.tok(T.SLASH, p, p + 1);
        case 0x2e: // .
          if (isDigit(cps[p + 1] ?? 0)) return this.number(p);
          return this.tok(T.DOT, p, p + 1);
        case 0x22:
        case 0x27:
          return this.stringish(p, p, T.STRING);
        case 0x60: { // `
          let q = p + 1;
          while (q < n) {
            const d = cps[q]!;
            if (isIdentPart(d) || d === 0x2e || d === 0x2d || d === 0x2f || d === 32) q++;
            else break;
          }
          if (q > p + 1 && cps[q] === 0x60) return this.tok(T.ESC_IDENTIFIER, p, q + 1);
          this.error(p, q);
          continue;
        }
      }
      if (isDigit(c)) return this.number(p);
      if (isLetter(c) || c === C_US) {
        // string prefixes: r, R, b, B, and b/B followed by r/R
        const c1 = cps[p + 1] ?? 0;
        if ((c === 0x72 || c === 0x52 || c === 0x62 || c === 0x42) && (c1 === 0x22 || c1 === 0x27)) {
          return this.stringish(p, p + 1, c === 0x62 || c === 0x42 ? T.BYTES : T.STRING);
        }
        if ((c === 0x62 || c === 0x42) && (c1 === 0x72 || c1 === 0x52)) {
          const c2 = cps[p + 2] ?? 0;
          if (c2 === 0x22 || c2 === 0x27) return this.stringish(p, p + 2, T.BYTES);
        }
        let q = p + 1;
        while (q < n && isIdentPart(cps[q]!)) q++;
        const t = this.tok(T.IDENTIFIER, p, q);
        switch (t.text) {
          case 'in': t.type = T.IN; break;
          case 'true': t.type = T.CEL_TRUE; break;
          case 'false': t.type = T.CEL_FALSE; break;
          case 'null': t.type = T.NUL; break;
        }
        return t;
      }
      // no rule starts with this character
      this.error(p, p);
    }
  }

  /** Reports text [start, fail] as unrecognised and resumes after the offending character. */
  private error(start: number, fail: number): void {
    const n = this.cps.length;
    const end = Math.min(fail + 1, n);
    this.onError(start, `token recognition error at: '${antlrEscape(this.slice(start, end))}'`);
    this.pos = fail < n ? fail + 1 : n;
  }

  private number(p: number): Token {
    const cps = this.cps;
    const n = cps.length;
    let q = p;
    if (cps[p] === C_0 && cps[p + 1] === 0x78 && isHex(cps[p + 2] ?? 0)) {
      q = p + 2;
      while (q < n && isHex(cps[q]!)) q++;
      if (cps[q] === 0x75 || cps[q] === 0x55) return this.tok(T.NUM_UINT, p, q + 1);
      return this.tok(T.NUM_INT, p, q);
    }
    while (q < n && isDigit(cps[q]!)) q++;
    let type = T.NUM_INT;
    if (q === p) {
      // '.' DIGIT+ form; caller guarantees a digit follows the dot
      q = p + 1;
      while (q < n && isDigit(cps[q]!)) q++;
      type = T.NUM_FLOAT;
    } else if (cps[q] === 0x2e && isDigit(cps[q + 1] ?? 0)) {
      q += 1;
      while (q < n && isDigit(cps[q]!)) q++;
      type = T.NUM_FLOAT;
    } else if (cps[q] === 0x75 || cps[q] === 0x55) {
      return this.tok(T.NUM_UINT, p, q + 1);
    }
    // optional exponent
    const e = cps[q];
    if (e === 0x65 || e === 0x45) {
      let r = q + 1;
      if (cps[r] === 0x2b || cps[r] === 0x2d) r++;
      if (isDigit(cps[r] ?? 0)) {
        while (r < n && isDigit(cps[r]!)) r++;
        q = r;
        type = T.NUM_FLOAT;
      }
    }
    return this.tok(type, p, q);
  }

  /**
   * Scans a (possibly raw / bytes) string literal whose quote is at `quote`; `start` is where the
   * token starts (before any prefix letters).
   */
  private stringish(start: number, quote: number, type: T): Token {
    const cps = this.cps;
    const raw = quote > start && (cps[quote - 1] === 0x72 || cps[quote - 1] === 0x52);
    const scan = this.scanString(quote, raw);
    if (scan.accept >= 0) return this.tok(type, start, scan.accept);
    if (quote > start) {
      // fall back to the prefix letters as an identifier (the longest accepted prefix)
      return this.tok(T.IDENTIFIER, start, quote);
    }
    this.error(start, scan.fail);
    return this.next();
  }

  private scanString(quote: number, raw: boolean): Scan {
    const cps = this.cps;
    const n = cps.length;
    const q = cps[quote]!;
    let accept = -1;
    if (cps[quote + 1] === q) {
      // empty string, or the start of a triple-quoted one
      accept = quote + 2;
      if (cps[quote + 2] !== q) return { accept, fail: -1 };
      let p = quote + 3;
      while (p < n) {
        const c = cps[p]!;
        if (c === q && cps[p + 1] === q && cps[p + 2] === q) return { accept: p + 3, fail: -1 };
        if (c === 0x5c && !raw) {
          const e = escapeEnd(cps, p);
          if (e < 0) return { accept, fail: -e - 1 };
          p = e;
          continue;
        }
        p++;
      }
      return { accept, fail: n };
    }
    let p = quote + 1;
    while (p < n) {
      const c = cps[p]!;
      if (c === q) return { accept: p + 1, fail: -1 };
      if (c === 10 || c === 13) return { accept, fail: p };
      if (c === 0x5c && !raw) {
        const e = escapeEnd(cps, p);
        if (e < 0) return { accept, fail: -e - 1 };
        p = e;
        continue;
      }
      p++;
    }
    return { accept, fail: n };
  }
}

/**
 * Validates the escape sequence at `p` (a backslash) against the grammar's ESC_SEQ; returns the offset
 * after it, or -(failOffset + 1) when the character at failOffset cannot continue it.
 */
function escapeEnd(cps: Uint32Array, p: number): number {
  const c = cps[p + 1];
  if (c === undefined) return -(p + 1) - 1;
  switch (c) {
    case 0x61: case 0x62: case 0x66: case 0x6e: case 0x72: case 0x74: case 0x76:
    case 0x22: case 0x27: case 0x5c: case 0x3f: case 0x60:
      return p + 2;
    case 0x78: case 0x58:
      return hexRun(cps, p + 2, 2);
    case 0x75:
      return hexRun(cps, p + 2, 4);
    case 0x55:
      return hexRun(cps, p + 2, 8);
  }
  if (c >= 0x30 && c <= 0x33) {
    for (let i = 2; i < 4; i++) {
      const d = cps[p + i];
      if (d === undefined || d < 0x30 || d > 0x37) return -(p + i) - 1;
    }
    return p + 4;
  }
  return -(p + 1) - 1;
}

function hexRun(cps: Uint32Array, p: number, count: number): number {
  for (let i = 0; i < count; i++) {
    const d = cps[p + i];
    if (d === undefined || !isHex(d)) return -(p + i) - 1;
  }
  return p + count;
}

/**
 * Expressions are short: one buffer serves those up to its size (a typed array over 64 bytes would
 * allocate a backing store outside the heap on every parse). A parse never begins inside another,
 * and nothing keeps a parse's code points once it has ended.
 */
const scratch = new Uint32Array(4096);

/** The code points of a string (a view of a shared buffer, valid until the next call, for short strings). */
export function codePoints(text: string): Uint32Array {
  const out = text.length <= scratch.length ? scratch.subarray(0, text.length) : new Uint32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out[n++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[n++] = c;
  }
  return n === text.length ? out : out.slice(0, n);
}
