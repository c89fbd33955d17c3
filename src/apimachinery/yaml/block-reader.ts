/**
 * A direct reader for the shape nearly every manifest has: block mappings and sequences of plain
 * keys, one-line plain scalars and quoted scalars (what `kubectl get -o yaml`, controller-gen,
 * Helm and most editors write). It builds the JSON data sigs.k8s.io/yaml would yield in one pass over the text, with no
 * token stream or node tree, and gives up (returns undefined) on anything outside that shape:
 * anchors, aliases, tags, flow collections other than `[]` and `{}`, block scalars and
 * multi-line plain scalars, escapes, merge keys, duplicate or non-string keys, tabs, directives, deep nesting and
 * every error. The full reader (index.ts) then reads the text, so what this reader accepts it
 * must read exactly as the full one does; a differential test holds the two together.
 */
import { GoUint64, floatTag, intTag, mergeTag, resolveScalar, strTag, timestampTag } from './resolve.ts';

/** Where a node starts, and for collections where each child does (for `file:line:column`). */
export interface BlockPositions {
  at: number;
  keys?: Map<string, BlockPositions>;
  items?: BlockPositions[];
}

/** Thrown inside the reader to give up; never escapes it. */
const giveUp = Symbol('give up');

/** Deeper documents go to the full reader, which holds go-yaml's depth limits. */
const maxDepth = 100;

/**
 * Characters go-yaml reads as printable and neither YAML version treats as a line break, minus
 * tab, CR and surrogates (kept out so that the reader need not handle them, and so that JS string
 * order is UTF-8 byte order for the keys it sorts).
 */
const outsideShape = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

const SPACE = 32;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const NL = 10;
const BACKSLASH = 92;

/** First characters of a plain scalar that can only be a plain string (resolve.ts's hint ''). */
function isPlainStringStart(c: number): boolean {
  // Letters other than those starting a YAML 1.1 bool or null (y n t f o ~), and `/`.
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
    return !(c === 121 || c === 89 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70 || c === 111 || c === 79);
  }
  return c === 47 || c === 95;
}

/** Characters that cannot start a plain scalar this reader accepts (indicators, quotes handled apart). */
function isIndicator(c: number): boolean {
  // & * ! | > % @ ` { [ } ] , # ? : - ' "
  return (
    c === 38 || c === 42 || c === 33 || c === 124 || c === 62 || c === 37 || c === 64 || c === 96 || c === 123 || c === 91 ||
    c === 125 || c === 93 || c === 44 || c === HASH || c === 63 || c === COLON || c === DASH || c === 39 || c === 34
  );
}

class Reader {
  /** The current content line: its start, its first non-space character, and its end (`\n` or the end). */
  ls = 0;
  ci = 0;
  le = 0;
  eof = false;
  depth = 0;
  /** The end of the line the last scalar read ended on (a quoted scalar may span lines). */
  after = 0;

  constructor(
    readonly s: string,
    readonly record: boolean,
  ) {}

  /** Moves to the first line at or after `p` holding content (not blank, not only a comment). */
  seek(p: number): void {
    const s = this.s;
    const n = s.length;
    while (p < n) {
      let i = p;
      while (i < n && s.charCodeAt(i) === SPACE) i++;
      let e = s.indexOf('\n', i);
      if (e === -1) e = n;
      if (i === e || s.charCodeAt(i) === HASH) {
        p = e + 1;
        continue;
      }
      // A document marker or a directive belongs to the full reader.
      if (i === p && (s.startsWith('---', p) || s.startsWith('...', p) || s.charCodeAt(p) === 37)) throw giveUp;
      this.ls = p;
      this.ci = i;
      this.le = e;
      return;
    }
    this.ls = this.ci = this.le = n;
    this.eof = true;
  }

  get indent(): number {
    return this.ci - this.ls;
  }

