/**
 * Schema benchmark (`npm run bench:schema`): our compiled custom-resource validator against ajv on
 * the same objects in the same run, and the `validate` command's end-to-end throughput.
 *
 * 1. Objects: the Gateway API HTTPRoute examples (valid and invalid, v1beta1 schema of the
 *    standard install) and cert-manager Certificates in realistic shapes (bench/lib/certificates.ts).
 * 2. Ours: `compileSchema(openAPIV3Schema)` compiled once, then `validate(obj)`; also
 *    prune + default + validate on fresh copies (the write path's schema work: the codec's decode,
 *    then validate), and its growth from one HTTPRoute to one 10x its size.
 * 3. Peer: ajv with ajv-formats, `allErrors: true`, on the equivalent JSON Schema
 *    (bench/lib/jsonschema.ts; what it drops is printed). For the write path, ajv with
 *    `useDefaults` and `removeAdditional` on the pruning variant of that schema.
 * 4. Per kind (valid and invalid objects separately): median ns/validation over `--runs` runs of
 *    an iteration count calibrated to at least `--ms` ms per run, ours/ajv, compile times. The
 *    last line printed is `ratio to ajv: X`, the worst ours/ajv of the validate rows.
 * 5. `validate` throughput: `--docs` HTTPRoutes (a fifth invalid) written as YAML to a temp dir and
 *    judged in child processes by the built bin (`dist/bin/main.js`; `--build` runs `npm run build`
 *    first; through tsx when there is no dist/), `--cli-runs` times: each run times `node -e ''`,
 *    a one-document run (startup), the corpus on 1 worker, on the pool and without --jobs (the
 *    default, what the goal is of), and a tenth of the corpus on the pool (growth), back to back.
 *    Medians; documents/s and the children's CPU time.
 *
 * Runs are timed by this process's CPU time (process.cpuUsage), or with --wall by wall time.
 *
 * Usage: npm run bench:schema [-- --runs 5 --ms 200 --docs 10000 --cli-runs 5 --no-cli --build --wall]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { errorString } from '../src/apimachinery/field/errors.ts';
import { schemaCodec } from '../src/schema/codec.ts';
import { compileSchema, type CompiledSchema } from '../src/schema/compile.ts';
import type { JSONSchemaProps } from '../src/schema/types.ts';
import { invalidCertificates, validCertificates } from './lib/certificates.ts';
import { generateHTTPRoutes, writeYAMLFiles } from './lib/httproutes.ts';
import { validateCommand } from './lib/validate-command.ts';
import { toJSONSchema } from './lib/jsonschema.ts';
import { crdVersionSchema, docsOfKind, type Doc } from './lib/manifests.ts';
import { elapsedNs, formatNs, median, timeInterleaved, timeOnce, type Timed } from './lib/timing.ts';

// ajv-formats is CommonJS: under Node's ESM loader the default import is module.exports itself.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const RUNS = flag('--runs', 5);
const MIN_RUN_MS = flag('--ms', 200);
const DOCS = flag('--docs', 10_000);
const CLI_RUNS = flag('--cli-runs', 5);
const NO_CLI = process.argv.includes('--no-cli');
// CPU time unless --wall: on a shared machine other processes' load inflates wall time far more.
const CLOCK: 'cpu' | 'wall' = process.argv.includes('--wall') ? 'wall' : 'cpu';
const BUILD = process.argv.includes('--build');

const root = new URL('..', import.meta.url).pathname;
const GATEWAY_CRDS = join(root, 'testdata/crds/gateway-api/crds/standard-install.yaml');
const CERT_MANAGER_CRDS = join(root, 'testdata/crds/cert-manager/cert-manager.crds.yaml');
const GATEWAY_VALID = join(root, 'testdata/crds/gateway-api/valid');
const GATEWAY_INVALID = join(root, 'testdata/crds/gateway-api/invalid/httproute');

interface Kind {
  name: string;
  schema: JSONSchemaProps;
  valid: Doc[];
  invalid: Doc[];
  /** A valid object and one about 10x its size, for the write path's growth line. */
  grow?: [Doc, Doc];
}

