/**
 * CEL benchmark: compile time and ns per evaluation of this implementation against
 * @bufbuild/cel and @marcbachmann/cel-js on typical CRD validation rules. Each library gets its
 * input in its own native form, built outside the timed loop. Prints, per expression, our compile
 * time (parse + check + plan) against @bufbuild/cel's (parse + plan: it has no checker), our
 * evaluation time and the peers', and ends with `max compile ratio to @bufbuild/cel: X` and
 * `max ratio to fastest peer: X` (targets <= 0.5 each).
 *
 * Usage: npm run bench:cel [-- --ms 300]
 */
import { celEnv, parse as bufParse, plan as bufPlan } from '@bufbuild/cel';
import { parse as celJsParse } from '@marcbachmann/cel-js';
import { DynType, Env, allExtensionLibraries, fromJSON } from '../src/cel/index.ts';

interface Case {
  name: string;
  expr: string;
  self: unknown;
}

const values = Array.from({ length: 100 }, (_, i) => i % 100);
const items = Array.from({ length: 50 }, (_, i) => ({ name: i === 37 ? 'target' : `item-${i}`, value: i }));
const labels = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`label${String.fromCharCode(97 + i)}`, `v${i}`]));

const CASES: Case[] = [
  { name: 'bounds', expr: 'self.replicas >= 0 && self.replicas <= self.maxReplicas', self: { replicas: 3, maxReplicas: 5 } },
  { name: 'all-100-ints', expr: 'self.values.all(v, v >= 0 && v < 100)', self: { values } },
  { name: 'startsWith-size', expr: "self.name.startsWith('kube') && self.name.size() < 64", self: { name: 'kube-controller-manager' } },
  { name: 'has-ternary', expr: "has(self.spec.foo) ? self.spec.foo.bar == 'x' : true", self: { spec: { foo: { bar: 'x' } } } },
  { name: 'map-exists-50', expr: "self.items.map(x, x.name).exists(n, n == 'target')", self: { items } },
  { name: 'labels-matches-20', expr: "self.metadata.labels.all(k, k.matches('^[a-z]+$'))", self: { metadata: { labels } } },
  { name: 'message-concat', expr: "'x must be less than max (' + string(self.max) + ')'", self: { max: 10 } },
];

/** JSON-like data with integers as bigint (the int representation both peers accept). */
function withBigInts(x: unknown): unknown {
  if (typeof x === 'number') return Number.isInteger(x) ? BigInt(x) : x;
  if (Array.isArray(x)) return x.map(withBigInts);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, withBigInts(v)]));
  return x;
}

const msArg = process.argv.indexOf('--ms');
const BUDGET_MS = msArg > 0 ? Number(process.argv[msArg + 1]) : 300;

/** Median of `rounds` timings of `ops` calls, in ns per call. */
function nsPerOp(fn: () => unknown): number {
  // Calibrate a batch size of about 5 ms.
  let ops = 1;
  for (;;) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) fn();
    const ns = Number(process.hrtime.bigint() - t);
    if (ns > 5e6) break;
    ops *= 2;
  }
  const samples: number[] = [];
  const end = Date.now() + BUDGET_MS;
  while (Date.now() < end || samples.length < 5) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) fn();
    samples.push(Number(process.hrtime.bigint() - t) / ops);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

/** Median of 400 compiles, after 100 untimed ones (both libraries get the same warm-up). */
function compileTime(fn: () => unknown): number {
  for (let i = 0; i < 100; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < 400; i++) {
    const t = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t));
  }
  samples.sort((a, b) => a - b);
  return samples[200]!;
}

const env = new Env({ variables: { self: DynType }, libraries: [...allExtensionLibraries], crossTypeNumericComparisons: true });
const bufEnv = celEnv();

const fmt = (ns: number) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)}ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)}µs` : `${ns.toFixed(0)}ns`);

let maxRatio = 0;
let maxCompileRatio = 0;
console.log(
  `${'expression'.padEnd(20)} ${'compile(ours)'.padStart(13)} ${'compile(buf)'.padStart(12)}  ratio ${'ours'.padStart(10)} ${'bufbuild'.padStart(10)} ${'cel-js'.padStart(10)}  ratio`,
);
for (const c of CASES) {
  const compiled = env.compile(c.expr);
  if (!compiled.program) throw new Error(`${c.name}: ${compiled.issues}`);
  const program = compiled.program;
  const ours = { self: fromJSON(c.self) };
  const peerInput = { self: withBigInts(c.self) } as unknown as Record<string, never>;
  const check = program.eval(ours);
  if (check.error) throw new Error(`${c.name}: ${check.error.message}`);

  const bufProgram = bufPlan(bufEnv, bufParse(c.expr));
  const celJs = celJsParse(c.expr);
  const results = [String(check.value), String(bufProgram(peerInput)), String(celJs(peerInput))];
  if (new Set(results).size !== 1) console.warn(`  ${c.name}: results differ: ${results.join(' / ')}`);

  const compileNs = compileTime(() => env.compile(c.expr));
  const bufCompileNs = compileTime(() => bufPlan(bufEnv, bufParse(c.expr)));
  const compileRatio = compileNs / bufCompileNs;
  maxCompileRatio = Math.max(maxCompileRatio, compileRatio);
  const oursNs = nsPerOp(() => program.eval(ours));
  const bufNs = nsPerOp(() => bufProgram(peerInput));
  const celJsNs = nsPerOp(() => celJs(peerInput));
  const ratio = oursNs / Math.min(bufNs, celJsNs);
  maxRatio = Math.max(maxRatio, ratio);
  console.log(
    `${c.name.padEnd(20)} ${fmt(compileNs).padStart(13)} ${fmt(bufCompileNs).padStart(12)}  ${compileRatio.toFixed(2)} ${fmt(oursNs).padStart(10)} ${fmt(bufNs).padStart(10)} ${fmt(celJsNs).padStart(10)}  ${ratio.toFixed(2)}`,
  );
}
console.log(`max compile ratio to @bufbuild/cel: ${maxCompileRatio.toFixed(2)}`);
console.log(`max ratio to fastest peer: ${maxRatio.toFixed(2)}`);
