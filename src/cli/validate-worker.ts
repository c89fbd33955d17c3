/**
 * A worker thread of `validate`'s pool (validate-pool.ts): opens one judging session with the
 * command's options (its workerData), says it is ready (with the notes loading printed, or the
 * error that makes the run unusable), then judges each file it is sent and answers its report.
 * Anything else thrown is reported as a crash; the pool ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { InputError } from './validate-files.ts';
import { openSession, type CreatedCRD, type JudgeOptions } from './validate-judge.ts';
import type { FileReport } from './validate-output.ts';

/** What a worker is started with: the command's options, and whether it is sent the CRDs (`crds`, before any file). */
export interface WorkerSetup {
  opts: JudgeOptions;
  givenCRDs: boolean;
}

/** `crds` comes first when the worker is given the CRDs, then files. */
export type ToWorker = { type: 'crds'; crds: CreatedCRD[] } | { type: 'file'; seq: number; file: string };
export type FromWorker =
  | { type: 'ready'; notes: string; setupError?: string }
  | { type: 'report'; seq: number; report: FileReport }
  | { type: 'crash'; message: string };

async function serve(): Promise<void> {
  const port = parentPort!;
  const send = (m: FromWorker) => port.postMessage(m);
  // As on the coordinating thread (validate.ts): no stack of an error is ever printed.
  Error.stackTraceLimit = 0;
  const { opts, givenCRDs } = workerData as WorkerSetup;
  // The coordinating thread has read and judged the CRDs: it sends them as it created them.
  const given = givenCRDs
    ? new Promise<CreatedCRD[]>((resolve) => port.once('message', (m: ToWorker) => resolve(m.type === 'crds' ? m.crds : [])))
    : undefined;
  let notes = '';
  let session;
  try {
    session = await openSession(
      opts,
      (s) => {
        notes += s;
      },
      given,
    );
  } catch (e) {
    if (e instanceof InputError) send({ type: 'ready', notes, setupError: e.message });
    else send({ type: 'crash', message: e instanceof Error ? e.message : String(e) });
    return;
  }
  const s = session;
  // Files are judged one at a time, in the order they arrive.
  let queue = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    if (m.type !== 'file') return;
    queue = queue.then(async () => {
      try {
        send({ type: 'report', seq: m.seq, report: await s.judgeFile(m.file) });
      } catch (e) {
        send({ type: 'crash', message: e instanceof Error ? e.message : String(e) });
      }
    });
  });
  send({ type: 'ready', notes });
}

void serve();
