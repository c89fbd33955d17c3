/**
 * A manifest file cut into documents as kubectl cuts it (k8s.io/apimachinery's YAMLReader): at
 * every line that starts with `---`, which may be followed only by blanks and a comment (anything
 * else is `invalid Yaml document separator`). A separator ends the document before it and is not
 * part of the next one, except when it opens the file (or follows only other separators), where it
 * stays the first line of its document. kubectl-validate judges each part, and one holding only
 * blank lines, comments and separators as an empty document.
 */

export interface YAMLChunk {
  text: string;
  /** Offset of the chunk's first character in the file. */
  offset: number;
}

/** The file's documents; throws Error(`invalid Yaml document separator: ...`) where kubectl's reader does. */
export function splitYAMLDocuments(text: string): { chunks: YAMLChunk[]; error?: { message: string; offset: number } } {
  const chunks: YAMLChunk[] = [];
  let start = 0;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl + 1;
    const line = text.slice(pos, end);
    if (line.startsWith('---')) {
      const rest = line.slice(3).trim();
      if (rest.length > 0 && rest[0] !== '#') {
        return { chunks, error: { message: `invalid Yaml document separator: ${rest}`, offset: pos } };
      }
      if (pos > start) {
        chunks.push({ text: text.slice(start, pos), offset: start });
        start = end;
      }
    }
    pos = end;
  }
  if (pos > start) chunks.push({ text: text.slice(start, pos), offset: start });
  return { chunks };
}

/** kubectl-validate's IsEmptyYamlDocument: only blank lines, comments and `---`. */
export function isEmptyYAMLDocument(text: string): boolean {
  // Line by line without splitting the text: a document's first content line ends the search.
  for (let pos = 0; pos <= text.length; ) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(pos, end).trim();
    if (line !== '' && !line.startsWith('#') && line !== '---') return false;
    pos = end + 1;
  }
  return true;
}
