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

  function value(path: string): void {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const key = readString();
        const child = path === '' ? key : `${path}.${key}`;
        if (seen.has(key)) out.push(child);
        else seen.add(key);
        ws();
        i++; // ':'
        value(child);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        i++; // '}'
        return;
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let idx = 0; ; idx++) {
        value(`${path}[${idx}]`);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        i++; // ']'
        return;
      }
    } else if (c === '"') {
      readString();
    } else {
      skipScalar();
    }
  }

  value('');
  return out;
}
