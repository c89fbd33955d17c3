/**
 * String and bytes literal decoding, as cel-go's parser/unescape.go: strips quotes (single, double,
 * triple, raw `r` prefix), normalises newlines, and decodes escapes (`\n`, `\x41`, `\101`, `\u263A`,
 * `\U0001F600`, ...). Errors carry cel-go's messages.
 */

export type UnescapeResult = { ok: true; value: string | Uint8Array } | { ok: false; error: string };

const SIMPLE: Record<string, number> = {
  a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, "'": 39, '"': 34, '`': 96, '?': 63,
};

function hexVal(c: string | undefined): number {
  if (c === undefined) return -1;
  const x = c.charCodeAt(0);
  if (x >= 48 && x <= 57) return x - 48;
  if (x >= 97 && x <= 102) return x - 87;
  if (x >= 65 && x <= 70) return x - 55;
  return -1;
}

function validRune(v: number): boolean {
  return v <= 0x10ffff && !(v >= 0xd800 && v <= 0xdfff);
}

/**
 * Decodes a quoted literal (the token text without any `b` prefix). For bytes, the result is a
 * Uint8Array: characters are UTF-8 encoded, `\x`/octal escapes are raw bytes, `\u`/`\U` are errors.
 */
export function unescape(quoted: string, isBytes: boolean): UnescapeResult {
  let value = quoted.replace(/\r\n?/g, '\n');
  if (value.length < 2) return { ok: false, error: 'unable to unescape string' };
  let raw = false;
  if (value[0] === 'r' || value[0] === 'R') {
    value = value.slice(1);
    raw = true;
  }
  const n = value.length;
  const q = value[0];
  if (n === 0 || q !== value[n - 1] || (q !== '"' && q !== "'")) {
    return { ok: false, error: 'unable to unescape string' };
  }
  let body: string;
  if (n >= 6 && (value.startsWith("'''") || value.startsWith('"""'))) {
    if (!value.endsWith(value.slice(0, 3))) return { ok: false, error: 'unable to unescape string' };
    body = value.slice(3, n - 3);
  } else {
    body = value.slice(1, n - 1);
  }
  if (raw || !body.includes('\\')) return { ok: true, value: isBytes ? new TextEncoder().encode(body) : body };

  const bytes: number[] = [];
  let str = '';
  const pushRune = (r: number): void => {
    if (isBytes) {
      for (const b of new TextEncoder().encode(String.fromCodePoint(r))) bytes.push(b);
    } else str += String.fromCodePoint(r);
  };
  const cps = Array.from(body);
  let i = 0;
  while (i < cps.length) {
    const c = cps[i]!;
    if (c !== '\\') {
      pushRune(c.codePointAt(0)!);
      i++;
      continue;
    }
    if (i + 1 >= cps.length) return { ok: false, error: "unable to unescape string, found '\\' as last character" };
    const e = cps[i + 1]!;
    i += 2;
    const simple = SIMPLE[e];
    if (simple !== undefined) {
      pushRune(simple);
      continue;
    }
    if (e === 'x' || e === 'X' || e === 'u' || e === 'U') {
      const count = e === 'u' ? 4 : e === 'U' ? 8 : 2;
      if (isBytes && (e === 'u' || e === 'U')) return { ok: false, error: 'unable to unescape string' };
      let v = 0;
      for (let j = 0; j < count; j++) {
        const h = hexVal(cps[i + j]);
        if (h < 0) return { ok: false, error: 'unable to unescape string' };
        v = v * 16 + h;
      }
      i += count;
      if (isBytes) {
        bytes.push(v);
        continue;
      }
      if (!validRune(v)) return { ok: false, error: 'invalid unicode code point' };
      pushRune(v);
      continue;
    }
    if (e >= '0' && e <= '3') {
      let v = e.charCodeAt(0) - 48;
      for (let j = 0; j < 2; j++) {
        const d = cps[i + j];
        if (d === undefined || d < '0' || d > '7') {
          return { ok: false, error: 'unable to unescape octal sequence in string' };
        }
        v = v * 8 + (d.charCodeAt(0) - 48);
      }
      i += 2;
      if (isBytes) bytes.push(v);
      else pushRune(v);
      continue;
    }
    return { ok: false, error: 'unable to unescape string' };
  }
  return { ok: true, value: isBytes ? Uint8Array.from(bytes) : str };
}
