/**
 * Many-CRDs benchmark (`npm run bench:crds`): what a server holding hundreds of real CRDs costs.
 *
 * The CRDs are the released bundles of popular projects vendored under `testdata/crds/` (Argo
 * Workflows and CD, Istio, Crossplane, Cluster API, prometheus-operator, Knative Serving, Tekton,
 * Kyverno, Flux, KEDA, Velero, cert-manager, Gateway API), and copies of them under renamed groups
 * (`b1.argoproj.io`, ...) until the count is reached. For each count (default 50 and 500) a fresh
 * `crd-apiserver serve` process is given the CRDs one at a time over HTTP, then restarted, and the
 * figures are taken:
 *
 * - CRD create to Established (median, p99), each create waiting for the condition;
 * - server RSS after the creates, after a restart, and after the measurements below, and per CRD
 *   (over a server holding none);
 * - restart to the first `200` of `/readyz` (process spawn included);
 * - the first custom-resource create (dry run) on CRDs nothing has used since the restart, and a
 *   second one on each;
 * - aggregated discovery (`/apis`, apidiscovery v2) and `/openapi/v3/apis/<group>/<version>`,
 *   first fetch and warm;
 * - `kubectl get <plural>.<group>` with an empty discovery cache;
 * - `validate --crds` over the same CRDs (wall time and peak RSS of the process).
 *
 * Ends with `restart to ready with N CRDs: X s` and `server RSS with N CRDs: X MB` for the largest
 * count. Options: `-- --counts 50,500`, `--cold-samples 20`; `--validate-only N` runs only the
 * `validate --crds` row, N times per count, and prints the medians (no server is started);
 * `--restart-only N` runs only the restart row, N times per count, over a data dir made once
 * (`--data-dir DIR` keeps it for the next run), with the CPU time (user+system) the process had
 * used when `/readyz` first answered 200, and `--checkouts A,B` alternates the runs between
 * checkouts (each run's `serve` from that directory, over the same data). `BENCH_SERVE_NODE_FLAGS`
 * adds node flags to the `serve` processes (`--cpu-prof --cpu-prof-dir=DIR`).
 * `validate` runs as the package's bin, `node dist/bin/main.js`, when dist/ holds one (`--build`
 * runs `npm run build` first), else from the sources through tsx; the line says which.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { httpCall } from './lib/http-call.ts';
import { validateCommand } from './lib/validate-command.ts';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readYAMLDocuments } from '../src/apimachinery/index.ts';

type Obj = Record<string, any>;

const root = new URL('..', import.meta.url).pathname;

function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : dflt;
}
const COUNTS = flag('counts', '50,500').split(',').map(Number);
const COLD_SAMPLES = Number(flag('cold-samples', '20'));
const VALIDATE_ONLY = Number(flag('validate-only', '0'));
const RESTART_ONLY = Number(flag('restart-only', '0'));
const SERVE_NODE_FLAGS = (process.env.BENCH_SERVE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const BUILD = process.argv.includes('--build');

// ---- the CRDs ----

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return yamlFiles(p);
    return /\.ya?ml(\.gz)?$/.test(f) ? [p] : [];
  });
}

/** Every apiextensions.k8s.io/v1 CRD of the vendored bundles, in file order. */
function realCRDs(): Obj[] {
  const files = [
    ...yamlFiles(join(root, 'testdata/crds/bundles')),
    join(root, 'testdata/crds/cert-manager/cert-manager.crds.yaml'),
    join(root, 'testdata/crds/gateway-api/crds/standard-install.yaml'),
  ];
  const out: Obj[] = [];
  for (const f of files) {
    const raw = readFileSync(f);
    const text = (f.endsWith('.gz') ? gunzipSync(raw) : raw).toString();
    // Read as the server reads YAML (sigs.k8s.io/yaml), so the bench stores what kubectl would send.
    for (const d of readYAMLDocuments(text)) {
      const o = d as Obj | null;
      if (o?.kind === 'CustomResourceDefinition' && o.apiVersion === 'apiextensions.k8s.io/v1') {
        out.push({ apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.metadata.name, ...(o.metadata.annotations ? { annotations: o.metadata.annotations } : {}) }, spec: o.spec });
      }
    }
  }
  return out;
}

