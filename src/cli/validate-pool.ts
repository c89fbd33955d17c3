/**
 * Judging files on several threads for `validate`: this thread and worker threads
 * (validate-worker.ts), each loading the catalog once (built-in kinds, CRDs, policies, old
 * objects; the workers are sent the CRDs as this thread created them, without --policies) and
 * then taking whole files, one after another, in input order: each thread claims the next file
 * itself from a counter the threads share, so that no thread waits for another to hand it work
 * (this thread answers a worker's message only between two of its own files, and its first
 * files, judged while the JIT warms up, take ten times the later ones). The reports come in any
 * order and are handed on in input order, so the output is the same as one thread's. This thread's notes from loading (`note: skipping ...`) are printed, the workers'
 * (the same) are not; a loading error (an invalid CRD) is the run's InputError, as on one thread.
 * This thread judges too: a pool of N costs N-1 extra loads, not N.
 */
import { Worker } from 'node:worker_threads';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from './validate-files.ts';
import type { JudgeOptions } from './validate-judge.ts';
import type { FileReport } from './validate-output.ts';
import { claimFile, fileCounter, stopClaims } from './validate-claims.ts';
import type { FromWorker, ToWorker, WorkerSetup } from './validate-worker.ts';

/** The worker's module next to this one: `.ts` when running from source, `.js` in dist/. */
const fromSource = extname(fileURLToPath(import.meta.url)) === '.ts';
const workerURL = new URL(`./validate-worker${fromSource ? '.ts' : '.js'}`, import.meta.url);

/**
 * A worker running the worker module. From source, the thread first registers tsx's loader (a
 * worker's entry module is loaded before the hooks its `--import` flags would install).
 */
function startWorker(setup: WorkerSetup): Worker {
  if (!fromSource) return new Worker(workerURL, { workerData: setup, stdout: false, stderr: false });
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(api)}).then((t) => { t.register(); return import(${JSON.stringify(workerURL.href)}); })`;
  return new Worker(boot, { eval: true, workerData: setup, stdout: false, stderr: false });
}

/**
 * Whether the workers are sent the CRDs as this thread created them rather than reading and
 * judging --crds again (a second judgement of the same CRDs, the largest part of a worker's
 * start). Not with --policies: there the CRDs are stored too, as a policy's paramKind may name
 * their kinds, and each thread stores its own.
 */
function givesCRDs(opts: JudgeOptions): boolean {
  return opts.policies.length === 0;
}

/**
 * Judges `files` on `threads` threads (this one and threads-1 workers), calling `onReport` for
 * each file in input order. No file is claimed after a report with `fatal`. Throws
 * InputError when the catalog cannot be loaded, and Error when a worker fails.
 */
export async function judgeInPool(opts: JudgeOptions, files: string[], threads: number, err: (s: string) => void, onReport: (r: FileReport) => void): Promise<void> {
  const pool: Worker[] = [];
  const reports = new Map<number, FileReport>();
  // The index of the next file to claim, shared with the workers.
  const next = fileCounter();
  let nextReport = 0;
  let stopped = false;
  // Nothing is handed on before this thread has loaded (and printed its notes, or failed).
  let localReady = false;
  let workerSetupError: string | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      // No thread claims a file after this.
      const stop = () => {
        stopped = true;
        stopClaims(next, files.length);
      };
      const fail = (e: Error) => {
        stop();
        reject(e);
      };
      const deliver = () => {
        if (!localReady) return;
        for (let r = reports.get(nextReport); r !== undefined && !stopped; r = reports.get(nextReport)) {
          reports.delete(nextReport++);
          onReport(r);
          if (r.fatal !== undefined) stop();
        }
        if (stopped || nextReport >= files.length) resolve();
      };
      for (let i = 1; i < threads; i++) {
        const w = startWorker({ opts, givenCRDs: givesCRDs(opts), files, next: next.buffer as SharedArrayBuffer });
        pool.push(w);
        w.on('message', (m: FromWorker) => {
          switch (m.type) {
            case 'ready':
              // The same catalog fails here too, with the same message after the same notes.
              if (m.setupError !== undefined) {
                workerSetupError = m.setupError;
                if (localReady) fail(new InputError(m.setupError));
              }
              return;
            case 'report':
              reports.set(m.seq, m.report);
              return deliver();
            case 'crash':
              return fail(new Error(m.message));
          }
        });
        w.on('error', fail);
        w.on('exit', (code) => {
          if (!stopped && nextReport < files.length) fail(new Error(`a validate worker exited with code ${code}`));
        });
      }
      // This thread's share: the next file whenever it is free (the workers load meanwhile and
      // claim theirs as soon as they are ready).
      void (async () => {
        const { openSession } = await import('./validate-judge.ts');
        const session = await openSession(opts, err);
        // The workers serve the CRDs as created here instead of judging them again.
        if (givesCRDs(opts)) {
          const crds = session.createdCRDs();
          for (const w of pool) w.postMessage({ type: 'crds', crds } satisfies ToWorker);
        }
        localReady = true;
        if (workerSetupError !== undefined) fail(new InputError(workerSetupError));
        deliver();
        try {
          for (let seq = claimFile(next, files.length); seq !== undefined; seq = claimFile(next, files.length)) {
            reports.set(seq, await session.judgeFile(files[seq]!));
            deliver();
            // Let the workers' reports in between two files.
            await new Promise((r) => setImmediate(r));
          }
        } finally {
          await session.close();
        }
      })().catch((e: unknown) => fail(e instanceof Error ? e : new Error(String(e))));
    });
  } finally {
    stopped = true;
    stopClaims(next, files.length);
    // The workers' stores are in memory: nothing to flush, so they are stopped at once.
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
