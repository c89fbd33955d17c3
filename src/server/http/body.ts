/**
 * Request bodies: read with kube-apiserver's 3 MiB cap (413 past it), then decode by Content-Type
 * (JSON, YAML, and the protobuf envelope of built-in kinds). JSON bodies are
 * also scanned for duplicate fields and YAML bodies for duplicate keys, which `fieldValidation`
 * reports.
 */
import type { IncomingMessage } from 'node:http';
import { newBadRequest, newRequestEntityTooLarge, newUnsupportedMediaType, StatusError } from '../../apimachinery/index.ts';
import { duplicateKeysMessage, yamlToJSON, YAMLDecodeError } from '../../apimachinery/index.ts';
import { findDuplicateFields } from './strictjson.ts';
import { goJSONSyntaxError } from '../../apimachinery/index.ts';
import { nestingDepthError } from '../../apimachinery/index.ts';
import { decodeProtobufObject, type ProtobufTarget } from './protobuf.ts';

/** kube-apiserver's MaxRequestBodyBytes. */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/** Reads the whole body; rejects with 413 once more than `limit` bytes arrive. */
export function readBody(req: IncomingMessage, limit = maxRequestBodyBytes): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(newRequestEntityTooLarge(`limit is ${limit}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(newRequestEntityTooLarge(`limit is ${limit}`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) {
        failed = true;
        reject(e);
      }
    });
  });
}

/** The media type of a Content-Type header without parameters, lower-cased; JSON when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined || contentType.trim() === '') return 'application/json';
  return contentType.split(';')[0]!.trim().toLowerCase();
}

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

/** Media types an object body may use; protobuf only where `allowProtobuf`. */
export function objectMediaTypes(allowProtobuf: boolean | ProtobufTarget): string[] {
  return allowProtobuf
    ? ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']
    : ['application/json', 'application/yaml'];
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

/**
 * A YAML body sigs.k8s.io/yaml cannot convert: a 400 whose message (`detail`) is the converter's error
 * (`yaml: line 2: ...`, `json: unsupported value: NaN`), which a handler may word as its decoder does.
 */
export class YAMLSyntaxError extends StatusError {
  constructor(readonly detail: string) {
    super(newBadRequest(detail).status);
    this.name = 'YAMLSyntaxError';
  }
}

/**
 * Reads a YAML body as kube-apiserver does (sigs.k8s.io/yaml.YAMLToJSON: the first document, as
 * kubectl reads YAML); its duplicate keys are kept as the strict decoding error they make.
 */
export function decodeYAML(text: string): DecodedBody {
  try {
    const { value, duplicates } = yamlToJSON(text);
    return duplicates.length === 0 ? { value, duplicates: [] } : { value, duplicates: [], strictErrors: [duplicateKeysMessage(duplicates)] };
  } catch (e) {
    if (e instanceof YAMLDecodeError) throw new YAMLSyntaxError(e.message);
    throw e;
  }
}

/**
 * Decodes an object body by media type; 415 for one the endpoint does not take. The value is
 * whatever the document holds (callers check that it is an object). `allowProtobuf` is the type
 * a protobuf body must decode into (true: whichever kind its envelope names; false: 415).
 */
export function decodeObjectBody(body: Buffer, contentType: string | undefined, allowProtobuf: boolean | ProtobufTarget): DecodedBody {
  const mt = mediaTypeOf(contentType);
  switch (mt) {
    case 'application/json':
      return decodeJSON(body.toString('utf8'));
    case 'application/yaml':
    case 'application/x-yaml':
    case 'text/yaml':
      return decodeYAML(body.toString('utf8'));
    case 'application/vnd.kubernetes.protobuf':
      if (allowProtobuf !== false) return { value: decodeProtobufObject(body, allowProtobuf), duplicates: [] };
      break;
  }
  throw newUnsupportedMediaType(objectMediaTypes(allowProtobuf));
}

/** summarizeData: the start of a body for error messages (JSON as text, anything else as hex). */
export function summarizeData(data: Uint8Array, maxLength = 30): string {
  if (data.length === 0) return '<empty>';
  const b = Buffer.from(data);
  if (b[0] === 0x7b) return b.length > maxLength ? b.subarray(0, maxLength).toString('utf8') + ' ...' : b.toString('utf8');
  return b.length > maxLength ? b.subarray(0, maxLength).toString('hex') + ' ...' : b.toString('hex');
}