function newAjv(writePath: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    // strictSchema stays on, so a keyword the conversion failed to translate fails loudly; type
    // strictness only warns about CRD idioms (anyOf branches with only `required`).
    strictTypes: false,
    strictTuples: false,
    ...(writePath ? { useDefaults: true, removeAdditional: true } : {}),
  });
  addFormats(ajv);
  return ajv;
}

const knownFormats = new Set(Object.keys(newAjv(false).formats));

interface Row {
  label: string;
  count: number;
  ours: number;
  peer: number;
}

/** Ours and the peer over docs (cycled), runs interleaved; ns per object for each. */
function timeValidate(docs: readonly Doc[], ours: (d: Doc) => unknown, peer: (d: Doc) => unknown): [number, number] {
  const len = docs.length;
  const loop = (fn: (d: Doc) => unknown): Timed => ({
    body: (n) => {
      for (let i = 0; i < n; i++) fn(docs[i % len]!);
    },
  });
  const [a, b] = timeInterleaved([loop(ours), loop(peer)], { runs: RUNS, minRunMs: MIN_RUN_MS, clock: CLOCK });
  return [a!.nsPerOp, b!.nsPerOp];
}

/** As timeValidate, over fresh deep copies of docs (the functions mutate them), copied untimed before each run. */
function timeWritePath(docs: readonly Doc[], ours: (d: Doc) => unknown, peer: (d: Doc) => unknown): [number, number] {
  const len = docs.length;
  let pool: Doc[] = [];
  const setup = (n: number): void => {
    pool = [];
    for (let i = 0; i < n; i++) pool.push(structuredClone(docs[i % len]!));
  };
  const loop = (fn: (d: Doc) => unknown): Timed => ({
    setup,
    body: (n) => {
      for (let i = 0; i < n; i++) fn(pool[i]!);
    },
  });
  const [a, b] = timeInterleaved([loop(ours), loop(peer)], { runs: RUNS, minRunMs: MIN_RUN_MS, clock: CLOCK });
  return [a!.nsPerOp, b!.nsPerOp];
}

/** Ours and ajv's verdicts on every doc; prints where they differ, with each side's first reason. */
function compareVerdicts(kind: Kind, ours: CompiledSchema, peer: ValidateFunction): void {
  const all = [...kind.valid.map((d) => [d, true] as const), ...kind.invalid.map((d) => [d, false] as const)];
  let agree = 0;
  const wrong: string[] = [];
  for (const [doc, expectValid] of all) {
    const errs = ours.validate(doc);
    const peerOk = peer(doc) as boolean;
    const name = String((doc.metadata as { name?: string } | undefined)?.name);
    if ((errs.length === 0) === peerOk) agree++;
    else {
      const why = errs.length > 0 ? `ours: ${errorString(errs[0]!)}` : `ajv: ${peer.errors?.[0]?.instancePath} ${peer.errors?.[0]?.message}`;
      wrong.push(`    ${name}: ours ${errs.length === 0 ? 'valid' : 'invalid'}, ajv ${peerOk ? 'valid' : 'invalid'} (${why})`);
    }
    if (expectValid && errs.length > 0) console.log(`  note: ${name} was expected valid: ${errorString(errs[0]!)}`);
  }
  console.log(`  verdicts: ours and ajv agree on ${agree} of ${all.length}`);
  for (const w of wrong) console.log(w);
  const invalidByOurs = kind.invalid.filter((d) => ours.validate(d).length > 0).length;
  const rest = invalidByOurs < kind.invalid.length ? ' (the others break only CEL rules, which validate() does not run)' : '';
  console.log(`  invalid objects rejected by ours: ${invalidByOurs} of ${kind.invalid.length}${rest}`);
}

