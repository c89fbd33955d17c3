/**
 * A worker thread of `validate`'s pool (validate-pool.ts): opens one judging session with the
 * command's options (its workerData), says it is ready (with the notes loading printed, or the
 * error that makes the run unusable), then claims the next file from the counter the threads
 * share (validate-claims.ts), judges it and answers its report, until no file is left.
 * Anything else thrown is reported as a crash; the pool ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { claimFile } from './validate-claims.ts';
import { writeCodeCache } from './packed.ts';
import { InputError } from './validate-files.ts';
import { openSession, type CreatedCRD, type JudgeOptions } from './validate-judge.ts';
import type { FileReport } from './validate-output.ts';

/**
 * What a worker is started with: the command's options, whether it is sent the CRDs (`crds`), the
 * run's files and the shared counter of the next one to claim.
 */
export interface WorkerSetup {
  opts: JudgeOptions;
  givenCRDs: boolean;
  files: string[];
  next: SharedArrayBuffer;
}

/** Sent to a worker given the CRDs, once. */
export type ToWorker = { type: 'crds'; crds: CreatedCRD[] };
export type FromWorker =
  | { type: 'ready'; notes: string; setupError?: string }
  | { type: 'report'; seq: number; report: FileReport }
  | { type: 'crash'; message: string };

async function serve(): Promise<void> {
  const port = parentPort!;
  const send = (m: FromWorker) => port.postMessage(m);
  // As on the coordinating thread (validate.ts): no stack of an error is ever printed.
  Error.stackTraceLimit = 0;
  const { opts, givenCRDs, files } = workerData as WorkerSetup;
  const next = new Int32Array((workerData as WorkerSetup).next);
  // The coordinating thread has read and judged the CRDs: it sends them as it created them.
  // The listener stays: it keeps the thread alive once its files are judged, until the pool ends
  // it (a worker that exits earlier is a failure to the pool).
  let gotCRDs: (crds: CreatedCRD[]) => void = () => {};
  const given = givenCRDs ? new Promise<CreatedCRD[]>((resolve) => (gotCRDs = resolve)) : undefined;
  port.on('message', (m: ToWorker) => gotCRDs(m.crds));
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
  send({ type: 'ready', notes });
  try {
    let first = true;
    for (let seq = claimFile(next, files.length); seq !== undefined; seq = claimFile(next, files.length)) {
      const report = await session.judgeFile(files[seq]!);
      // The build's warm-up: the thread's compiled code, before the pool can end the thread.
      if (first) writeCodeCache();
      first = false;
      send({ type: 'report', seq, report });
    }
  } catch (e) {
    send({ type: 'crash', message: e instanceof Error ? e.message : String(e) });
  }
}

void serve();