/** The first n of the real CRDs followed by copies under renamed groups (`b<k>.<group>`). */
function crdSet(real: Obj[], n: number): Obj[] {
  const out: Obj[] = [];
  for (let i = 0; out.length < n; i++) {
    const c = structuredClone(real[i % real.length]!);
    const copy = Math.floor(i / real.length);
    if (copy > 0) {
      c.spec.group = `b${copy}.${c.spec.group}`;
      c.metadata.name = `${c.spec.names.plural}.${c.spec.group}`;
    }
    out.push(c);
  }
  return out;
}

// ---- HTTP ----

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const call = (base: string, method: string, path: string, body?: unknown, accept?: string) => httpCall(agent, base, method, path, body, accept);


async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await f();
  return { ms: performance.now() - t0, value };
}

interface Server {
  base: string;
  pid: number;
  /** ms from spawn to the first 200 of /readyz. */
  readyMs: number;
  /** CPU time (user+system, ms) the process had used by then. */
  readyCPUMs: number;
  stop(): Promise<void>;
}

/** Spawns `serve` on a free port and waits for /readyz. */
async function startServer(dir: string, checkout = root): Promise<Server> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [...SERVE_NODE_FLAGS, '--import', 'tsx', 'src/cli/main.ts', 'serve', '--plain-http', '--listen', '127.0.0.1:0', '--data-dir', dir], {
    cwd: checkout,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let exited = false;
  proc.on('exit', () => (exited = true));
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  for (;;) {
    if (exited) throw new Error('server exited');
    const r = await call(base, 'GET', '/readyz').catch(() => ({ status: 0, text: '' }));
    if (r.status === 200) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const readyMs = performance.now() - t0;
  return {
    base,
    pid: proc.pid!,
    readyMs,
    readyCPUMs: cpuMs(proc.pid!),
    stop: () =>
      new Promise<void>((r) => {
        if (exited) return r();
        proc.once('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}

/** User+system CPU time a process has used, in ms (/proc/PID/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** Resident set size of a process, in MB. */
function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** RSS once the process has been idle for a moment (V8 frees young garbage on idle GC). */
async function settledRSS(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 1500));
  return rssMB(pid);
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

const median = (xs: number[]): number => percentile(xs, 50);

function established(crd: Obj): boolean {
  return (crd.status?.conditions ?? []).some((c: Obj) => c.type === 'Established' && c.status === 'True');
}

const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** Creates each CRD and waits until it is Established; the latencies in ms. */
async function createAll(base: string, crds: Obj[]): Promise<number[]> {
  const lat: number[] = [];
  for (const c of crds) {
    const t0 = performance.now();
    const r = await call(base, 'POST', crdsPath, c);
    if (r.status !== 201) throw new Error(`creating ${c.metadata.name}: ${r.status} ${r.text.slice(0, 500)}`);
    let o = JSON.parse(r.text) as Obj;
    while (!established(o)) {
      await new Promise((r) => setImmediate(r));
      o = JSON.parse((await call(base, 'GET', `${crdsPath}/${c.metadata.name}`)).text) as Obj;
    }
    // Served, too: the list answers (not 404) once the server has picked the CRD up.
    const v = (c.spec.versions as Obj[]).find((x) => x.served)!;
    const list = `/apis/${c.spec.group}/${v.name}/${c.spec.names.plural}?limit=1`;
    while ((await call(base, 'GET', list)).status === 404) await new Promise((r) => setTimeout(r, 1));
    lat.push(performance.now() - t0);
    if (lat.length % 100 === 0) console.log(`  ... ${lat.length} CRDs created`);
  }
  return lat;
}

/** A minimal object of the CRD's first served version (its required fields may be missing: the answer is then 422). */
function minimalObject(c: Obj): { path: string; body: Obj } {
  const v = (c.spec.versions as Obj[]).find((x) => x.served)!;
  const ns = c.spec.scope === 'Namespaced';
  const path = `/apis/${c.spec.group}/${v.name}${ns ? '/namespaces/default' : ''}/${c.spec.names.plural}?dryRun=All`;
  return { path, body: { apiVersion: `${c.spec.group}/${v.name}`, kind: c.spec.names.kind, metadata: { name: 'bench-object' }, spec: {} } };
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

interface Figures {
  n: number;
  createMedian: number;
  createP99: number;
  rssAfterCreate: number;
  restartMs: number;
  rssAfterRestart: number;
  coldCreateMedian: number;
  coldCreateMax: number;
  coldCreateMaxName: string;
  warmCreateMedian: number;
  discoveryFirst: number;
  discoveryWarm: number;
  discoveryBytes: number;
  openapiFirstMedian: number;
  openapiFirstMax: number;
  openapiWarm: number;
  kubectlGet: number;
  rssEnd: number;
  validateS: number;
  validateMB: number;
}

/** `validate --crds` over the CRDs (one YAML file each) and one manifest: wall time, CPU time (user+system) and peak RSS. */
function validateRun(crds: Obj[], work: string, cmd = validateCommand(root, BUILD)): { s: number; cpu: number; mb: number } {
  const dir = join(work, 'validate-crds');
  const manifest = join(work, 'object.yaml');
  if (!existsSync(manifest)) {
    mkdirSync(dir, { recursive: true });
    crds.forEach((c, i) => writeFileSync(join(dir, `${String(i).padStart(4, '0')}.yaml`), JSON.stringify(c)));
    writeFileSync(manifest, JSON.stringify(minimalObject(crds[0]!).body));
  }
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, ...cmd.argv, 'validate', '--crds', dir, manifest], { cwd: root, encoding: 'utf8' });
  const m = /(\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+)\s*$/.exec(r.stderr);
  if (!m || (r.status !== 0 && r.status !== 1)) throw new Error(`validate failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { s: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), mb: Number(m[4]) / 1024 };
}

async function measure(real: Obj[], n: number): Promise<Figures> {
  const crds = crdSet(real, n);
  const work = mkdtempSync(join(tmpdir(), 'bench-crds-'));
  const data = join(work, 'data');
  try {
    let s = await startServer(data);
    const lat = await createAll(s.base, crds);
    const rssAfterCreate = await settledRSS(s.pid);
    await s.stop();

    s = await startServer(data);
    const restartMs = s.readyMs;
    const rssAfterRestart = await settledRSS(s.pid);

    // Cold CRDs: spread over the set, the largest (Argo's Workflow) among them.
    const step = Math.max(1, Math.floor(crds.length / COLD_SAMPLES));
    const sample = crds.filter((_, i) => i % step === 0).slice(0, COLD_SAMPLES);
    const wf = crds.find((c) => c.metadata.name === 'workflows.argoproj.io');
    if (wf && !sample.includes(wf)) sample.push(wf);
    const cold: { ms: number; name: string }[] = [];
    const warm: number[] = [];
    for (const c of sample) {
      const { path, body } = minimalObject(c);
      const first = await timed(() => call(s.base, 'POST', path, body));
      if (first.value.status >= 500 || first.value.status === 404) throw new Error(`${c.metadata.name}: ${first.value.status} ${first.value.text.slice(0, 300)}`);
      cold.push({ ms: first.ms, name: c.metadata.name });
      warm.push((await timed(() => call(s.base, 'POST', path, body))).ms);
    }
    cold.sort((a, b) => a.ms - b.ms);

    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const d1 = await timed(() => call(s.base, 'GET', '/apis', undefined, accept));
    const dw: number[] = [];
    for (let i = 0; i < 5; i++) dw.push((await timed(() => call(s.base, 'GET', '/apis', undefined, accept))).ms);

    const gvs = [...new Set(sample.map((c) => `${c.spec.group}/${(c.spec.versions as Obj[]).find((x) => x.served)!.name}`))];
    const oFirst: number[] = [];
    const oWarm: number[] = [];
    for (const gv of gvs) {
      const r = await timed(() => call(s.base, 'GET', `/openapi/v3/apis/${gv}`));
      if (r.value.status !== 200) throw new Error(`openapi ${gv}: ${r.value.status}`);
      oFirst.push(r.ms);
      oWarm.push((await timed(() => call(s.base, 'GET', `/openapi/v3/apis/${gv}`))).ms);
    }

    // kubectl with an empty cache: aggregated discovery, then the list.
    const cache = join(work, 'kubectl-cache');
    const target = crds[Math.floor(crds.length / 2)]!;
    const k = await timed(async () =>
      spawnSync('/usr/bin/kubectl', ['--kubeconfig', join(data, 'kubeconfig'), '--cache-dir', cache, 'get', `${target.spec.names.plural}.${target.spec.group}`, '-A'], { encoding: 'utf8' }),
    );
    if (k.value.status !== 0) throw new Error(`kubectl get: ${k.value.stderr}`);

    const rssEnd = await settledRSS(s.pid);
    await s.stop();

    const v = validateRun(crds, work);
    return {
      n,
      createMedian: median(lat),
      createP99: percentile(lat, 99),
      rssAfterCreate,
      restartMs,
      rssAfterRestart,
      coldCreateMedian: median(cold.map((c) => c.ms)),
      coldCreateMax: cold[cold.length - 1]!.ms,
      coldCreateMaxName: cold[cold.length - 1]!.name,
      warmCreateMedian: median(warm),
      discoveryFirst: d1.ms,
      discoveryWarm: median(dw),
      discoveryBytes: d1.value.text.length,
      openapiFirstMedian: median(oFirst),
      openapiFirstMax: Math.max(...oFirst),
      openapiWarm: median(oWarm),
      kubectlGet: k.ms,
      rssEnd,
      validateS: v.s,
      validateMB: v.mb,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function yamlMB(crds: Obj[]): number {
  return crds.reduce((a, c) => a + JSON.stringify(c).length, 0) / 1e6;
}

/** `--validate-only N`: the `validate --crds` row alone, N runs per count, medians. */
function validateOnly(real: Obj[]): void {
  for (const n of COUNTS) {
    const crds = crdSet(real, n);
    const work = mkdtempSync(join(tmpdir(), 'bench-crds-validate-'));
    try {
      const runs = Array.from({ length: VALIDATE_ONLY }, () => validateRun(crds, work));
      const s = runs.map((r) => r.s);
      const cpu = runs.map((r) => r.cpu);
      const mb = runs.map((r) => r.mb);
      const list = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(', ');
      console.log(
        `${n} CRDs: validate --crds (${validateCommand(root, BUILD).what}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}): median ${median(s).toFixed(2)} s (${list(s, 2)}), ` +
          `CPU median ${median(cpu).toFixed(2)} s (${list(cpu, 2)}), peak RSS median ${median(mb).toFixed(0)} MB (${list(mb, 0)})`,
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

/** The data dir holding `crds` (made by a server given them over HTTP, unless it holds them already). */
async function dataWith(crds: Obj[], dir: string): Promise<void> {
  const marker = join(dir, `bench-crds-${crds.length}`);
  if (existsSync(marker)) return;
  rmSync(dir, { recursive: true, force: true });
  const s = await startServer(dir);
  await createAll(s.base, crds);
  await s.stop();
  writeFileSync(marker, '');
}

/** `--restart-only N`: the restart row alone, N runs per count (alternating between checkouts), medians. */
async function restartOnly(real: Obj[]): Promise<void> {
  const checkouts = flag('checkouts', root).split(',');
  for (const n of COUNTS) {
    const keep = flag('data-dir', '');
    const work = keep ? '' : mkdtempSync(join(tmpdir(), 'bench-crds-restart-'));
    const data = keep || join(work, 'data');
    try {
      await dataWith(crdSet(real, n), data);
      const runs = new Map<string, { wall: number; cpu: number }[]>(checkouts.map((c) => [c, []]));
      for (let i = 0; i < RESTART_ONLY; i++) {
        for (const c of checkouts) {
          const s = await startServer(data, c);
          await s.stop();
          runs.get(c)!.push({ wall: s.readyMs, cpu: s.readyCPUMs });
        }
      }
      for (const [c, rs] of runs) {
        const list = (k: 'wall' | 'cpu') => rs.map((r) => (r[k] / 1000).toFixed(2)).join(', ');
        console.log(`${n} CRDs, ${c}: restart to ready: wall median ${(median(rs.map((r) => r.wall)) / 1000).toFixed(2)} s (${list('wall')}), CPU median ${(median(rs.map((r) => r.cpu)) / 1000).toFixed(2)} s (${list('cpu')})`);
      }
    } finally {
      if (work) rmSync(work, { recursive: true, force: true });
    }
  }
}

async function main(): Promise<void> {
  const real = realCRDs();
  const groups = new Set(real.map((c) => c.spec.group));
  console.log(`real CRDs: ${real.length} in ${groups.size} groups, ${yamlMB(real).toFixed(1)} MB as JSON; counts ${COUNTS.join(', ')}`);
  if (VALIDATE_ONLY > 0) {
    validateOnly(real);
    return;
  }
  if (RESTART_ONLY > 0) {
    await restartOnly(real);
    agent.destroy();
    return;
  }

  const empty = mkdtempSync(join(tmpdir(), 'bench-crds-empty-'));
  let baselineRSS: number;
  try {
    const s = await startServer(join(empty, 'data'));
    baselineRSS = await settledRSS(s.pid);
    console.log(`server with no CRDs: ready in ${fmt(s.readyMs)}, RSS ${baselineRSS.toFixed(0)} MB`);
    await s.stop();
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }

  const all: Figures[] = [];
  for (const n of COUNTS) {
    const f = await measure(real, n);
    all.push(f);
    const perCRD = (mb: number) => `${(((mb - baselineRSS) * 1024) / n).toFixed(0)} kB/CRD`;
    console.log(`\n${n} CRDs (${yamlMB(crdSet(real, n)).toFixed(1)} MB as JSON):`);
    console.log(`  CRD create to Established and served: median ${fmt(f.createMedian)}, p99 ${fmt(f.createP99)}`);
    console.log(`  server RSS after the creates: ${f.rssAfterCreate.toFixed(0)} MB (${perCRD(f.rssAfterCreate)})`);
    console.log(`  restart to ready: ${fmt(f.restartMs)}`);
    console.log(`  server RSS after restart: ${f.rssAfterRestart.toFixed(0)} MB (${perCRD(f.rssAfterRestart)})`);
    console.log(`  first custom-resource create on a cold CRD: median ${fmt(f.coldCreateMedian)}, max ${fmt(f.coldCreateMax)} (${f.coldCreateMaxName}); second: median ${fmt(f.warmCreateMedian)}`);
    console.log(`  aggregated discovery: first ${fmt(f.discoveryFirst)}, warm ${fmt(f.discoveryWarm)} (${(f.discoveryBytes / 1024).toFixed(0)} kB)`);
    console.log(`  /openapi/v3/apis/<group>/<version>: first median ${fmt(f.openapiFirstMedian)}, max ${fmt(f.openapiFirstMax)}; warm ${fmt(f.openapiWarm)}`);
    console.log(`  kubectl get on a cold cache: ${fmt(f.kubectlGet)}`);
    console.log(`  server RSS after these requests: ${f.rssEnd.toFixed(0)} MB (${perCRD(f.rssEnd)})`);
    console.log(`  validate --crds: ${f.validateS.toFixed(2)} s, peak RSS ${f.validateMB.toFixed(0)} MB`);
  }

  if (all.length > 1) {
    const a = all[0]!;
    const b = all[all.length - 1]!;
    const grow = (k: keyof Figures) => `${((b[k] as number) / (a[k] as number)).toFixed(1)}x`;
    console.log(`\ngrowth from ${a.n} to ${b.n} CRDs (${(b.n / a.n).toFixed(0)}x): create median ${grow('createMedian')}, restart ${grow('restartMs')}, RSS after restart ${grow('rssAfterRestart')}, RSS at end ${grow('rssEnd')}, discovery warm ${grow('discoveryWarm')}, openapi first ${grow('openapiFirstMedian')}, kubectl get ${grow('kubectlGet')}, validate ${grow('validateS')} / ${grow('validateMB')} MB`);
  }
  const last = all[all.length - 1]!;
  console.log(`\nrestart to ready with ${last.n} CRDs: ${(last.restartMs / 1000).toFixed(2)} s`);
  console.log(`server RSS with ${last.n} CRDs: ${Math.max(last.rssAfterCreate, last.rssAfterRestart, last.rssEnd).toFixed(0)} MB`);
  agent.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
