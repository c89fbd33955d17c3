/**
 * The nesting bound every decoder enforces: Go's encoding/json (and sigs.k8s.io/json, which
 * kube-apiserver decodes with) refuses values nested more than 10000 levels deep, and so do we,
 * with the same words. The walks over decoded values rely on this bound: a value that passed a
 * decoder is at most `maxNestingDepth` containers deep.
 */

/** encoding/json's maxNestingDepth (scanner.go). */
export const maxNestingDepth = 10000;

/**
 * Go's SyntaxError text for `text` once it opens more than maxNestingDepth containers
 * (`invalid character '[' exceeded max depth`), else undefined. `text` must be valid JSON (as
 * JSON.parse accepted it), so depth is the first error Go's scanner meets. One pass over the
 * text, skipped when it is too short to nest that deep.
 */
export function nestingDepthError(text: string): string | undefined {
  const n = text.length;
  if (n <= maxNestingDepth) return undefined;
  // No more opening brackets than the bound (strings included) cannot nest past it; indexOf
  // counts them far faster than the scan below walks the text.
  if (fewOpenings(text, 0x7b) + fewOpenings(text, 0x5b) <= maxNestingDepth) return undefined;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string (most of a CRD's text: keys and descriptions) with indexOf, which walks
      // far faster than a loop over it: its end is the next quote after an even run of
      // backslashes.
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q < 0) return undefined;
        let b = q - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        i = q;
        if ((q - 1 - b) % 2 === 0) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxNestingDepth) return `invalid character '${text[i]}' exceeded max depth`;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

/** How many times the character occurs in text, counting stops just past maxNestingDepth. */
function fewOpenings(text: string, code: number): number {
  const ch = String.fromCharCode(code);
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0 && n <= maxNestingDepth; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/**
 * How many containers deep `v` nests (0 for a scalar), counted without recursion. Values the
 * server builds itself (patch results, defaults) are checked with this before they are stored.
 */
export function valueDepth(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (d > max) max = d;
    const children = Array.isArray(x) ? x : isPlain(x) ? Object.values(x as object) : [];
    for (const c of children) if (c !== null && typeof c === 'object') stack.push([c, d + 1]);
  }
  return max;
}

/** A JSON object as decoders make it (Object.prototype or no prototype). */
export function isPlain(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}
