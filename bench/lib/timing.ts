/**
 * Timing helpers shared by the benchmarks: medians, calibrated ns-per-operation runs, one-shot
 * timings and human-readable durations. Every figure a benchmark prints is a median of several
 * runs, so that one GC pause or scheduler hiccup does not decide a ratio.
 */

/** The median of xs (the mean of the two middle values for an even count). Throws on an empty list. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of no samples');
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Nanoseconds elapsed since `start` (a `process.hrtime.bigint()` reading). */
export function elapsedNs(start: bigint): number {
  return Number(process.hrtime.bigint() - start);
}

export interface RunOptions {
  /** Timed runs (the median is reported). Default 5. */
  runs?: number;
  /** Each run lasts at least this long; the iteration count is calibrated to it. Default 200. */
  minRunMs?: number;
  /**
   * What a run is timed by: 'wall' (the default) or 'cpu', this process's CPU time
   * (process.cpuUsage: every thread, the garbage collector's included), which other processes'
   * load inflates far less than wall time on a shared machine.
   */
  clock?: 'wall' | 'cpu';
}

/** A clock reading in ns. */
type Clock = () => number;
const wallClock: Clock = () => Number(process.hrtime.bigint());
const cpuClock: Clock = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

export interface RunResult {
  /** Median over the runs of (run time / iterations), in nanoseconds. */
  nsPerOp: number;
  /** Iterations per run. */
  iterations: number;
  /** The per-run figures, in run order. */
  samples: number[];
}

/** A timed body: `body(iterations)` performs `iterations` operations; `setup(iterations)`, when given, runs untimed before each call (for inputs a call consumes, such as objects it mutates). */
export interface Timed {
  body: (iterations: number) => void;
  setup?: (iterations: number) => void;
}

/** The iteration count for which one call of t lasts at least minNs (doubling, which also warms the JIT). */
function calibrate(t: Timed, minNs: number, clock: Clock): number {
  let n = 1;
  for (;;) {
    t.setup?.(n);
    const start = clock();
    t.body(n);
    const ns = clock() - start;
    if (ns >= minNs) return n;
    // Jump towards the target once a measurable time is seen, with a margin for noise.
    n = ns > 1e6 ? Math.ceil((n * minNs * 1.1) / ns) : n * 2;
  }
}

function sample(t: Timed, n: number, clock: Clock): number {
  t.setup?.(n);
  const start = clock();
  t.body(n);
  return (clock() - start) / n;
}

/**
 * Times `body(iterations)`: first calibrates the count so that one call lasts `minRunMs`, then runs
 * `runs` timed calls and returns the median ns per operation.
 */
export function timeRuns(body: (iterations: number) => void, opts: RunOptions & { setup?: (iterations: number) => void } = {}): RunResult {
  return timeInterleaved([{ body, setup: opts.setup }], opts)[0]!;
}

/**
 * Times several bodies that are to be compared, alternating their runs (a, b, a, b, ...) so that a
 * change in machine load during the measurement affects each alike. Each is calibrated on its own;
 * returns one result per body, in order.
 */
export function timeInterleaved(bodies: readonly Timed[], opts: RunOptions = {}): RunResult[] {
  const runs = opts.runs ?? 5;
  const minNs = (opts.minRunMs ?? 200) * 1e6;
  const clock = opts.clock === 'cpu' ? cpuClock : wallClock;
  const counts = bodies.map((t) => calibrate(t, minNs, clock));
  const samples: number[][] = bodies.map(() => []);
  for (let r = 0; r < runs; r++) bodies.forEach((t, i) => samples[i]!.push(sample(t, counts[i]!, clock)));
  return bodies.map((_, i) => ({ nsPerOp: median(samples[i]!), iterations: counts[i]!, samples: samples[i]! }));
}

/** The median duration in ns of `rounds` single calls of fn (compile times and other one-offs). */
export function timeOnce(fn: () => unknown, rounds = 21): number {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = process.hrtime.bigint();
    fn();
    samples.push(elapsedNs(t));
  }
  return median(samples);
}

/** A duration in ns as `123ns`, `4.56µs`, `7.89ms` or `1.23s`. */
export function formatNs(ns: number): string {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)}s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)}ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)}µs`;
  return `${ns.toFixed(0)}ns`;
}
