/**
 * CEL benchmark: compile time and ns per evaluation of this implementation against
 * @bufbuild/cel and @marcbachmann/cel-js on typical CRD validation rules. Each library gets its
 * input in its own native form, built outside the timed loop. Times are CPU time
 * (process.cpuUsage) of calibrated batches; each round times ours and the peers back to back, and
 * every figure is the median over the rounds (a change of machine load hits all three alike).
 *
 * Prints, per expression, our compile time (parse + check + plan) against @bufbuild/cel's
 * (parse + plan: it has no checker), our evaluation time and the peers', each ratio the median of
 * the rounds' ratios; then how evaluation grows with the input (a list 10x longer); and ends with
 * `max eval ratio to fastest peer: X`, `max compile ratio to bufbuild: X` (targets <= 0.5 each) and,
 * as before, `max ratio to fastest peer: X` (the evaluation figure).
 *
 * Usage: npm run bench:cel [-- --ms 300 --rounds 7]
 */
import { celEnv, parse as bufParse, plan as bufPlan } from '@bufbuild/cel';
import { parse as celJsParse } from '@marcbachmann/cel-js';
import { DynType, Env, allExtensionLibraries, fromJSON } from '../src/cel/index.ts';

interface Case {
  name: string;
  expr: string;
  self: unknown;
}

const values = (n: number) => Array.from({ length: n }, (_, i) => i % 100);
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ name: i === n - 13 ? 'target' : `item-${i}`, value: i }));
const labels = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`label${toLetters(i)}`, `v${i}`]));

/** a, b, ..., z, ba, bb, ...: label names that stay lower-case letters for any n. */
function toLetters(i: number): string {
  let s = '';
  do {
    s = String.fromCharCode(97 + (i % 26)) + s;
    i = Math.floor(i / 26);
  } while (i > 0);
  return s;
}

const CASES: Case[] = [
  { name: 'bounds', expr: 'self.replicas >= 0 && self.replicas <= self.maxReplicas', self: { replicas: 3, maxReplicas: 5 } },
  { name: 'all-100-ints', expr: 'self.values.all(v, v >= 0 && v < 100)', self: { values: values(100) } },
  { name: 'startsWith-size', expr: "self.name.startsWith('kube') && self.name.size() < 64", self: { name: 'kube-controller-manager' } },
  { name: 'has-ternary', expr: "has(self.spec.foo) ? self.spec.foo.bar == 'x' : true", self: { spec: { foo: { bar: 'x' } } } },
  { name: 'map-exists-50', expr: "self.items.map(x, x.name).exists(n, n == 'target')", self: { items: items(50) } },
  { name: 'labels-matches-20', expr: "self.metadata.labels.all(k, k.matches('^[a-z]+$'))", self: { metadata: { labels: labels(20) } } },
  { name: 'message-concat', expr: "'x must be less than max (' + string(self.max) + ')'", self: { max: 10 } },
];

/** Expressions over a list, evaluated on n and 10n elements: the time should grow about 10x. */
const GROWTH: { name: string; expr: string; self: (n: number) => unknown; n: number }[] = [
  { name: 'all-ints', expr: CASES[1]!.expr, self: (n) => ({ values: values(n) }), n: 100 },
  { name: 'map-exists', expr: CASES[4]!.expr, self: (n) => ({ items: items(n) }), n: 50 },
];

/** JSON-like data with integers as bigint (the int representation both peers accept). */
function withBigInts(x: unknown): unknown {
  if (typeof x === 'number') return Number.isInteger(x) ? BigInt(x) : x;
  if (Array.isArray(x)) return x.map(withBigInts);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, withBigInts(v)]));
  return x;
}

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}
/** CPU time per timed batch, and the number of rounds. */
const BATCH_MS = arg('--ms', 300) / 5;
const ROUNDS = arg('--rounds', 7);

const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

/** Calls per batch so that one batch takes about BATCH_MS of CPU time (after a warm-up). */
function calibrate(fn: () => unknown): number {
  let ops = 1;
  for (;;) {
    const t = cpuNs();
    for (let i = 0; i < ops; i++) fn();
    if (cpuNs() - t > BATCH_MS * 1e6 || ops >= 2 ** 26) return ops;
    ops *= 2;
  }
}

