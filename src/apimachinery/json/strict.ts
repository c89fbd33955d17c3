/**
 * Duplicate-field detection for JSON request bodies, as sigs.k8s.io/json's strict decoder reports
 * it for `fieldValidation`: each repeated key yields its path (`spec.cronSpec`, `items[0].a`), in
 * document order. Values themselves come from JSON.parse (which keeps the last duplicate, as Go's
 * decoder does); this scanner only walks the text, so it costs one pass over the body.
 */

/** Paths of duplicate object keys in `text`, which must already be valid JSON. */
export function findDuplicateFields(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = text.length;

  function ws(): void {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  }

  function readString(): string {
    // text[i] === '"'
    const start = ++i;
    let escaped = false;
    for (;;) {
      const j = text.indexOf('"', i);
      if (j < 0) throw new Error('unterminated string');
      let k = j - 1;
      let backslashes = 0;
      while (k >= start && text.charCodeAt(k) === 0x5c) {
        backslashes++;
        k--;
      }
      if (text.indexOf('\\', i) >= 0 && text.indexOf('\\', i) < j) escaped = true;
      i = j + 1;
      if (backslashes % 2 === 0) break;
    }
    const raw = text.slice(start, i - 1);
    return escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  function skipScalar(): void {
    while (i < n) {
      const c = text[i];
      if (c === ',' || c === '}' || c === ']' || c === ' ' || c === '\n' || c === '\r' || c === '\t') break;
      i++;
    }
  }

  // Open containers, innermost last (an explicit stack: bodies nest up to 10000 levels).
  // An object frame holds the keys seen so far, an array frame the next index.
  type Frame = { path: string; seen: Set<string> | undefined; index: number };
  const open: Frame[] = [];
  const memberPath = (f: Frame): string => {
    // At an object member: read its key (and the colon) and report a repeat.
    ws();
    const key = readString();
    const child = f.path === '' ? key : `${f.path}.${key}`;
    if (f.seen!.has(key)) out.push(child);
    else f.seen!.add(key);
    ws();
    i++; // ':'
    return child;
  };
  let path = '';
  for (;;) {
    ws();
    const c = text[i];
    let opened = false;
    if (c === '{' || c === '[') {
      i++;
      ws();
      if (text[i] === (c === '{' ? '}' : ']')) i++;
      else {
        const f: Frame = { path, seen: c === '{' ? new Set() : undefined, index: 0 };
        open.push(f);
        path = f.seen ? memberPath(f) : `${f.path}[0]`;
        opened = true;
      }
    } else if (c === '"') readString();
    else skipScalar();
    if (opened) continue;
    // After a value: close containers until one has another member.
    let next = false;
    while (open.length > 0 && !next) {
      ws();
      if (text[i++] === ',') {
        const f = open[open.length - 1]!;
        path = f.seen ? memberPath(f) : `${f.path}[${++f.index}]`;
        next = true;
      } else open.pop();
    }
    if (!next) return out;
  }
}
