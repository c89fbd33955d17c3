/**
 * ObjectMeta's JSON text re-encoded in Go's field order, text to text: the stored form of an object
 * has its keys sorted (canonical JSON), the form the registry serves has ObjectMeta's members —
 * and those of its owner references and managed fields — in the order Go's encoder writes the
 * struct fields, with the resourceVersion among them. Re-encoding the members' texts, without
 * parsing the values, lets the watch cache serve an object from its stored text alone
 * (./shared-objects.ts, which checks once per object that the result is what decoding gives).
 *
 * The scanner reads compact JSON (what canonical JSON and JSON.stringify write); anything else, and
 * a member the struct does not have, is `undefined` (the caller decodes instead).
 */
import { managedFieldsFields, objectMetaFields, ownerReferenceFields } from '../apimachinery/index.ts';

/** A struct's field order: each JSON name's rank, and for a list of structs, the element's order. */
export interface FieldOrder {
  readonly rank: ReadonlyMap<string, number>;
  readonly elements: ReadonlyMap<string, FieldOrder>;
  /** The fields by their first character and length (`code * 256 + length`), to find a key without slicing it out. */
  readonly byShape: ReadonlyMap<number, { name: string; rank: number; elements: FieldOrder | undefined }>;
  readonly size: number;
}

const shape = (code: number, length: number) => code * 256 + length;

function order(fields: ReadonlySet<string>, elements: Record<string, FieldOrder> = {}): FieldOrder {
  const names = [...fields];
  const byShape = new Map<number, { name: string; rank: number; elements: FieldOrder | undefined }>();
  names.forEach((name, rank) => {
    const k = shape(name.charCodeAt(0), name.length);
    // Two fields of one shape: the slower path for both.
    byShape.set(k, byShape.has(k) ? { name: '', rank: -1, elements: undefined } : { name, rank, elements: elements[name] });
  });
  return {
    rank: new Map(names.map((f, i) => [f, i])),
    elements: new Map(Object.entries(elements)),
    byShape,
    size: names.length,
  };
}

export const objectMetaOrder = order(objectMetaFields, {
  ownerReferences: order(ownerReferenceFields),
  managedFields: order(managedFieldsFields),
});

/** The members of the object whose `{` is at `open`: their keys (raw text), where each member and its value start, and where the object ends. */
export interface Members {
  keys: string[];
  starts: number[];
  values: number[];
  /** Just past the closing `}`. */
  end: number;
}

const quote = 34;
const backslash = 92;
const colon = 58;
const comma = 44;
const openBrace = 123;
const closeBrace = 125;
const openBracket = 91;
const closeBracket = 93;

/** Just past the string whose opening quote is at `i`. */
function skipString(t: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const k = t.indexOf('"', j);
    if (k < 0) return -1;
    let b = k - 1;
    while (t.charCodeAt(b) === backslash) b--;
    if ((k - 1 - b) % 2 === 0) return k + 1;
    j = k + 1;
  }
}