  /** `-` followed by a space or the line's end at `i`: a sequence entry. */
  isDash(i: number): boolean {
    return this.s.charCodeAt(i) === DASH && (i + 1 === this.le || this.s.charCodeAt(i + 1) === SPACE);
  }

  /** The block collection whose first line is the current one, at its indentation `col`. */
  block(col: number, pos: BlockPositions[] | undefined): unknown {
    if (++this.depth > maxDepth) throw giveUp;
    const v = this.isDash(this.ci) ? this.seq(col, pos) : this.map(col, this.ci, pos);
    this.depth--;
    return v;
  }

  /**
   * The end of a plain key starting at `p` on the current line: the `:` followed by a space or
   * the line's end, or -1 when the line holds no mapping entry there.
   */
  keyEnd(p: number): number {
    const s = this.s;
    const le = this.le;
    for (let c = s.indexOf(':', p); c !== -1 && c < le; c = s.indexOf(':', c + 1)) {
      if (c + 1 === le || s.charCodeAt(c + 1) === SPACE) return c;
    }
    return -1;
  }

  /** A block mapping at column `col` whose first key starts at `start` on the current line. */
  map(col: number, start: number, pos: BlockPositions[] | undefined): Record<string, unknown> {
    const s = this.s;
    const keys: string[] = [];
    const values: unknown[] = [];
    const keyPos = this.record ? new Map<string, BlockPositions>() : undefined;
    let p = start;
    for (;;) {
      const c0 = s.charCodeAt(p);
      if (isIndicator(c0)) throw giveUp;
      const colon = this.keyEnd(p);
      if (colon === -1) throw giveUp;
      let ke = colon;
      while (s.charCodeAt(ke - 1) === SPACE) ke--;
      const key = s.slice(p, ke);
      if (key.length > 1000 || key.includes(' #') || key === '__proto__') throw giveUp;
      if (!isPlainStringStart(c0) && resolveScalar('', key).tag !== strTag) throw giveUp;
      const le = this.le;
      let v = colon + 1;
      while (v < le && s.charCodeAt(v) === SPACE) v++;
      let value: unknown;
      const child: BlockPositions[] | undefined = keyPos ? [] : undefined;
      if (v === le || s.charCodeAt(v) === HASH) {
        // Nothing on the line: a nested collection, an indentless sequence, or null.
        this.seek(le + 1);
        if (!this.eof && this.indent > col) value = this.block(this.indent, child);
        else if (!this.eof && this.indent === col && this.isDash(this.ci)) {
          if (++this.depth > maxDepth) throw giveUp;
          value = this.seq(col, child);
          this.depth--;
        } else {
          value = null;
          child?.push({ at: v });
        }
      } else {
        value = this.scalar(v, le, col);
        child?.push({ at: v });
        this.seek(this.after + 1);
      }
      keys.push(key);
      values.push(value);
      if (keyPos) keyPos.set(key, child![0]!);
      if (this.eof || this.indent < col) break;
      if (this.indent > col || this.isDash(this.ci)) throw giveUp;
      p = this.ci;
    }
    pos?.push({ at: start, keys: keyPos });
    return sortedObject(keys, values);
  }

  /** A block sequence whose entries' dashes are at column `col`, the first on the current line. */
  seq(col: number, pos: BlockPositions[] | undefined): unknown[] {
    const s = this.s;
    const out: unknown[] = [];
    const items: BlockPositions[] | undefined = this.record ? [] : undefined;
    const start = this.ci;
    for (;;) {
      const dash = this.ci;
      const le = this.le;
      let v = dash + 1;
      while (v < le && s.charCodeAt(v) === SPACE) v++;
      if (v === le || s.charCodeAt(v) === HASH) {
        this.seek(le + 1);
        if (!this.eof && this.indent > col) out.push(this.block(this.indent, items));
        else {
          out.push(null);
          items?.push({ at: v });
        }
      } else if (this.isDash(v)) {
        throw giveUp; // `- - x`
      } else if (s.charCodeAt(v) !== 34 && s.charCodeAt(v) !== 39 && this.keyEnd(v) !== -1 && !this.commentBefore(v, this.keyEnd(v))) {
        if (++this.depth > maxDepth) throw giveUp;
        out.push(this.map(v - this.ls, v, items));
        this.depth--;
      } else {
        out.push(this.scalar(v, le, col));
        items?.push({ at: v });
        this.seek(this.after + 1);
      }
      if (this.eof || this.indent < col) break;
      if (this.indent > col) throw giveUp;
      if (!this.isDash(this.ci)) break; // the next key of the mapping this sequence is indentless in
    }
    pos?.push({ at: start, items });
    return out;
  }

