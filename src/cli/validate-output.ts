/**
 * What `validate` prints, whoever judged the documents (this thread or a pool of workers): the
 * problems of unreadable input on stderr, each document's lines as text on stdout in input order,
 * or, with `--output json`, one result per document (and per unreadable document or file, in its
 * place among its file's documents) printed at the end; then the summary line and the exit code
 * (0 all valid, 1 some invalid, 2 some input unusable). The documents arrive already rendered
 * (validate-judge.ts), so that workers send plain data.
 */
import type { InputProblem } from './validate-files.ts';

/** One judged document, rendered for the output format in use. */
export interface RenderedDoc {
  file: string;
  /** 0-based index of the document in its file. */
  index: number;
  invalid: boolean;
  /** Text output: the document's lines (warnings, audit annotations, its failure), possibly empty. */
  text: string;
  /** JSON output: the document's result line. */
  record?: Record<string, unknown>;
}

/** A file's outcome as its judge reports it; `fatal` when judging had to stop (the run exits 2). */
export interface FileReport {
  problems: InputProblem[];
  docs: RenderedDoc[];
  fatal?: string;
}

/** The Status kube-apiserver answers with for what it refuses outright. */
export function failureStatus(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

function problemLine(p: InputProblem): string {
  return `crd-apiserver validate: ${p.message.startsWith('cannot read ') ? p.message : `${p.file}:${p.line}:${p.column}: ${p.message}`}\n`;
}

export class ValidateOutput {
  private docs: RenderedDoc[] = [];
  private problems: InputProblem[] = [];
  private count = 0;
  private invalid = 0;

  constructor(
    private readonly format: 'text' | 'json',
    private readonly out: (s: string) => void,
    private readonly err: (s: string) => void,
  ) {}

  /** Input that cannot be read, reported on stderr at once. */
  addProblems(ps: readonly InputProblem[]): void {
    for (const p of ps) {
      this.problems.push(p);
      this.err(problemLine(p));
    }
  }

  /** The next document in input order. */
  addDoc(d: RenderedDoc): void {
    this.count++;
    if (d.invalid) this.invalid++;
    if (this.format === 'json') this.docs.push(d);
    else if (d.text !== '') this.out(d.text);
  }

  get documents(): number {
    return this.count;
  }

  /** Prints what is held back (JSON results, the text summary); returns the exit code. */
  finish(): number {
    if (this.format === 'json') {
      for (const line of this.jsonLines()) this.out(line);
    } else {
      const unreadable = this.problems.length > 0 ? `, ${this.problems.length} unreadable` : '';
      this.out(`${this.count} documents: ${this.count - this.invalid} valid, ${this.invalid} invalid${unreadable}\n`);
    }
    if (this.problems.length > 0) return 2;
    return this.invalid > 0 ? 1 : 0;
  }

  /**
   * The JSON result lines: a document that cannot be read gets what the server answers for a
   * body it cannot decode, before the next document of its file; a file that cannot be read (or
   * cut) after its last document, or at the end when none of its documents could be judged.
   */
  private jsonLines(): string[] {
    const results: Record<string, unknown>[] = [];
    const problemsOf = new Map<string, InputProblem[]>();
    for (const p of this.problems) problemsOf.set(p.file, [...(problemsOf.get(p.file) ?? []), p]);
    const flushProblems = (file: string, before: number) => {
      const ps = problemsOf.get(file);
      while (ps && ps.length > 0 && (ps[0]!.index ?? Number.MAX_SAFE_INTEGER) < before) {
        const p = ps.shift()!;
        const status = failureStatus(400, 'BadRequest', p.message);
        results.push(p.index === undefined ? { file: p.file, status } : { file: p.file, document: p.index + 1, status });
      }
    };
    let lastFile: string | undefined;
    for (const d of this.docs) {
      if (lastFile !== undefined && lastFile !== d.file) flushProblems(lastFile, Infinity);
      flushProblems(d.file, d.index);
      lastFile = d.file;
      results.push(d.record!);
    }
    for (const file of problemsOf.keys()) flushProblems(file, Infinity);
    return results.map((r) => JSON.stringify(r) + '\n');
  }
}
