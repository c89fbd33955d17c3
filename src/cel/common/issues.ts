/**
 * Compile-time issues (syntax and type errors) with source positions, printed exactly as cel-go's
 * `common.Errors.ToDisplayString()` prints them: sorted by line and column, each followed by the
 * source line and a caret line, at most 100 errors then `N more errors were truncated`.
 *
 * Shared by the parser and the checker. Offsets are code points into the expression text; -1 means
 * "no location" (cel-go's NoLocation, printed as line -1, column 0, without a snippet).
 */

/** One compile-time problem. */
export interface CelIssue {
  message: string;
  /** Code-point offset into the source, -1 when unknown. */
  offset: number;
  /** The expression node the issue is about, when known (0 / undefined when not). */
  exprId?: number;
}

/** cel-go's maxErrorsToReport. */
const MAX_ERRORS_TO_REPORT = 100;
/** cel-go's maxSnippetLength: longer lines are not echoed. */
const MAX_SNIPPET_LENGTH = 16384;

/**
 * A source text split into code points and lines, for offset -> line/column conversion and snippets.
 * Line and column are cel-go's: line 1-based, column 0-based in code points.
 */
export class CelSource {
  readonly text: string;
  readonly description: string;
  private cps?: string[];
  private starts?: number[];

  constructor(text: string, description = '<input>') {
    this.text = text;
    this.description = description;
  }

  /** Code points of text (as strings, so astral characters count once); computed on first use. */
  get codePoints(): string[] {
    return (this.cps ??= Array.from(this.text));
  }

  /** Code-point offsets at which each line starts; lineStarts[0] is 0. Computed on first use. */
  get lineStarts(): number[] {
    if (!this.starts) {
      const starts = [0];
      const t = this.text;
      let cp = 0;
      for (let i = 0; i < t.length; i++, cp++) {
        const c = t.charCodeAt(i);
        if (c === 10) starts.push(cp + 1);
        else if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length) {
          const d = t.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) i++;
        }
      }
      this.starts = starts;
    }
    return this.starts;
  }

  /** cel-go's OffsetLocation: {line 1-based, column 0-based}; offsets past the end stay on the last line. */
  location(offset: number): { line: number; column: number } {
    if (offset < 0) return { line: -1, column: -1 };
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! };
  }

  /** The text of a 1-based line without its newline, or undefined when there is no such line. */
  snippet(line: number): string | undefined {
    if (this.codePoints.length === 0) return undefined;
    if (line < 1 || line > this.lineStarts.length) return undefined;
    const start = this.lineStarts[line - 1]!;
    const end = line < this.lineStarts.length ? this.lineStarts[line]! - 1 : this.codePoints.length;
    return this.codePoints.slice(start, end).join('');
  }
}

/** Formats one issue as cel-go's `Error.ToDisplayString`. */
export function formatIssue(issue: CelIssue, source: CelSource): string {
  const { line, column } = source.location(issue.offset);
  let result = `ERROR: ${source.description}:${line}:${column + 1}: ${issue.message}`;
  const snippet = source.snippet(line);
  // cel-go compares the snippet's byte length against the cap.
  if (snippet !== undefined && Buffer.byteLength(snippet, 'utf8') <= MAX_SNIPPET_LENGTH) {
    const text = snippet.replaceAll('\t', ' ');
    const cps = Array.from(text);
    let ind = '\n | ';
    let i = 0;
    for (; i < column && i < cps.length; i++) ind += isWide(cps[i]!) ? '\uff0e' : '.';
    ind += i < cps.length && isWide(cps[i]!) ? '\uff3e' : '^';
    result += '\n | ' + text + ind;
  }
  return result;
}

/** cel-go switches to full-width dot/caret for any rune that takes more than one UTF-8 byte. */
function isWide(cp: string): boolean {
  return cp.codePointAt(0)! > 0x7f;
}

/**
 * Collects issues against one source. `toString()` renders them as cel-go's
 * `Errors.ToDisplayString()`; only the first 100 reported are kept, the rest are counted.
 */
export class Issues {
  readonly source: CelSource;
  private readonly list: CelIssue[] = [];
  private count = 0;

  constructor(source: CelSource | string = '', description = '<input>') {
    this.source = typeof source === 'string' ? new CelSource(source, description) : source;
  }

  /** Records an issue at a code-point offset (-1 when unknown). */
  report(offset: number, message: string, exprId?: number): void {
    this.count++;
    if (this.count > MAX_ERRORS_TO_REPORT) return;
    this.list.push(exprId === undefined ? { message, offset } : { message, offset, exprId });
  }

  /** Records an already-built issue. */
  add(issue: CelIssue): void {
    this.report(issue.offset, issue.message, issue.exprId);
  }

  /** Adds every issue of another collector (as cel-go's Errors.Append: the cap applies on display). */
  append(other: Issues): void {
    for (const e of other.list) this.list.push(e);
    this.count += other.count;
  }

  /** The kept issues, in the order reported. */
  get errors(): readonly CelIssue[] {
    return this.list;
  }

  /** How many issues were reported, including truncated ones. */
  get length(): number {
    return this.count;
  }

  hasErrors(): boolean {
    return this.count > 0;
  }

  /** cel-go's Errors.ToDisplayString(). */
  toString(): string {
    const src = this.source;
    const sorted = this.list
      .map((e, i) => ({ e, i, loc: src.location(e.offset) }))
      .sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column || a.i - b.i);
    const out: string[] = [];
    for (const { e } of sorted) {
      if (out.length >= MAX_ERRORS_TO_REPORT) break;
      out.push(formatIssue(e, src));
    }
    if (this.count > MAX_ERRORS_TO_REPORT) {
      out.push(`${this.count - MAX_ERRORS_TO_REPORT} more errors were truncated`);
    }
    return out.join('\n');
  }
}