  /** A ` #` between `from` and `to`: the rest of the line is a comment. */
  commentBefore(from: number, to: number): boolean {
    return this.commentAt(from, to) !== -1;
  }

  /** Where a ` #` starts between `from` and `to` (on one line), or -1. */
  commentAt(from: number, to: number): number {
    const s = this.s;
    for (let i = from + 1; i < to; i++) if (s.charCodeAt(i) === HASH && s.charCodeAt(i - 1) === SPACE) return i - 1;
    return -1;
  }

  /** After a quoted scalar ending before `p`: only blanks and a comment may follow on the line. */
  rest(p: number, le: number): void {
    const s = this.s;
    if (p === le) return;
    if (s.charCodeAt(p) !== SPACE) throw giveUp;
    while (p < le && s.charCodeAt(p) === SPACE) p++;
    if (p < le && s.charCodeAt(p) !== HASH) throw giveUp;
  }

  /**
   * A single- or double-quoted scalar from `p` (its quote `q`) to its closing quote, on this line
   * or a later one, as libyaml scans it: line breaks folded (one break a space, n breaks n-1
   * newlines, the spaces around each break dropped), double-quoted escapes decoded, an escaped
   * line break joining its lines. A document marker inside the quotes, and the escapes the
   * readers might disagree on, are the full reader's.
   */
  quoted(p: number, le: number, q: number): string {
    const s = this.s;
    const n = s.length;
    let close = -1;
    let plain = true; // no escape, no line break: the text is the slice
    for (let i = p + 1; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === q) {
        if (q === 39 && s.charCodeAt(i + 1) === 39) {
          plain = false;
          i++;
          continue;
        }
        close = i;
        break;
      }
      if (c === BACKSLASH && q === 34) {
        plain = false;
        i++;
      } else if (c === NL) {
        plain = false;
        // A document marker at the start of a line ends the stream, quotes or not.
        if (s.startsWith('---', i + 1) || s.startsWith('...', i + 1)) throw giveUp;
      }
    }
    if (close === -1) throw giveUp;
    if (close > le) {
      le = s.indexOf('\n', close);
      if (le === -1) le = n;
      this.after = le;
    }
    this.rest(close + 1, le);
    return plain ? s.slice(p + 1, close) : foldQuoted(s, p + 1, close, q === 34);
  }

  /**
   * A plain scalar's first line `first` with the lines that continue it (indented deeper than
   * `col`), folded: one line break a space, each empty line a newline. Continuation lines that
   * start like a sequence entry, a key or a comment, or hold a comment or a `: `, are the full
   * reader's.
   */
  plainContinued(first: string, le: number, col: number): string {
    const s = this.s;
    const n = s.length;
    let text = first;
    let empty = 0;
    for (let q = le + 1; q < n; ) {
      let i = q;
      while (i < n && s.charCodeAt(i) === SPACE) i++;
      let e = s.indexOf('\n', i);
      if (e === -1) e = n;
      if (i === e) {
        empty++;
        q = e + 1;
        continue;
      }
      if (i - q <= col) break;
      // Within a plain scalar an indicator is text, but for a comment and what reads as a
      // sequence entry, mapping key or value.
      const c = s.charCodeAt(i);
      const next = i + 1 < e ? s.charCodeAt(i + 1) : SPACE;
      if (c === HASH || ((c === DASH || c === 63 || c === COLON) && next === SPACE) || this.commentAt(i, e) !== -1) throw giveUp;
      let end = e;
      while (s.charCodeAt(end - 1) === SPACE) end--;
      for (let k = i; k < end; k++) {
        if (s.charCodeAt(k) === COLON && (k + 1 === end || s.charCodeAt(k + 1) === SPACE)) throw giveUp;
      }
      text += (empty === 0 ? ' ' : '\n'.repeat(empty)) + s.slice(i, end);
      empty = 0;
      this.after = e;
      q = e + 1;
    }
    return text;
  }

  /**
   * A scalar (or `[]`, `{}`) starting at `p` on a line ending at `le`, in a collection at column
   * `col`: plain, continued on the lines indented deeper than `col`, or quoted; `after` is set to
   * the end of its last line.
   */
  scalar(p: number, le: number, col: number): unknown {
    const s = this.s;
    const c = s.charCodeAt(p);
    this.after = le;
    if (c === 34 || c === 39) return this.quoted(p, le, c);
    if (c === 91 || c === 123) {
      if (s.charCodeAt(p + 1) !== (c === 91 ? 93 : 125)) throw giveUp;
      this.rest(p + 2, le);
      return c === 91 ? [] : {};
    }
    // `-1` is a number, `- x` was taken as a sequence entry, `-` alone is refused below.
    if (isIndicator(c) && !(c === DASH && p + 1 < le && s.charCodeAt(p + 1) !== SPACE)) throw giveUp;
    let end = le;
    const h = this.commentAt(p, le);
    if (h !== -1) end = h;
    while (s.charCodeAt(end - 1) === SPACE) end--;
    // `: ` (or a final `:`) inside a plain value is go-yaml's error, not a value.
    for (let k = p; k < end; k++) {
      if (s.charCodeAt(k) === COLON && (k + 1 === end || s.charCodeAt(k + 1) === SPACE)) throw giveUp;
    }
    let text = s.slice(p, end);
    if (h === -1) text = this.plainContinued(text, le, col);
    if (isPlainStringStart(c)) return text;
    const r = resolveScalar('', text);
    switch (r.tag) {
      case strTag:
      case timestampTag:
        return text; // a timestamp decoded into interface{} stays its text
      case intTag:
        return r.value instanceof GoUint64 ? Number(r.value.value) : r.value;
      case floatTag:
        if (!Number.isFinite(r.value as number)) throw giveUp; // json.Marshal's error
        return r.value;
      case mergeTag:
        throw giveUp;
      default:
        return r.value; // bool, null
    }
  }
}

