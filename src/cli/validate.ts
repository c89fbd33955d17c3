/**
 * `crd-apiserver validate [--crds PATH ...] [--old FILE_OR_DIR] [--output text|json] FILE_OR_DIR...`
 *
 * Validates manifests offline with the server's own stores, as a dry-run create over an in-memory
 * SQLite store (prune with strict unknown-field checks, default, ObjectMeta, schema): each
 * document is judged as kube-apiserver would judge `kubectl create --validate=strict` of it. The
 * built-in kinds (Kubernetes 1.35's, from its OpenAPI documents, as the server serves them) need
 * no flag; custom resources are judged by the CRDs under --crds, Namespaces and CRDs in the
 * inputs as the server judges them too. Text output names the failing document and each field as
 * `file:line:column`; `--output json` prints, per document, the Status kube-apiserver would
 * answer. A file or document that cannot be read is reported on its own and the others are still
 * judged. With --policies, the admission policies, bindings and params found there are held by
 * the store and run on every document's write (see policies.ts): denials are the Status the server
 * answers, warnings and audit annotations are printed with the document, and in JSON output the
 * object after the MutatingAdmissionPolicies too. `--show-defaulted` (with `--output json`) adds,
 * for each valid document, the object the server would store: defaulted, in Go's JSON shape.
 * Exit codes: 0 all valid, 1 some invalid, 2 some input unusable.
 *
 * Large inputs are judged by a pool of worker threads over whole files (validate-pool.ts), the
 * output unchanged; this module loads nothing heavy itself, so that the pool's coordinator and
 * `--help` start fast, and the stores (validate-judge.ts) are loaded only by the thread that
 * judges.
 */
import { availableParallelism } from 'node:os';
import { statSync } from 'node:fs';
import { collectFiles, InputError, type InputProblem } from './validate-files.ts';
import { ValidateOutput, type RenderedDoc } from './validate-output.ts';
import { Progress, progressWanted } from './validate-progress.ts';
import type { JudgeOptions } from './validate-judge.ts';

const usage = `usage: crd-apiserver validate [--crds PATH ...] [--policies PATH ...] [--old FILE_OR_DIR] [--output text|json [--show-defaulted]] [--jobs N] FILE_OR_DIR...

Validates YAML or JSON manifests (multi-document files, directories recursively) offline, as
kube-apiserver would on create: built-in kinds (Kubernetes 1.35) by their own schemas, custom
resources by the CustomResourceDefinitions found under --crds; with
--old, a document whose object (same kind, namespace and name) is found there is judged as an
update of it, so transition rules (oldSelf) run.
With --policies, the ValidatingAdmissionPolicies, their bindings and their params (ConfigMaps,
custom resources, Namespaces) found there run on every document as on a server holding them:
denials, warnings and audit annotations are printed per document; MutatingAdmissionPolicies
run first, and --output json prints each document's mutated object as "object".
With --output json --show-defaulted, each valid document's "object" is what the server would
store: the kind's defaults applied, as kubectl get -o json of the created object shows it.
A file or document that cannot be read (malformed YAML, an unreadable file) is reported and
the rest still judged.
Inputs of 1 MiB or more are judged on several threads over files, one per two CPUs (--jobs N sets
how many, whatever the size; --jobs 1 judges on one thread); the output is the same.
On a terminal, a run of more than a second shows its progress on stderr (text output only;
CRD_APISERVER_PROGRESS=1 shows it anywhere from the start, CRD_APISERVER_PROGRESS=0 never).
Exit status: 0 all valid, 1 some invalid, 2 some input unusable (or an invalid CRD under --crds).
`;

interface Args {
  crds: string[];
  policies: string[];
  old: string[];
  output: 'text' | 'json';
  showDefaulted: boolean;
  inputs: string[];
  /** Threads asked for with --jobs; undefined: one per two CPUs for large inputs. */
  jobs?: number;
}

function parseArgs(argv: string[]): Args | string {
  const a: Args = { crds: [], policies: [], old: [], output: 'text', showDefaulted: false, inputs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (name: string): string | undefined => {
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
      if (arg === name) return argv[++i];
      return undefined;
    };
    if (arg === '-h' || arg === '--help') return 'help';
    let v: string | undefined;
    if ((v = value('--crds')) !== undefined) a.crds.push(v);
    else if ((v = value('--policies')) !== undefined) a.policies.push(v);
    else if ((v = value('--old')) !== undefined) a.old.push(v);
    else if ((v = value('--output')) !== undefined || (v = value('-o')) !== undefined) {
      if (v !== 'text' && v !== 'json') return `--output must be text or json, not "${v}"`;
      a.output = v;
    } else if ((v = value('--jobs')) !== undefined || (v = value('-j')) !== undefined) {
      if (!/^[1-9][0-9]*$/.test(v)) return `--jobs must be a positive integer, not "${v}"`;
      a.jobs = Number(v);
    } else if (arg === '--show-defaulted') a.showDefaulted = true;
    else if (arg.startsWith('-')) return `unknown flag ${arg}`;
    else a.inputs.push(arg);
  }
  if (a.inputs.length === 0) return 'no manifests given';
  if (a.showDefaulted && a.output !== 'json') return '--show-defaulted needs --output json';
  return a;
}

/** The input size from which a pool gains more than its workers' start costs (about 2000 documents). */
const poolMinBytes = 1 << 20;

