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
}

function order(fields: ReadonlySet<string>, elements: Record<string, FieldOrder> = {}): FieldOrder {
  return { rank: new Map([...fields].map((f, i) => [f, i])), elements: new Map(Object.entries(elements)) };
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

/**
 * The object opening at `open` re-encoded in `fields`' order (with `resourceVersion` set to `rv`
 * when given), and where the original ends; undefined when a member is not one of the fields.
 */
export function reencode(t: string, open: number, fields: FieldOrder, rv?: string): { text: string; end: number } | undefined {
  const m = scanObject(t, open);
  if (!m) return undefined;
  const placed: (string | undefined)[] = [];
  for (let i = 0; i < m.keys.length; i++) {
    const key = m.keys[i]!;
    const rank = fields.rank.get(key);
    if (rank === undefined) return undefined;
    const valueEnd = i + 1 < m.keys.length ? m.starts[i + 1]! - 1 : m.end - 1;
    const elements = fields.elements.get(key);
    let text: string | undefined;
    if (elements) text = reencodeList(t, m.starts[i]!, m.values[i]!, valueEnd, elements);
    else text = t.slice(m.starts[i], valueEnd);
    if (text === undefined) return undefined;
    placed[rank] = text;
  }
  if (rv !== undefined) {
    const rank = fields.rank.get('resourceVersion');
    if (rank === undefined) return undefined;
    placed[rank] = `"resourceVersion":${JSON.stringify(rv)}`;
  }
  let text = '{';
  for (const p of placed) if (p !== undefined) text += (text.length > 1 ? ',' : '') + p;
  return { text: text + '}', end: m.end };
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