/** libyaml's one-character escapes in double-quoted scalars (`\\/` and `\\'` left to the full reader). */
const escapes: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

const hexDigits: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The text of a quoted scalar between `from` and `to` (the quotes excluded), folded and unescaped. */
function foldQuoted(s: string, from: number, to: number, double: boolean): string {
  let out = '';
  let i = from;
  while (i < to) {
    const c = s.charCodeAt(i);
    if (c === SPACE || c === NL) {
      let j = i;
      while (j < to && s.charCodeAt(j) === SPACE) j++;
      if (j < to && s.charCodeAt(j) === NL) {
        // Spaces before a break are dropped; each further break (an empty line) is a newline.
        let breaks = 0;
        while (j < to && s.charCodeAt(j) === NL) {
          breaks++;
          j++;
          while (j < to && s.charCodeAt(j) === SPACE) j++;
        }
        out += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
      } else {
        out += s.slice(i, j);
      }
      i = j;
    } else if (c === 39 && !double) {
      out += "'"; // `''`
      i += 2;
    } else if (c === BACKSLASH && double) {
      const e = s[i + 1]!;
      if (e === '\n') {
        // An escaped line break: the lines are joined, the next one's indentation dropped.
        i += 2;
        while (i < to && s.charCodeAt(i) === SPACE) i++;
        if (s.charCodeAt(i) === NL) throw giveUp;
        continue;
      }
      const one = escapes[e];
      if (one !== undefined) {
        out += one;
        i += 2;
        continue;
      }
      const digits = hexDigits[e];
      if (digits === undefined) throw giveUp;
      const hex = s.slice(i + 2, i + 2 + digits);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) throw giveUp;
      const cp = parseInt(hex, 16);
      if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) throw giveUp;
      out += String.fromCodePoint(cp);
      i += 2 + digits;
    } else {
      let j = i + 1;
      while (j < to) {
        const d = s.charCodeAt(j);
        if (d === SPACE || d === NL || d === BACKSLASH || d === 39) break;
        j++;
      }
      out += s.slice(i, j);
      i = j;
    }
  }
  return out;
}

