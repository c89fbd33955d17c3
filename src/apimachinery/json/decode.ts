/**
 * Decoding JSON text as kube-apiserver's JSON serializer does: Go's encoding/json syntax errors
 * and nesting limit, and the duplicate fields its strict decoding reports for `fieldValidation`.
 * The server decodes request bodies with it; `validate` decodes JSON manifests with it.
 */
import { findDuplicateFields } from './strict.ts';
import { goJSONSyntaxError } from './go-json.ts';
import { nestingDepthError } from './depth.ts';

export interface DecodedBody {
  value: unknown;
  /** Paths of duplicate fields (strict decoding errors `duplicate field "<path>"`). */
  duplicates: string[];
  /**
   * Other strict decoding errors, worded: a YAML body's duplicate keys, as go-yaml's strict
   * decode words them (`yaml: unmarshal errors:\n  line 2: key "a" already set in map`).
   */
  strictErrors?: string[];
}

/** A body that is not valid JSON; `message` is Go's encoding/json syntax error text. */
export class JSONSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JSONSyntaxError';
  }
}

/**
 * Parses JSON text; syntax errors, and nesting deeper than Go's decoder allows, throw
 * JSONSyntaxError with Go's message. JSON.parse itself does not recurse, so the depth is checked
 * after it, where the text is known to be valid and depth is the only error left.
 */
export function decodeJSON(text: string): DecodedBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new JSONSyntaxError(goJSONSyntaxError(text) ?? (e instanceof Error ? e.message : String(e)));
  }
  const tooDeep = nestingDepthError(text);
  if (tooDeep !== undefined) throw new JSONSyntaxError(tooDeep);
  const duplicates = value !== null && typeof value === 'object' && mayHaveDuplicates(text, value) ? findDuplicateFields(text) : [];
  return { value, duplicates };
}

/**
 * The number of closing quotes followed by a colon (JSON whitespace between them allowed): every
 * object key's end is one, and little else is. Counted from each colon back, without building a
 * match per key (a large CRD has hundreds of thousands). A quote after an odd run of backslashes
 * is escaped, inside a string, and never a key's end: descriptions that quote JSON (`\"key\": 1`)
 * made one CRD file in eight take the full duplicate search.
 */
function keyEndCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    let j = i - 1;
    let c = text.charCodeAt(j);
    while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(--j);
    if (c !== 34) continue;
    let b = j - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((j - 1 - b) % 2 === 0) n++;
  }
  return n;
}

/** Number of object keys in a parsed JSON value (duplicates counted once, as JSON.parse keeps them); an explicit stack, as values nest deep. */
function parsedKeyCount(root: unknown): number {
  let n = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push(x);
      continue;
    }
    for (const k in v as Record<string, unknown>) {
      n++;
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
  return n;
}

/**
 * False only when `text` certainly has no duplicate keys: each key in the text ends in a quote and
 * a colon (string values add such ends only rarely), so as many of them as parsed keys leaves no key
 * JSON.parse could have folded. Saves the scan for the bodies clients normally send.
 */
function mayHaveDuplicates(text: string, value: unknown): boolean {
  return keyEndCount(text) !== parsedKeyCount(value);
}