/** Just past the value starting at `i` (-1 when the text ends first). */
function skipValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === quote) return skipString(t, i);
  if (c === openBrace || c === openBracket) {
    let depth = 0;
    let j = i;
    while (j < t.length) {
      const d = t.charCodeAt(j);
      if (d === quote) {
        j = skipString(t, j);
        if (j < 0) return -1;
        continue;
      }
      if (d === openBrace || d === openBracket) depth++;
      else if (d === closeBrace || d === closeBracket) {
        if (--depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  let j = i;
  while (j < t.length) {
    const d = t.charCodeAt(j);
    if (d === comma || d === closeBrace || d === closeBracket) return j;
    j++;
  }
  return -1;
}

/** The members of the compact JSON object opening at `open`, or undefined when it is not one. */
export function scanObject(t: string, open: number): Members | undefined {
  if (t.charCodeAt(open) !== openBrace) return undefined;
  const m: Members = { keys: [], starts: [], values: [], end: -1 };
  let i = open + 1;
  if (t.charCodeAt(i) === closeBrace) {
    m.end = i + 1;
    return m;
  }
  for (;;) {
    if (t.charCodeAt(i) !== quote) return undefined;
    const k = skipString(t, i);
    if (k < 0 || t.charCodeAt(k) !== colon) return undefined;
    const end = skipValue(t, k + 1);
    if (end < 0) return undefined;
    m.keys.push(t.slice(i + 1, k - 1));
    m.starts.push(i);
    m.values.push(k + 1);
    const c = t.charCodeAt(end);
    if (c === closeBrace) {
      m.end = end + 1;
      return m;
    }
    if (c !== comma) return undefined;
    i = end + 1;
  }
}

/** The field whose key text is `t[from, to)` (quotes excluded), found without slicing it when its shape is unique. */
function fieldAt(t: string, from: number, to: number, fields: FieldOrder): { rank: number; elements: FieldOrder | undefined } | undefined {
  const f = fields.byShape.get(shape(t.charCodeAt(from), to - from));
  if (f && f.rank >= 0) return t.startsWith(f.name, from) ? f : undefined;
  const name = t.slice(from, to);
  const rank = fields.rank.get(name);
  return rank === undefined ? undefined : { rank, elements: fields.elements.get(name) };
}

/**
 * The object opening at `open` re-encoded in `fields`' order (with `resourceVersion` set to `rv`
 * when given; `rv` is a decimal revision), and where the original ends; undefined when a member is
 * not one of the fields or the text is not compact JSON.
 */
export function reencode(t: string, open: number, fields: FieldOrder, rv?: string): { text: string; end: number } | undefined {
  if (t.charCodeAt(open) !== openBrace) return undefined;
  const placed: (string | undefined)[] = new Array(fields.size);
  let i = open + 1;
  let end: number;
  if (t.charCodeAt(i) === closeBrace) end = i + 1;
  else {
    for (;;) {
      if (t.charCodeAt(i) !== quote) return undefined;
      const k = skipString(t, i);
      if (k < 0 || t.charCodeAt(k) !== colon) return undefined;
      const valueEnd = skipValue(t, k + 1);
      if (valueEnd < 0) return undefined;
      const f = fieldAt(t, i + 1, k - 1, fields);
      if (!f) return undefined;
      const text = f.elements ? reencodeList(t, i, k + 1, valueEnd, f.elements) : t.slice(i, valueEnd);
      if (text === undefined) return undefined;
      placed[f.rank] = text;
      const c = t.charCodeAt(valueEnd);
      if (c === closeBrace) {
        end = valueEnd + 1;
        break;
      }
      if (c !== comma) return undefined;
      i = valueEnd + 1;
    }
  }
  if (rv !== undefined) {
    const rank = fields.rank.get('resourceVersion');
    if (rank === undefined) return undefined;
    placed[rank] = '"resourceVersion":"' + rv + '"';
  }
  let text = '{';
  for (let r = 0; r < placed.length; r++) {
    const p = placed[r];
    if (p !== undefined) text = text.length === 1 ? text + p : text + ',' + p;
  }
  return { text: text + '}', end };
}

/** A member whose value is a list of structs (at `value`, ending at `end`), each element re-encoded. */
function reencodeList(t: string, start: number, value: number, end: number, fields: FieldOrder): string | undefined {
  if (t.charCodeAt(value) !== openBracket) return t.slice(start, end);
  let out = t.slice(start, value + 1);
  let i = value + 1;
  while (i < end - 1) {
    const e = reencode(t, i, fields);
    if (!e) return undefined;
    out += (i > value + 1 ? ',' : '') + e.text;
    i = e.end;
    if (t.charCodeAt(i) === comma) i++;
  }
  return out + ']';
}

/**
 * The object opening at `open` with `resourceVersion` inserted before the first member that sorts
 * after it (as a store without a codec serves its sorted metadata), and where the original ends.
 */
export function insertSorted(t: string, open: number, rv: string): { text: string; end: number } | undefined {
  const m = scanObject(t, open);
  if (!m) return undefined;
  const field = `"resourceVersion":${JSON.stringify(rv)}`;
  let i = 0;
  while (i < m.keys.length && m.keys[i]! <= 'resourceVersion') i++;
  if (i === m.keys.length) return { text: t.slice(open, m.end - 1) + (i > 0 ? ',' : '') + field + '}', end: m.end };
  return { text: t.slice(open, m.starts[i]) + field + ',' + t.slice(m.starts[i], m.end), end: m.end };
}
