/**
 * bench:scale — the watch cache at scale, on a real `serve` process: 100,000 custom resources
 * across 10 CRDs (written straight into the server's SQLite file between two starts, in the form
 * the registry stores them, so that setting up does not dominate the run).
 *
 * 1. listing 10,000 objects as JSON over HTTP, against JSON.stringify of the same items in this
 *    process (`list time ratio to serialization: X`, bound 3);
 * 2. the memory the cache holds per object against the object's JSON: the server's own cacher and
 *    custom-resource stores over the same file, in this process, every resource listed through
 *    them and every item's JSON text taken as a list response takes it, heap after a full GC
 *    against before (`cache memory ratio to JSON size: X`, bound 2), in three parts: the caches
 *    (key-values, event windows, the backlog), what the stores keep per object once listed, and
 *    what writing the responses leaves behind; the serve processes' RSS with and without
 *    `--watch-cache=false` beside it, for reference (RSS keeps garbage, so it is not the figure);
 * 3. one change delivered to 100 and to 1,000 concurrent watch streams: p50/p99 from the write;
 * 4. growth: 10x the objects listed (1,000 -> 10,000) and 10x the watchers (100 -> 1,000).
 *
 * Every figure is the median of BENCH_RUNS (3) runs after one untimed warm-up (about 4 minutes in all
 * on the loaded machine, most of it two starts of a server holding 100,000 objects).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJSON } from '../src/apimachinery/index.ts';
import { openCacher, openSqliteStore } from '../src/storage/index.ts';
import { customResourceKinds, sharedItemJSON, type Obj } from '../src/registry/index.ts';
import { httpCall } from './lib/http-call.ts';
import { median } from './lib/serve.ts';
import { crdManifest } from '../src/server/testing/fixtures.ts';

const root = new URL('..', import.meta.url).pathname;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CRDS = 10;
const PER_CRD = 10_000;
const group = 'scale.example.com';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Server {
  base: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

async function serve(dataDir: string, args: string[] = []): Promise<Server> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--listen', '127.0.0.1:0', '--plain-http', '--data-dir', dataDir, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    base,
    proc,
    stop: () =>
      new Promise<void>((r) => {
        proc.once('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}

/** The resident set of a process, in bytes. */
function rss(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

const plural = (i: number) => `things${i}`;
const kind = (i: number) => `Thing${i}`;

function crd(i: number): unknown {
  return crdManifest(
    group,
    { plural: plural(i), singular: `thing${i}`, kind: kind(i), listKind: `${kind(i)}List` },
    {
      spec: {
        type: 'object',
        properties: {
          image: { type: 'string' },
          replicas: { type: 'integer' },
          schedule: { type: 'string' },
          args: { type: 'array', items: { type: 'string' } },
          env: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  );
}

/** Where each CRD's objects live: thing0 has 10,000 in `big`; thing1 1,000 in `small` and 9,000 in `rest`. */
function namespaceOf(crdIndex: number, j: number): string {
  if (crdIndex === 1) return j < 1000 ? 'small' : 'rest';
  return crdIndex === 0 ? 'big' : 'rest';
}

/** The stored form of one custom resource, as the registry writes it (canonical JSON, no resourceVersion). */
function stored(crdIndex: number, j: number, ns: string): string {
  return canonicalJSON({
    apiVersion: `${group}/v1`,
    kind: kind(crdIndex),
    metadata: {
      name: `obj-${String(j).padStart(5, '0')}`,
      namespace: ns,
      uid: randomUUID(),
      generation: 1,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { app: `app-${j % 50}`, tier: j % 2 ? 'frontend' : 'backend' },
    },
    spec: {
      image: `registry.example.com/team-${j % 7}/service:${1 + (j % 13)}.${j % 5}.0`,
      replicas: 1 + (j % 5),
      schedule: '*/5 * * * *',
      args: ['--verbose', `--shard=${j % 16}`, '--listen=:8080'],
      env: { MODE: 'production', REGION: `region-${j % 3}`, OWNER: `owner-${j % 11}` },
    },
  });
}

async function populate(dir: string): Promise<number> {
  // First start: the CRDs and namespaces through the API, so that they are as the server keeps them.
  const s = await serve(dir);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  for (const ns of ['big', 'small', 'rest']) {
    await httpCall(agent, s.base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  }
  for (let i = 0; i < CRDS; i++) await httpCall(agent, s.base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(i));
  for (let i = 0; i < CRDS; i++) {
    for (;;) {
      const r = await httpCall(agent, s.base, 'GET', `/apis/${group}/v1/namespaces/big/${plural(i)}?limit=1`);
      if (r.status === 200) break;
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  agent.destroy();
  await s.stop();
  // Then the objects, straight into the file (group commit: 1,000 per transaction).
  const store = await openSqliteStore({ path: join(dir, 'crd-apiserver.sqlite'), compactIntervalMs: 0 });
  let bytes = 0;
  for (let i = 0; i < CRDS; i++) {
    for (let j0 = 0; j0 < PER_CRD; j0 += 1000) {
      const writes: Promise<unknown>[] = [];
      for (let j = j0; j < j0 + 1000; j++) {
        const ns = namespaceOf(i, j);
        const value = stored(i, j, ns);
        bytes += value.length;
        writes.push(store.create(`/registry/${group}/${plural(i)}/${ns}/obj-${String(j).padStart(5, '0')}`, value));
      }
      await Promise.all(writes);
    }
  }
  await store.close();
  return bytes;
}

async function timedList(agent: Agent, base: string, path: string): Promise<{ ms: number; text: string }> {
  const t0 = performance.now();
  const r = await httpCall(agent, base, 'GET', path);
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text.slice(0, 200)}`);
  return { ms, text: r.text };
}

/** Median ms of listing `path` (after one warm-up), and the items of the last answer. */
async function listMedian(agent: Agent, base: string, path: string): Promise<{ ms: number; items: unknown[] }> {
  let last = await timedList(agent, base, path);
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    last = await timedList(agent, base, path);
    times.push(last.ms);
  }
  return { ms: median(times), items: (JSON.parse(last.text) as { items: unknown[] }).items };
}

function stringifyMedian(items: unknown[]): number {
  JSON.stringify({ items });
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    JSON.stringify({ apiVersion: `${group}/v1`, kind: 'ThingList', metadata: { resourceVersion: '1' }, items });
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Opens `n` watch streams, writes one change, and returns each stream's delay until it had the change (sorted ms). */
async function fanOut(base: string, agent: Agent, n: number, round: number): Promise<number[]> {
  const path = `/apis/${group}/v1/namespaces/big/${plural(0)}`;
  const rv = (JSON.parse((await httpCall(agent, base, 'GET', `${path}?limit=1`)).text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const watchAgent = new Agent({ keepAlive: false, maxSockets: n + 10 });
  const marker = `"watched-${round}"`;
  const arrivals: number[] = [];
  let sentAt = 0;
  const reqs: ReturnType<typeof request>[] = [];
  const ready: Promise<void>[] = [];
  let resolveAll!: () => void;
  const all = new Promise<void>((r) => (resolveAll = r));
  for (let w = 0; w < n; w++) {
    ready.push(
      new Promise<void>((resolveReady, rejectReady) => {
        const req = request(`${base}${path}?watch=true&resourceVersion=${rv}`, { agent: watchAgent }, (res) => {
          resolveReady();
          let got = false;
          res.on('data', (chunk: Buffer) => {
            if (!got && chunk.includes(marker)) {
              got = true;
              arrivals.push(performance.now() - sentAt);
              if (arrivals.length === n) resolveAll();
            }
          });
          res.on('error', () => {});
        });
        req.on('error', rejectReady);
        req.end();
        reqs.push(req);
      }),
    );
  }
  await Promise.all(ready);
  sentAt = performance.now();
  const body = { apiVersion: `${group}/v1`, kind: kind(0), metadata: { name: `watched-${round}` }, spec: { replicas: 1 } };
  await httpCall(agent, base, 'POST', path, body);
  await all;
  for (const r of reqs) r.destroy();
  watchAgent.destroy();
  return arrivals.sort((a, b) => a - b);
}

async function watchMedians(base: string, agent: Agent, n: number, round0: number): Promise<{ p50: number; p99: number }> {
  await fanOut(base, agent, n, round0);
  const p50: number[] = [];
  const p99: number[] = [];
  for (let r = 1; r <= RUNS; r++) {
    const a = await fanOut(base, agent, n, round0 + r);
    p50.push(percentile(a, 50));
    p99.push(percentile(a, 99));
  }
  return { p50: median(p50), p99: median(p99) };
}

/** Lists every resource once (the caches then hold, and the server has decoded, every object). */
async function listEverything(agent: Agent, base: string): Promise<void> {
  for (let i = 0; i < CRDS; i++) {
    const r = await httpCall(agent, base, 'GET', `/apis/${group}/v1/${plural(i)}`);
    if (r.status !== 200) throw new Error(`list ${plural(i)}: ${r.status}`);
  }
}

async function settledRSS(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let k = 0; k < 5; k++) {
    await new Promise((r) => setTimeout(r, 400));
    samples.push(rss(pid));
  }
  return median(samples);
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterGC(): number {
  for (let k = 0; k < 3; k++) gc!();
  return process.memoryUsage().heapUsed;
}

/**
 * Bytes of heap the watch cache holds for every object of the file, with the stores the server
 * builds for the CRDs: its KeyValues and event windows, what the stores keep per object once they
 * have listed it (how each is served; decoded copies of those that need one), and what taking
 * every item's JSON text for a list response leaves behind.
 */
async function cacheHeapBytes(dir: string): Promise<{ total: number; keyValues: number; decoded: number; texts: number }> {
  const raw = await openSqliteStore({ path: join(dir, 'crd-apiserver.sqlite'), compactIntervalMs: 0 });
  const crds = (await raw.range('/registry/apiextensions.k8s.io/customresourcedefinitions/')).items.map((kv) => JSON.parse(kv.value) as Obj);
  // Before the cacher: its store watch replays the file's history into its window at once.
  const before = heapAfterGC();
  const cacher = await openCacher(raw, { progress: () => raw.currentRevision() });
  try {
    const stores = crds.flatMap((c) => customResourceKinds(c, { store: cacher }).map((k) => k.store));
    // The caches alone (their KeyValues and event windows), then what listing keeps, then what the texts keep.
    for (const c of crds) {
      const spec = c.spec as { group: string; names: { plural: string } };
      const prefix = `/registry/${spec.group}/${spec.names.plural}/`;
      await cacher.range(prefix, { resourcePrefix: prefix });
    }
    const cached = heapAfterGC();
    const lists = [];
    for (const st of stores) lists.push(await st.list(undefined, {}));
    lists.length = 0;
    const decoded = heapAfterGC();
    let n = 0;
    for (const st of stores) {
      const list = await st.list(undefined, {});
      const text = sharedItemJSON(list);
      list.items.forEach((item, i) => {
        if (text(item, i) !== undefined) n++;
      });
    }
    const after = heapAfterGC();
    if (n !== CRDS * PER_CRD) throw new Error(`only ${n} objects shared`);
    return { total: after - before, keyValues: cached - before, decoded: decoded - cached, texts: after - decoded };
  } finally {
    await cacher.close();
  }
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc (npm run bench:scale does)');
  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  try {
    const t0 = performance.now();
    const jsonBytes = await populate(dir);
    console.log(`wrote ${CRDS * PER_CRD} objects in ${CRDS} CRDs (${(jsonBytes / 1e6).toFixed(1)} MB of JSON) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const heap = await cacheHeapBytes(dir);
    const cacheBytes = heap.total;
    const per = (b: number) => `${(b / (CRDS * PER_CRD)).toFixed(0)}`;
    console.log(
      `watch cache heap: ${(cacheBytes / 1e6).toFixed(1)} MB for ${CRDS * PER_CRD} objects, ${per(cacheBytes)} bytes each ` +
        `(key-values and event windows ${per(heap.keyValues)}, kept by the stores once listed ${per(heap.decoded)}, left by the list responses' texts ${per(heap.texts)}; the JSON itself ${per(jsonBytes)})`,
    );

    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const s = await serve(dir);
    let withCache: number;
    let list10k: number;
    let list1k: number;
    let serialization: number;
    let w100: { p50: number; p99: number };
    let w1000: { p50: number; p99: number };
    try {
      const big = await listMedian(agent, s.base, `/apis/${group}/v1/namespaces/big/${plural(0)}`);
      const small = await listMedian(agent, s.base, `/apis/${group}/v1/namespaces/small/${plural(1)}`);
      if (big.items.length !== 10_000 || small.items.length !== 1000) throw new Error(`listed ${big.items.length} and ${small.items.length}`);
      list10k = big.ms;
      list1k = small.ms;
      serialization = stringifyMedian(big.items);
      console.log(`list 10,000 as JSON over HTTP: ${list10k.toFixed(1)} ms; JSON.stringify of the same items: ${serialization.toFixed(1)} ms`);
      console.log(`list 1,000 as JSON over HTTP: ${list1k.toFixed(1)} ms`);
      await listEverything(agent, s.base);
      withCache = await settledRSS(s.proc.pid!);
      w100 = await watchMedians(s.base, agent, 100, 0);
      w1000 = await watchMedians(s.base, agent, 1000, 100);
      console.log(`one change to 100 watchers: p50 ${w100.p50.toFixed(1)} ms, p99 ${w100.p99.toFixed(1)} ms`);
      console.log(`one change to 1,000 watchers: p50 ${w1000.p50.toFixed(1)} ms, p99 ${w1000.p99.toFixed(1)} ms`);
    } finally {
      await s.stop();
    }

    const u = await serve(dir, ['--watch-cache=false']);
    let withoutCache: number;
    try {
      const big = await listMedian(agent, u.base, `/apis/${group}/v1/namespaces/big/${plural(0)}`);
      console.log(`without the cache (--watch-cache=false): list 10,000 ${big.ms.toFixed(1)} ms`);
      await listEverything(agent, u.base);
      withoutCache = await settledRSS(u.proc.pid!);
    } finally {
      await u.stop();
    }
    agent.destroy();
    console.log(`server RSS after listing everything: ${(withCache / 1e6).toFixed(0)} MB with the cache, ${(withoutCache / 1e6).toFixed(0)} MB without`);
    console.log(`growth: list 1k->10k ${(list10k / list1k).toFixed(1)}x`);
    console.log(`growth: watchers 100->1000 p50 ${(w1000.p50 / w100.p50).toFixed(1)}x, p99 ${(w1000.p99 / w100.p99).toFixed(1)}x`);
    console.log(`cache memory ratio to JSON size: ${(cacheBytes / jsonBytes).toFixed(2)}`);
    console.log(`list time ratio to serialization: ${(list10k / serialization).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