function benchKind(kind: Kind): Row[] {
  console.log(`\n${kind.name}: ${kind.valid.length} valid, ${kind.invalid.length} invalid objects`);
  const conv = toJSONSchema(kind.schema, { knownFormats });
  const pruning = toJSONSchema(kind.schema, { knownFormats, prune: true });
  for (const n of conv.notes) console.log(`  ajv schema: ${n}`);

  const ours = compileSchema(kind.schema);
  const peer = newAjv(false).compile(conv.schema);
  const peerWrite = newAjv(true).compile(pruning.schema);
  compareVerdicts(kind, ours, peer);

  const oursCompile = timeOnce(() => compileSchema(kind.schema));
  const ajvs = Array.from({ length: 21 }, () => newAjv(false));
  let next = 0;
  // A fresh instance per compile: ajv caches compiled schemas per instance.
  const peerCompile = timeOnce(() => ajvs[next++]!.compile(conv.schema), ajvs.length);
  console.log(`  compile: ours ${formatNs(oursCompile)}, ajv ${formatNs(peerCompile)}`);

  const rows: Row[] = [];
  for (const [label, docs] of [
    ['valid', kind.valid],
    ['invalid', kind.invalid],
  ] as const) {
    if (docs.length === 0) continue;
    const [o, p] = timeValidate(
      docs,
      (d) => ours.validate(d),
      (d) => peer(d),
    );
    rows.push({ label: `${kind.name} ${label} validate`, count: docs.length, ours: o, peer: p });
  }
  const [o, p] = timeWritePath(kind.valid, writePath(ours), (d) => peerWrite(d));
  rows.push({ label: `${kind.name} valid prune+default+validate`, count: kind.valid.length, ours: o, peer: p });
  if (kind.grow !== undefined) benchGrowth(kind, ours, peerWrite);
  return rows;
}

/** The write path's schema work as the custom-resource store runs it: the codec's decode (prune, coerce ObjectMeta, default), then validate. */
function writePath(ours: CompiledSchema): (d: Doc) => unknown {
  const codec = schemaCodec(ours);
  return (d) => {
    codec.decode(d, false);
    return ours.validate(d);
  };
}

/**
 * Growth: the write path on one object and on one 10x its size (kind.grow), ours and ajv each, so
 * that a cost superlinear in the object shows as a factor well above the size factor.
 */
function benchGrowth(kind: Kind, ours: CompiledSchema, peerWrite: ValidateFunction): void {
  const [small, large] = kind.grow!;
  for (const d of [small, large]) {
    const copy = structuredClone(d);
    if (ours.validate(structuredClone(d)).length > 0 || !peerWrite(copy)) throw new Error(`growth object of ${kind.name} is not valid`);
  }
  const [os, ps] = timeWritePath([small], writePath(ours), (d) => peerWrite(d));
  const [ol, pl] = timeWritePath([large], writePath(ours), (d) => peerWrite(d));
  const size = JSON.stringify(large).length / JSON.stringify(small).length;
  console.log(
    `  growth: ${kind.name} prune+default+validate, an object ${size.toFixed(1)}x the JSON size -> ours ${(ol / os).toFixed(1)}x the time (${formatNs(os)} -> ${formatNs(ol)}), ajv ${(pl / ps).toFixed(1)}x (${formatNs(ps)} -> ${formatNs(pl)})`,
  );
}

/**
 * Two HTTPRoutes for the growth line: one rule with one match (taken from the examples), and one
 * with up to the schema's 16 rules of up to 8 matches each, as many as make its JSON about 10x
 * the size.
 */
function routeGrowth(routes: readonly Doc[]): [Doc, Doc] {
  const matches = routes.flatMap((r) => ((r.spec as { rules?: { matches?: unknown[] }[] }).rules ?? []).flatMap((rule) => rule.matches ?? []));
  let next = 0;
  const route = (rules: number, perRule: number): Doc => {
    const d = structuredClone(routes.find((r) => ((r.spec as { rules?: unknown[] }).rules?.length ?? 0) === 1)!);
    const rule = (d.spec as { rules: Doc[] }).rules[0]!;
    (d.spec as { rules: Doc[] }).rules = Array.from({ length: rules }, () => ({
      ...structuredClone(rule),
      matches: Array.from({ length: perRule }, () => structuredClone(matches[next++ % matches.length])),
    }));
    return d;
  };
  const small = route(1, 1);
  const target = 10 * JSON.stringify(small).length;
  for (let perRule = 1; perRule <= 8; perRule++) {
    for (let rules = 1; rules <= 16; rules++) {
      const large = route(rules, perRule);
      if (JSON.stringify(large).length >= target) return [small, large];
    }
  }
  return [small, route(16, 8)];
}