/** CPU ns per call over one batch of `ops` calls. */
function batch(fn: () => unknown, ops: number): number {
  const t = cpuNs();
  for (let i = 0; i < ops; i++) fn();
  return (cpuNs() - t) / ops;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Times the functions back to back, ROUNDS times: per function the median ns per call, and per
 * round the first function's time over the fastest of the others (the median of those is returned).
 */
function race(fns: (() => unknown)[]): { ns: number[]; ratio: number } {
  const ops = fns.map(calibrate);
  const samples: number[][] = fns.map(() => []);
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = fns.map((fn, i) => batch(fn, ops[i]!));
    t.forEach((x, i) => samples[i]!.push(x));
    ratios.push(t[0]! / Math.min(...t.slice(1)));
  }
  return { ns: samples.map(median), ratio: median(ratios) };
}

const env = new Env({ variables: { self: DynType }, libraries: [...allExtensionLibraries], crossTypeNumericComparisons: true });
const bufEnv = celEnv();

const fmt = (ns: number) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)}ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)}µs` : `${ns.toFixed(0)}ns`);

function programOf(expr: string) {
  const compiled = env.compile(expr);
  if (!compiled.program) throw new Error(`${expr}: ${compiled.issues}`);
  return compiled.program;
}

// Warm every code path of all three libraries before anything is timed, so that the first case
// does not pay for JIT compilation of the parser and checker.
for (let i = 0; i < 300; i++) {
  for (const c of CASES) {
    env.compile(c.expr);
    bufPlan(bufEnv, bufParse(c.expr));
    celJsParse(c.expr);
  }
}

let maxEval = 0;
let maxCompile = 0;
console.log(`rounds: ${ROUNDS}, CPU time; load average: ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(
  `${'expression'.padEnd(20)} ${'compile(ours)'.padStart(13)} ${'compile(buf)'.padStart(12)}  ratio ${'ours'.padStart(10)} ${'bufbuild'.padStart(10)} ${'cel-js'.padStart(10)}  ratio`,
);
for (const c of CASES) {
  const program = programOf(c.expr);
  const ours = { self: fromJSON(c.self) };
  const peerInput = { self: withBigInts(c.self) } as unknown as Record<string, never>;
  const check = program.eval(ours);
  if (check.error) throw new Error(`${c.name}: ${check.error.message}`);

  const bufProgram = bufPlan(bufEnv, bufParse(c.expr));
  const celJs = celJsParse(c.expr);
  const results = [String(check.value), String(bufProgram(peerInput)), String(celJs(peerInput))];
  if (new Set(results).size !== 1) console.warn(`  ${c.name}: results differ: ${results.join(' / ')}`);

  const compile = race([() => env.compile(c.expr), () => bufPlan(bufEnv, bufParse(c.expr))]);
  maxCompile = Math.max(maxCompile, compile.ratio);
  const evaluation = race([() => program.eval(ours), () => bufProgram(peerInput), () => celJs(peerInput)]);
  maxEval = Math.max(maxEval, evaluation.ratio);
  const [compileNs, bufCompileNs] = compile.ns as [number, number];
  const [oursNs, bufNs, celJsNs] = evaluation.ns as [number, number, number];
  console.log(
    `${c.name.padEnd(20)} ${fmt(compileNs).padStart(13)} ${fmt(bufCompileNs).padStart(12)}  ${compile.ratio.toFixed(2)} ${fmt(oursNs).padStart(10)} ${fmt(bufNs).padStart(10)} ${fmt(celJsNs).padStart(10)}  ${evaluation.ratio.toFixed(2)}`,
  );
}

for (const g of GROWTH) {
  const program = programOf(g.expr);
  const small = { self: fromJSON(g.self(g.n)) };
  const large = { self: fromJSON(g.self(g.n * 10)) };
  // Ours on both sizes, back to back: ratio is large over small.
  const t = race([() => program.eval(large), () => program.eval(small)]);
  console.log(`growth ${g.name}: list of ${g.n} -> ${g.n * 10} elements: ${t.ratio.toFixed(1)}x the time (${fmt(t.ns[1]!)} -> ${fmt(t.ns[0]!)})`);
}

console.log(`max eval ratio to fastest peer: ${maxEval.toFixed(2)}`);
console.log(`max compile ratio to bufbuild: ${maxCompile.toFixed(2)}`);
console.log(`max ratio to fastest peer: ${maxEval.toFixed(2)}`);
