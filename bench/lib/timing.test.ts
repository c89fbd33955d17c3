import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatNs, median, timeInterleaved, timeRuns } from './timing.ts';

describe('median', () => {
  it('takes the middle of an odd count and the mean of the middle two of an even one, unsorted input', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([7]), 7);
  });
  it('refuses an empty list', () => {
    assert.throws(() => median([]), /no samples/);
  });
});

describe('timeRuns', () => {
  it('calibrates the iteration count to the minimum run time and runs setup before every timed call', () => {
    let setups = 0;
    let calls = 0;
    const r = timeRuns(
      (n) => {
        calls++;
        const end = process.hrtime.bigint() + BigInt(n) * 20_000n; // 20 µs per operation
        while (process.hrtime.bigint() < end);
      },
      { runs: 3, minRunMs: 20, setup: () => setups++ },
    );
    assert.ok(r.iterations * 20_000 >= 20e6 * 0.9, `iterations ${r.iterations}`);
    assert.equal(r.samples.length, 3);
    assert.equal(setups, calls);
    assert.ok(r.nsPerOp >= 20_000 && r.nsPerOp < 200_000, `ns/op ${r.nsPerOp}`);
  });
});

describe('formatNs', () => {
  it('picks the unit', () => {
    assert.equal(formatNs(512), '512ns');
    assert.equal(formatNs(4560), '4.56µs');
    assert.equal(formatNs(7_890_000), '7.89ms');
    assert.equal(formatNs(1_230_000_000), '1.23s');
  });
});

describe('timeInterleaved with the CPU clock', () => {
  it('counts CPU time, not time spent waiting', () => {
    // A fifth of each operation spins, the rest sleeps: wall time is about five times the CPU time.
    // The spin allocates nothing (performance.now, not hrtime.bigint): a spin allocating BigInts
    // keeps V8's parallel scavenger threads busy, and their CPU time counts as the process's.
    const cell = new Int32Array(new SharedArrayBuffer(4));
    const op = (n: number) => {
      const end = performance.now() + n * 0.01;
      while (performance.now() < end);
      Atomics.wait(cell, 0, 0, n / 25);
    };
    // Warmed up first: the compiler's background threads count as the process's CPU time too.
    timeInterleaved([{ body: op }], { runs: 2, minRunMs: 20, clock: 'cpu' });
    const [cpu] = timeInterleaved([{ body: op }], { runs: 3, minRunMs: 20, clock: 'cpu' });
    const [wall] = timeInterleaved([{ body: op }], { runs: 3, minRunMs: 20 });
    assert.ok(cpu!.nsPerOp < wall!.nsPerOp * 0.6, `cpu ${cpu!.nsPerOp} ns, wall ${wall!.nsPerOp} ns`);
  });
});
