/**
 * Loading manifests for the offline commands: files and directories (recursively: .yaml, .yml,
 * .json), multi-document YAML cut as kubectl cuts it, each document read by the project's YAML
 * reader (apimachinery/yaml: as kubectl and kube-apiserver read YAML), and the source position of
 * any field, so that errors can be reported as `file:line:column`. A file starting with `{` is
 * JSON, as kubectl's reader decides, and is sent as is. What cannot be read is reported per
 * document (or per file, when the file cannot be cut) and the other documents are still loaded.
 */
import { readFileSync } from 'node:fs';
import { decodeJSON, duplicateKeysMessage, isEmptyYAMLDocument, JSONSyntaxError, readYAML, splitYAMLDocuments, YAMLDecodeError, type YAMLDocument } from '../apimachinery/index.ts';
import { InputError, type InputProblem } from './validate-files.ts';

export { collectFiles, InputError, type InputProblem } from './validate-files.ts';

export interface Manifest {
  file: string;
  /** 0-based index of the document in its file. */
  index: number;
  /** The document as JSON data. */
  object: unknown;
  /** Only blank lines and comments: kubectl skips it, kubectl-validate judges it a Success. */
  empty: boolean;
  /** Paths of a JSON document's duplicate fields (strict decoding's `duplicate field "x"`). */
  duplicateFields: string[];
  /** A YAML document's duplicate keys: strict decoding's error, and where each key's value is. */
  strictErrors: string[];
  duplicateKeys: { message: string; line: number; column: number }[];
  /** Line and column (1-based) of the node at a rendered field path (`spec.ports[0].name`),
   * or of its deepest existing ancestor when the field is absent. */
  locate(fieldPath: string): { line: number; column: number };
}


/** Split a rendered field path into segments: names, and bracketed indices or keys. */
export function pathSegments(fieldPath: string): (string | number)[] {
  const segs: (string | number)[] = [];
  let i = 0;
  let cur = '';
  while (i < fieldPath.length) {
    const c = fieldPath[i]!;
    if (c === '.') {
      if (cur) segs.push(cur);
      cur = '';
      i++;
    } else if (c === '[') {
      if (cur) segs.push(cur);
      cur = '';
      const end = fieldPath.indexOf(']', i);
      const inner = end < 0 ? fieldPath.slice(i + 1) : fieldPath.slice(i + 1, end);
      segs.push(/^\d+$/.test(inner) ? Number(inner) : inner);
      i = end < 0 ? fieldPath.length : end + 1;
    } else {
      cur += c;
      i++;
    }
  }
  if (cur) segs.push(cur);
  return segs;
}

/** Line and column in the file of an offset in a document that starts at `startLine` (0-based lines before it). */
function shifted(p: { line: number; column: number }, startLine: number): { line: number; column: number } {
  return { line: p.line + startLine, column: p.column };
}

function lineOfOffset(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return { line, column: offset - last };
}


/**
 * One file's documents and what in it cannot be read. Empty documents are kept (`empty`); a
 * document the reader refuses is a problem with the reader's message (`error converting YAML to
 * JSON: yaml: line 3: ...`, its line counted in the document, as kubectl counts it) and its
 * position in the file.
 */
export function readManifests(file: string): { manifests: Manifest[]; problems: InputProblem[] } {
  const manifests: Manifest[] = [];
  const problems: InputProblem[] = [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    problems.push({ file, line: 1, column: 1, message: `cannot read ${file}: ${(e as Error).message}` });
    return { manifests, problems };
  }
  if (/^\s*\{/.test(text)) {
    try {
      const d = decodeJSON(text);
      // Positions are read (by the YAML reader, which keeps them) only when an error is reported:
      // reading them costs several times the JSON parse, and CRD files never need them.
      let doc: YAMLDocument | null | undefined;
      const positions = (): YAMLDocument | null => {
        if (doc === undefined) {
          try {
            doc = readYAML(text);
          } catch {
            doc = null; // positions are a nicety; JSON that YAML cannot compose is still JSON
          }
        }
        return doc;
      };
      const locate = (fieldPath: string) => {
        const p = positions();
        return p ? p.position(p.offsetOf(pathSegments(fieldPath))) : { line: 1, column: 1 };
      };
      manifests.push({ file, index: 0, object: d.value, empty: false, duplicateFields: d.duplicates, strictErrors: [], duplicateKeys: [], locate });
    } catch (e) {
      if (!(e instanceof JSONSyntaxError)) throw e;
      problems.push({ file, index: 0, line: 1, column: 1, message: e.message });
    }
    return { manifests, problems };
  }
  const { chunks, error } = splitYAMLDocuments(text);
  // Lines before each chunk, counted on from the previous chunk's (once over the file).
  let counted = 0;
  let linesBefore = 0;
  chunks.forEach((chunk, index) => {
    for (let i = text.indexOf('\n', counted); i !== -1 && i < chunk.offset; i = text.indexOf('\n', i + 1)) linesBefore++;
    counted = chunk.offset;
    const startLine = linesBefore;
    if (isEmptyYAMLDocument(chunk.text)) {
      const at = { line: startLine + 1, column: 1 };
      manifests.push({ file, index, object: null, empty: true, duplicateFields: [], strictErrors: [], duplicateKeys: [], locate: () => at });
      return;
    }
    let doc: YAMLDocument;
    try {
      doc = readYAML(chunk.text);
    } catch (e) {
      if (!(e instanceof YAMLDecodeError)) throw e;
      const at = e.offset === undefined ? { line: startLine + 1, column: 1 } : shifted(lineOfOffset(chunk.text, e.offset), startLine);
      problems.push({ file, index, ...at, message: `error converting YAML to JSON: ${e.message}` });
      return;
    }
    const locate = (fieldPath: string) => shifted(doc.position(doc.offsetOf(pathSegments(fieldPath))), startLine);
    manifests.push({
      file,
      index,
      object: doc.value,
      empty: false,
      duplicateFields: [],
      strictErrors: doc.duplicates.length > 0 ? [duplicateKeysMessage(doc.duplicates)] : [],
      duplicateKeys: doc.duplicates.map((d) => ({ message: d.message.replace(/^line \d+: /, ''), ...shifted(doc.position(d.offset), startLine) })),
      locate,
    });
  });
  if (error) problems.push({ file, ...lineOfOffset(text, error.offset), message: error.message });
  return { manifests, problems };
}

/** One file's documents, or InputError for the first thing in it that cannot be read. */
export function loadManifests(file: string): Manifest[] {
  const { manifests, problems } = readManifests(file);
  const p = problems[0];
  if (p) throw new InputError(p.message.startsWith('cannot read ') ? p.message : `${p.file}:${p.line}:${p.column}: ${p.message}`);
  return manifests.filter((m) => !m.empty);
}
