/**
 * Where a CEL message points: cel-go writes compile issues as `ERROR: <input>:LINE:COL: text`
 * followed by the source line and a caret; the playground shows the first issue's position and
 * marks it in the expression editor.
 */

export interface Position {
  line: number;
  column: number;
}

/** The position of the first `<input>:L:C:` in a message (1-based line and column), if any. */
export function issuePosition(message: string): Position | undefined {
  const m = /<input>:(\d+):(\d+):/.exec(message);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : undefined;
}

/** The offset in `text` of a 1-based line and column (clamped to the text). */
export function offsetAt(text: string, p: Position): number {
  let offset = 0;
  for (let line = 1; line < p.line; line++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  return Math.min(text.length, offset + Math.max(0, p.column - 1));
}