/**
 * The threads a large input is judged on without --jobs: one per two CPUs. A judging thread keeps
 * about one and a half CPUs busy, as V8 compiles its hot code on threads of its own: over 10,000
 * HTTPRoutes on one thread, 0.87 s of CPU on the judging thread and 0.65 s on V8's (0.55 s of
 * it the optimizing compiler's). Each thread of a pool warms up its own isolate, compiler work
 * included, so on 2 CPUs a pool of 2 took 2.3 s of CPU against 1.5 s, and was slower than one
 * thread (up to 40,000 documents).
 */
function defaultThreads(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

/** How many threads to judge `files` on (`jobs`: what --jobs asked for); 1 means this one alone. */
export function workersFor(args: { jobs?: number }, files: string[]): number {
  if (files.length < 2) return 1;
  if (args.jobs !== undefined) return Math.min(args.jobs, files.length);
  let bytes = 0;
  for (const f of files) {
    try {
      bytes += statSync(f).size;
    } catch {
      // reported when the file is read
    }
  }
  return bytes >= poolMinBytes ? Math.min(defaultThreads(), files.length) : 1;
}

/**
 * stdout's writes gathered into blocks (a write per document is a system call per document on a
 * pipe); what goes to stderr first writes out what stdout holds, so that the two keep their order
 * on a terminal, the progress bar's drawing included.
 */
function gatheredOutput(): { out: (s: string) => void; err: (s: string) => void; flush: () => void } {
  let held = '';
  const flush = () => {
    if (held === '') return;
    process.stdout.write(held);
    held = '';
  };
  return {
    out: (s) => {
      held += s;
      if (held.length >= 1 << 16) flush();
    },
    err: (s) => {
      flush();
      process.stderr.write(s);
    },
    flush,
  };
}

export async function runValidate(argv: string[]): Promise<number> {
  const { out, err, flush } = gatheredOutput();
  // No error's stack is ever printed here (a failure prints its message), and every refused
  // document makes errors: capturing their stacks was 2.5% of the CPU profile of 10,000
  // HTTPRoutes, 2,000 of them refused.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return await runValidateWith(argv, out, err);
  } finally {
    flush();
    Error.stackTraceLimit = stackTraceLimit;
  }
}

async function runValidateWith(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const args = parseArgs(argv);
  if (args === 'help') {
    out(usage);
    return 0;
  }
  if (typeof args === 'string') {
    err(`crd-apiserver validate: ${args}\n\n${usage}`);
    return 2;
  }
  try {
    return await validate(args, out, err);
  } catch (e) {
    if (e instanceof InputError) {
      err(`crd-apiserver validate: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

/** Inputs in order: the files found, and the problem of each input that cannot be read. */
type Unit = { file: string } | { problem: InputProblem };

async function validate(args: Args, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const opts: JudgeOptions = { crds: args.crds, policies: args.policies, old: args.old, output: args.output, showDefaulted: args.showDefaulted };
  const units: Unit[] = [];
  for (const input of args.inputs) {
    try {
      for (const file of collectFiles([input])) units.push({ file });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      units.push({ problem: { file: input, line: 1, column: 1, message: e.message } });
    }
  }
  const files = units.flatMap((u) => ('file' in u ? [u.file] : []));
  const progress = new Progress(files.length, progressWanted(args.output), err);
  const output = new ValidateOutput(args.output, progress.clearing(out), err);
  const workers = workersFor(args, files);
  if (workers > 1) {
    const { judgeInPool } = await import('./validate-pool.ts');
    let next = 0;
    let fatal: string | undefined;
    await judgeInPool(opts, files, workers, err, (report) => {
      // The problems of unreadable inputs before this file, in their place.
      while (next < units.length && !('file' in units[next]!)) output.addProblems([(units[next++] as { problem: InputProblem }).problem]);
      next++;
      output.addProblems(report.problems);
      for (const d of report.docs) output.addDoc(d);
      progress.fileDone(output.documents);
      fatal ??= report.fatal;
    });
    progress.finish();
    if (fatal !== undefined) throw new InputError(fatal);
    while (next < units.length) {
      const u = units[next++]!;
      if (!('file' in u)) output.addProblems([u.problem]);
    }
    return output.finish();
  }
  const { openSession, readManifests } = await import('./validate-judge.ts');
  const session = await openSession(opts, err);
  try {
    // Each file is judged as it is read, so that only its documents are held (reading every
    // file first kept all their objects alive until judged, for the collector to move and mark).
    // Every file's problems are still printed before any document's lines: these are handed on
    // once the last file has been read.
    const judged: RenderedDoc[] = [];
    let fatal: unknown;
    let file: string | undefined;
    for (const u of units) {
      if (!('file' in u)) {
        output.addProblems([u.problem]);
        continue;
      }
      const r = readManifests(u.file);
      output.addProblems(r.problems);
      // After a fatal error the remaining files are only read, for their problems.
      for (let i = 0; i < r.manifests.length && fatal === undefined; i++) {
        const m = r.manifests[i]!;
        if (file !== undefined && m.file !== file) progress.fileDone(judged.length);
        file = m.file;
        try {
          judged.push(await session.judge(m));
        } catch (e) {
          fatal = e;
        }
      }
    }
    for (const d of judged) output.addDoc(d);
    if (fatal !== undefined) throw fatal;
    progress.finish();
    return output.finish();
  } finally {
    await session.close();
  }
}