/** The object sigs.k8s.io/yaml yields: keys in Go's sorted order (UTF-8 bytes; JS order for the characters read here). */
function sortedObject(keys: string[], values: unknown[]): Record<string, unknown> {
  const n = keys.length;
  let sorted = true;
  for (let i = 1; i < n; i++) {
    if (!(keys[i - 1]! < keys[i]!)) {
      sorted = false;
      break;
    }
  }
  const o: Record<string, unknown> = {};
  if (sorted) {
    for (let i = 0; i < n; i++) o[keys[i]!] = values[i];
    return o;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
  for (let i = 0; i < n; i++) {
    const k = keys[order[i]!]!;
    // A duplicate key is strict decoding's error, with its messages: the full reader's job.
    if (i > 0 && k === keys[order[i - 1]!]) throw giveUp;
    o[k] = values[order[i]!];
  }
  return o;
}

/** A document read by the block reader: its JSON data and where its root starts. */
export interface BlockDocument {
  value: unknown;
  rootOffset: number;
}

function run(text: string, record: boolean): { value: unknown; pos: BlockPositions | undefined; rootOffset: number } | undefined {
  if (outsideShape.test(text)) return undefined;
  const r = new Reader(text, record);
  try {
    let p = 0;
    // The `---` a file's first document may open with (the document splitter leaves it there).
    if (text.startsWith('---')) {
      const e = text.indexOf('\n');
      const line = text.slice(3, e === -1 ? text.length : e).trim();
      if (line !== '' && line[0] !== '#') return undefined;
      if (text.charCodeAt(3) !== NL && text.charCodeAt(3) !== SPACE && text.length > 3) return undefined;
      p = e === -1 ? text.length : e + 1;
    }
    r.seek(p);
    if (r.eof) return undefined; // an empty document: the full reader knows its shape
    const rootOffset = r.ci;
    const pos: BlockPositions[] | undefined = record ? [] : undefined;
    const value = r.block(r.indent, pos);
    if (!r.eof) return undefined;
    return { value, pos: pos?.[0], rootOffset };
  } catch (e) {
    if (e === giveUp) return undefined;
    throw e;
  }
}

/** The document's JSON data, or undefined when the text is not of the shape this reader reads. */
export function readBlockYAML(text: string): BlockDocument | undefined {
  const r = run(text, false);
  return r === undefined ? undefined : { value: r.value, rootOffset: r.rootOffset };
}

/** The positions of a document readBlockYAML reads (read again, keeping them). */
export function blockPositions(text: string): BlockPositions | undefined {
  return run(text, true)?.pos;
}

/** The offset of the node at a path (keys compared as text), or of its deepest existing ancestor. */
export function blockOffsetOf(root: BlockPositions, path: readonly (string | number)[]): number {
  let node = root;
  for (const seg of path) {
    let next: BlockPositions | undefined;
    if (node.keys) next = node.keys.get(String(seg));
    else if (node.items && typeof seg === 'number') next = node.items[seg];
    if (!next) break;
    node = next;
  }
  return node.at;
}