function printRows(rows: readonly Row[]): number {
  console.log(`\n${'objects'.padEnd(44)} ${'n'.padStart(3)} ${'ours'.padStart(10)} ${'ajv'.padStart(10)}  ours/ajv`);
  let worst = 0;
  for (const r of rows) {
    const ratio = r.ours / r.peer;
    if (r.label.endsWith(' validate') && !r.label.includes('+')) worst = Math.max(worst, ratio);
    console.log(`${r.label.padEnd(44)} ${String(r.count).padStart(3)} ${formatNs(r.ours).padStart(10)} ${formatNs(r.peer).padStart(10)}  ${ratio.toFixed(2)}`);
  }
  console.log(`(ns of ${CLOCK === 'cpu' ? 'CPU' : 'wall'} time per object, median of runs; the write-path peer is ajv with useDefaults + removeAdditional)`);
  return worst;
}

/** CPU time (ms) of this process's waited-for children so far (Linux: /proc/self/stat's cutime + cstime), or NaN. */
function childrenCPUms(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // Fields 16 and 17 of stat(5) (cutime, cstime), counted after the `pid (comm)` prefix, in clock ticks of 1/100 s.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
}

function benchCLI(routes: Doc[], invalidExamples: Doc[]): void {
  const gen = generateHTTPRoutes(DOCS, routes, invalidExamples);
  const dir = mkdtempSync(join(tmpdir(), 'bench-schema-'));
  const tenth = mkdtempSync(join(tmpdir(), 'bench-schema-tenth-'));
  const one = mkdtempSync(join(tmpdir(), 'bench-schema-one-'));
  const pool = availableParallelism();
  try {
    const files = writeYAMLFiles(dir, gen.docs);
    writeYAMLFiles(tenth, gen.docs.slice(0, Math.round(gen.docs.length / 10)));
    writeYAMLFiles(one, gen.docs.slice(0, 1));
    const cmd = validateCommand(root, BUILD);
    console.log(`\nvalidate: ${gen.docs.length} HTTPRoutes (${gen.invalid} generated invalid) in ${files} files, ${CLI_RUNS} runs of ${cmd.what}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const spawn = (argv: string[]): { ms: number; cpu: number; stdout: string; status: number | null; stderr: string } => {
      const c = childrenCPUms();
      const t = process.hrtime.bigint();
      const r = spawnSync(process.execPath, argv, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, CRD_APISERVER_PROGRESS: '0' } });
      return { ms: elapsedNs(t) / 1e6, cpu: childrenCPUms() - c, stdout: r.stdout, status: r.status, stderr: r.stderr };
    };
    // `jobs` undefined: the command's own choice.
    const run = (target: string, jobs: number | undefined) => {
      const r = spawn([...cmd.argv, 'validate', ...(jobs === undefined ? [] : ['--jobs', String(jobs)]), '--crds', GATEWAY_CRDS, target]);
      if (r.status !== 0 && r.status !== 1) throw new Error(`validate exited ${r.status}: ${r.stderr}`);
      const lines = r.stdout.trimEnd().split('\n');
      return { ms: r.ms, cpu: r.cpu, summary: lines[lines.length - 1]! };
    };
    const rate = (ms: number, n = gen.docs.length) => Math.round((n / ms) * 1000);
    const rows = { node: [] as number[], start: [] as number[], single: [] as number[], singleCPU: [] as number[], pool: [] as number[], poolCPU: [] as number[], byDefault: [] as number[], byDefaultCPU: [] as number[], tenth: [] as number[] };
    let summary = '';
    // Each run times every variant back to back, so that a change of load touches them all.
    for (let i = 0; i < CLI_RUNS; i++) {
      rows.node.push(spawn(['-e', '']).ms);
      rows.start.push(run(one, 1).ms);
      const s = run(dir, 1);
      rows.single.push(s.ms);
      rows.singleCPU.push(s.cpu);
      const p = run(dir, pool);
      rows.pool.push(p.ms);
      rows.poolCPU.push(p.cpu);
      const d = run(dir, undefined);
      rows.byDefault.push(d.ms);
      rows.byDefaultCPU.push(d.cpu);
      rows.tenth.push(run(tenth, pool).ms);
      if (s.summary !== p.summary) throw new Error(`1 worker and ${pool} disagree: ${s.summary} / ${p.summary}`);
      if (s.summary !== d.summary) throw new Error(`1 worker and the default disagree: ${s.summary} / ${d.summary}`);
      summary = p.summary;
      console.log(
        `  run ${i + 1}: node -e '' ${rows.node[i]!.toFixed(0)} ms; one document ${rows.start[i]!.toFixed(0)} ms; ` +
          `1 worker ${s.ms.toFixed(0)} ms (${rate(s.ms)}/s, CPU ${(s.cpu / 1000).toFixed(1)} s); ` +
          `${pool} workers ${p.ms.toFixed(0)} ms (${rate(p.ms)}/s, CPU ${(p.cpu / 1000).toFixed(1)} s); ` +
          `without --jobs ${d.ms.toFixed(0)} ms (${rate(d.ms)}/s, CPU ${(d.cpu / 1000).toFixed(1)} s); a tenth on ${pool}: ${rows.tenth[i]!.toFixed(0)} ms`,
      );
    }
    const med = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)])) as Record<keyof typeof rows, number>;
    console.log(`  verdict: ${summary}`);
    console.log(`validate documents/s with 1 worker (median): ${rate(med.single)} (${med.single.toFixed(0)} ms, CPU ${(med.singleCPU / 1000).toFixed(1)} s)`);
    console.log(`validate documents/s with ${pool} workers (median): ${rate(med.pool)} (${med.pool.toFixed(0)} ms, CPU ${(med.poolCPU / 1000).toFixed(1)} s)`);
    console.log(
      `validate one document, spawn to exit (median): ${med.start.toFixed(0)} ms, node -e '' ${med.node.toFixed(0)} ms (goal < 300 ms); ` +
        `beyond startup: ${(((med.single - med.start) * 1e3) / gen.docs.length).toFixed(1)} µs/document on 1 worker`,
    );
    console.log(`validate growth: 10x the documents -> ${(med.pool / med.tenth).toFixed(1)}x the time (${Math.round(gen.docs.length / 10)} -> ${gen.docs.length}, ${pool} workers)`);
    console.log(`validate documents/s without --jobs (median): ${rate(med.byDefault)} (${med.byDefault.toFixed(0)} ms, CPU ${(med.byDefaultCPU / 1000).toFixed(1)} s)`);
    console.log(`validate documents/s: ${rate(med.byDefault)} (goal 10000; the default run, without --jobs)`);
  } finally {
    for (const d of [dir, tenth, one]) rmSync(d, { recursive: true, force: true });
  }
}

function main(): void {
  const routes = docsOfKind(GATEWAY_VALID, 'gateway.networking.k8s.io/v1beta1', 'HTTPRoute');
  const badRoutes = docsOfKind(GATEWAY_INVALID, 'gateway.networking.k8s.io/v1beta1', 'HTTPRoute');
  const kinds: Kind[] = [
    {
      name: 'HTTPRoute',
      schema: crdVersionSchema(GATEWAY_CRDS, 'httproutes.gateway.networking.k8s.io', 'v1beta1'),
      valid: routes,
      invalid: badRoutes,
      grow: routeGrowth(routes),
    },
    {
      name: 'Certificate',
      schema: crdVersionSchema(CERT_MANAGER_CRDS, 'certificates.cert-manager.io', 'v1'),
      valid: validCertificates(),
      invalid: invalidCertificates(),
    },
  ];
  console.log(`schema bench: ${RUNS} runs of >= ${MIN_RUN_MS} ms of ${CLOCK === 'cpu' ? 'CPU' : 'wall'} time each, Node ${process.version}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const rows = kinds.flatMap(benchKind);
  const worst = printRows(rows);
  if (!NO_CLI) benchCLI(routes, badRoutes);
  console.log(`ratio to ajv: ${worst.toFixed(2)}`);
}

main();
