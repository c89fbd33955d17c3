/**
 * The files of a pool's run (validate-pool.ts), claimed one at a time, in input order, by
 * whichever thread is free: the index of the next file is a counter in memory the threads share,
 * so that claiming needs no message and no thread waits for another to hand it work.
 */

/** The shared counter: a SharedArrayBuffer holding the index of the next file to claim. */
export function fileCounter(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** The index of the next file not yet claimed by any thread, or undefined when none is left. */
export function claimFile(next: Int32Array, files: number): number | undefined {
  const seq = Atomics.add(next, 0, 1);
  return seq < files ? seq : undefined;
}

/** No thread claims a file after this. */
export function stopClaims(next: Int32Array, files: number): void {
  Atomics.store(next, 0, files);
}
