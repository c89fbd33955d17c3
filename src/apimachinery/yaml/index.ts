/**
 * The project's one YAML reader, as kubectl and kube-apiserver read YAML (sigs.k8s.io/yaml over
 * go-yaml v2): the `yaml` package parses (with libyaml's rule for multi-line quoted scalars), and
 * this folder resolves scalars, keys, merges and aliases as go-yaml does and converts the result
 * to JSON data as sigs.k8s.io/yaml does. Errors carry Go's messages. `yamlToJSON` reads a request
 * body; `readYAMLStream` reads a manifest file document by document, as kubectl's reader splits it.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, Parser, type CST, type Node } from 'yaml';
import { kubeLexer } from './lexer.ts';
import { composeDocument } from './compose.ts';
import { findDepthExceeded, maxDepth } from './depth.ts';
import { decodeDocument, YAMLDecodeError, type DuplicateKey } from './decode.ts';
import { toJSONData } from './tojson.ts';
import { blockOffsetOf, blockPositions, readBlockYAML, type BlockPositions } from './block-reader.ts';

export { YAMLDecodeError, type DuplicateKey } from './decode.ts';
export { splitYAMLDocuments, isEmptyYAMLDocument, type YAMLChunk } from './split.ts';
import { isEmptyYAMLDocument, splitYAMLDocuments } from './split.ts';

export interface YAMLDocument {
  /** The document as JSON data (null for an empty document). */
  value: unknown;
  /** The duplicate keys a strict decode reports; the value keeps the last of each. */
  duplicates: DuplicateKey[];
  /** 1-based line and column of an offset in the text. */
  position(offset: number): { line: number; column: number };
  /**
   * The offset of the node at a path of keys and indices, or of its deepest existing ancestor
   * (keys compared as text; a key with no value gives the key's own position).
   */
  offsetOf(path: readonly (string | number)[]): number;
}

function offsetOf(root: Node | null, resolve: (n: Node) => Node, path: readonly (string | number)[]): number {
  let node = root === null ? null : resolve(root);
  if (node === null) return 0;
  for (const seg of path) {
    let next: Node | undefined;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      next = (pair?.value as Node | undefined) ?? (pair?.key as Node | undefined);
    } else if (isSeq(node) && typeof seg === 'number') {
      next = node.items[seg] as Node | undefined;
    }
    if (!next) break;
    node = resolve(next);
  }
  return node.range?.[0] ?? 0;
}

/** strict decoding's message for duplicate keys: `yaml: unmarshal errors:\n  line 2: key "a" already set in map`. */
export function duplicateKeysMessage(duplicates: DuplicateKey[]): string {
  return `yaml: unmarshal errors:\n  ${duplicates.map((d) => d.message).join('\n  ')}`;
}

/** The parser's messages that go-yaml words differently, in go-yaml's words. */
const goYAMLMessages: Record<string, string> = {
  // `a: b: c`
  'Nested mappings are not allowed in compact mappings': 'mapping values are not allowed in this context',
};

/** go-yaml's `line N: ` prefix for a scanner or parser problem at a 0-based line (none on the first). */
function atLine(line0: number): string {
  return line0 === 0 ? '' : `line ${line0 + 1}: `;
}

/**
 * The first document of the stream as a CST token (go-yaml reads no further) with the directives
 * before it, and the text's line offsets.
 */
function firstDocument(text: string): { prelude: CST.Token[]; doc: CST.Document | undefined; lines: LineCounter } {
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  (parser as unknown as { lexer: unknown }).lexer = kubeLexer();
  const prelude: CST.Token[] = [];
  let doc: CST.Document | undefined;
  for (const t of parser.parse(text)) {
    if (doc === undefined) {
      if (t.type === 'document') doc = t;
      else if (t.type === 'error') {
        const p = lines.linePos(t.offset);
        throw new YAMLDecodeError(`yaml: ${atLine(p.line - 1)}${t.message}`, t.offset);
      } else prelude.push(t);
    } else if (t.type !== 'doc-end' && t.type !== 'comment' && t.type !== 'newline' && t.type !== 'space') {
      break;
    }
  }
  return { prelude, doc, lines };
}

/** 1-based line and column of offsets in `text`, its line starts found on first use. */
function positionsIn(text: string): (offset: number) => { line: number; column: number } {
  let lines: LineCounter | undefined;
  return (offset) => {
    if (lines === undefined) {
      lines = new LineCounter();
      lines.addNewLine(0);
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
    }
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
}

/**
 * Reads the first YAML document of `text` as sigs.k8s.io/yaml's YAMLToJSON does (the rest of the
 * stream is not read). Throws YAMLDecodeError with Go's message for what go-yaml or the JSON
 * conversion refuses. Plain block YAML is read directly (block-reader.ts); the rest by the
 * `yaml` package's parser and composer with go-yaml's rules.
 */
export function readYAML(text: string): YAMLDocument {
  const fast = readBlockYAML(text);
  if (fast === undefined) return readYAMLComposed(text);
  let pos: BlockPositions | undefined;
  const offsetOf = (path: readonly (string | number)[]): number => {
    if (path.length === 0) return fast.rootOffset;
    pos ??= blockPositions(text)!;
    return blockOffsetOf(pos, path);
  };
  return { value: fast.value, duplicates: [], position: positionsIn(text), offsetOf };
}

/** readYAML through the `yaml` package's parser and composer: every document go-yaml reads. */
export function readYAMLComposed(text: string): YAMLDocument {
  const { prelude, doc, lines } = firstDocument(text);
  const position = (offset: number) => {
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
  if (doc === undefined) return { value: null, duplicates: [], position, offsetOf: () => 0 };
  const deep = findDepthExceeded(doc);
  if (deep) {
    throw new YAMLDecodeError(`yaml: ${atLine(position(deep.offset).line - 1)}exceeded max depth of ${maxDepth}`, deep.offset);
  }
  const composed = composeDocument(prelude, doc, { schema: 'failsafe', version: '1.1', uniqueKeys: false, intAsBigInt: false });
  const first = composed.errors[0];
  if (first) {
    const text = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const reason = goYAMLMessages[text] ?? text;
    throw new YAMLDecodeError(`yaml: ${atLine(position(first.offset).line - 1)}${reason}`, first.offset);
  }
  const decoded = decodeDocument(composed.root, (offset) => position(offset).line, composed.resolvePlaceholder);
  const { root, resolvePlaceholder: resolve } = composed;
  return { value: toJSONData(decoded.value), duplicates: decoded.duplicates, position, offsetOf: (path) => offsetOf(root, resolve, path) };
}

/** sigs.k8s.io/yaml.YAMLToJSON of a request body: its JSON data and the duplicate keys strict decoding reports. */
export function yamlToJSON(text: string): { value: unknown; duplicates: DuplicateKey[] } {
  const d = readYAML(text);
  return { value: d.value, duplicates: d.duplicates };
}

/**
 * Every document of a YAML stream as kubectl reads a manifest file (cut at `---` lines, each read
 * as above), documents of only comments skipped. Throws YAMLDecodeError for the first document
 * that cannot be read (or an invalid separator line).
 */
export function readYAMLDocuments(text: string): unknown[] {
  const { chunks, error } = splitYAMLDocuments(text);
  const out: unknown[] = [];
  for (const c of chunks) {
    if (isEmptyYAMLDocument(c.text)) continue;
    out.push(readYAML(c.text).value);
  }
  if (error) throw new YAMLDecodeError(error.message, error.offset);
  return out;
}
