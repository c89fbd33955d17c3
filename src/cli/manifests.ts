/**
 * Loading manifests for the offline commands: files and directories (recursively: .yaml, .yml,
 * .json), multi-document YAML, and the source position of any field of a document, so that errors
 * can be reported as `file:line:column`. YAML is read as Kubernetes reads it (sigs.k8s.io/yaml sits
 * on YAML 1.1: `yes`/`no`/`on`/`off` are booleans), and duplicate keys are errors.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { LineCounter, parseAllDocuments, isMap, isSeq, isScalar, isPair, type Node } from 'yaml';

export interface Manifest {
  file: string;
  /** 0-based index of the document in its file. */
  index: number;
  /** The document as JSON data. */
  object: unknown;
  /** Line and column (1-based) of the node at a rendered field path (`spec.ports[0].name`),
   * or of its deepest existing ancestor when the field is absent. */
  locate(fieldPath: string): { line: number; column: number };
}

/** A problem that makes input unusable (unreadable file, malformed YAML). */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);

/** Every manifest file under the given paths, in a stable order. */
export function collectFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string, explicit: boolean) => {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      throw new InputError(`cannot read ${p}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`);
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        if (name.startsWith('.')) continue;
        walk(join(p, name), false);
      }
    } else if (explicit || manifestExtensions.has(extname(p).toLowerCase())) {
      out.push(p);
    }
  };
  for (const p of paths) walk(p, true);
  return out;
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

/** Parse one file into its documents. Empty documents (only comments) are skipped. */
export function loadManifests(file: string): Manifest[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, version: '1.1', uniqueKeys: true, prettyErrors: false });
  if (!Array.isArray(docs)) {
    throw new InputError(`${file}: not a YAML stream`);
  }
  const out: Manifest[] = [];
  docs.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      const err = doc.errors[0]!;
      const pos = lc.linePos(err.pos[0]);
      throw new InputError(`${file}:${pos.line}:${pos.col}: malformed YAML: ${err.message.split('\n')[0]}`);
    }
    if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) return;
    const object = doc.toJS({ maxAliasCount: 100 });
    const root = doc.contents as Node;
    const locate = (fieldPath: string) => {
      let node: Node = root;
      for (const seg of pathSegments(fieldPath)) {
        let next: Node | undefined;
        if (isMap(node)) {
          const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
          next = (pair?.value as Node | undefined) ?? (pair?.key as Node | undefined);
        } else if (isSeq(node) && typeof seg === 'number') {
          next = node.items[seg] as Node | undefined;
        }
        if (!next) break;
        node = next;
      }
      const pos = lc.linePos(node.range?.[0] ?? 0);
      return { line: pos.line, column: pos.col };
    };
    out.push({ file, index, object, locate });
  });
  return out;
}
