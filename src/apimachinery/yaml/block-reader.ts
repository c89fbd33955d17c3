/**
 * A direct reader for the shape nearly every manifest has: block mappings and sequences of plain
 * keys and one-line plain or quoted scalars (what `kubectl get -o yaml`, Helm and most editors
 * write). It builds the JSON data sigs.k8s.io/yaml would yield in one pass over the text, with no
 * token stream or node tree, and gives up (returns undefined) on anything outside that shape:
 * anchors, aliases, tags, flow collections other than `[]` and `{}`, block and multi-line
 * scalars, escapes, merge keys, duplicate or non-string keys, tabs, directives, deep nesting and
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
        value = this.scalar(v, le);
        child?.push({ at: v });
        this.seek(le + 1);
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
        out.push(this.scalar(v, le));
        items?.push({ at: v });
        this.seek(le + 1);
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
    const h = this.s.indexOf(' #', from);
    return h !== -1 && h < to;
  }

  /** After a quoted scalar ending before `p`: only blanks and a comment may follow on the line. */
  rest(p: number, le: number): void {
    const s = this.s;
    if (p === le) return;
    if (s.charCodeAt(p) !== SPACE) throw giveUp;
    while (p < le && s.charCodeAt(p) === SPACE) p++;
    if (p < le && s.charCodeAt(p) !== HASH) throw giveUp;
  }

  /** A one-line scalar (or `[]`, `{}`) starting at `p`, the line ending at `le`. */
  scalar(p: number, le: number): unknown {
    const s = this.s;
    const c = s.charCodeAt(p);
    if (c === 34) {
      const q = s.indexOf('"', p + 1);
      if (q === -1 || q > le) throw giveUp;
      const text = s.slice(p + 1, q);
      if (text.includes('\\')) throw giveUp;
      this.rest(q + 1, le);
      return text;
    }
    if (c === 39) {
      let q = s.indexOf("'", p + 1);
      while (q !== -1 && s.charCodeAt(q + 1) === 39) q = s.indexOf("'", q + 2);
      if (q === -1 || q > le) throw giveUp;
      this.rest(q + 1, le);
      return s.slice(p + 1, q).replaceAll("''", "'");
    }
    if (c === 91 || c === 123) {
      if (s.charCodeAt(p + 1) !== (c === 91 ? 93 : 125)) throw giveUp;
      this.rest(p + 2, le);
      return c === 91 ? [] : {};
    }
    // `-1` is a number, `- x` was taken as a sequence entry, `-` alone is refused below.
    if (isIndicator(c) && !(c === DASH && p + 1 < le && s.charCodeAt(p + 1) !== SPACE)) throw giveUp;
    let end = le;
    const h = s.indexOf(' #', p);
    if (h !== -1 && h < le) end = h;
    while (s.charCodeAt(end - 1) === SPACE) end--;
    // `: ` (or a final `:`) inside a plain value is go-yaml's error, not a value.
    for (let k = s.indexOf(':', p); k !== -1 && k < end; k = s.indexOf(':', k + 1)) {
      if (k + 1 === end || s.charCodeAt(k + 1) === SPACE) throw giveUp;
    }
    const text = s.slice(p, end);
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
