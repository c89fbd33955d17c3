/**
 * HTTP benchmark (`npm run bench:http`): what the API server costs on top of the registry,
 * measured against the registry in the same run.
 *
 * 1. creates/s and p50/p99 latency of `POST .../crontabs` with 16 and 64 concurrent clients
 *    (keep-alive connections) against a real `crd-apiserver serve` process, and the registry's
 *    own create rate (GenericStore with the compiled CRD strategy on SQLite, same concurrency),
 *    alternating, BENCH_RUNS times (default 3), medians reported;
 * 2. listing 10,000 objects over HTTP, as JSON and as a Table;
 * 3. one change delivered to 100 watch streams (latency until the last one has it).
 *
 * Ends with `http creates/s ratio to registry creates/s: X` (goal >= 0.3).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servedVersions } from '../src/registry/crd/serving.ts';
import { GenericStore } from '../src/registry/generic-store.ts';
import type { Obj } from '../src/registry/rest.ts';
import { openSqliteStore } from '../src/storage/sqlite/index.ts';

const CREATES = Number(process.env.BENCH_CREATES ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LIST_OBJECTS = 10_000;
const WATCHERS = 100;
const root = new URL('..', import.meta.url).pathname;

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer', minimum: 0 } } },
            },
          },
        },
        additionalPrinterColumns: [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }],
      },
    ],
  },
};

const ct = (name: string): Obj => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, labels: { app: 'bench' } },
  spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 1 },
});

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `n` tasks with `concurrency` in flight; returns elapsed ms and per-task latencies. */
async function pool(n: number, concurrency: number, task: (i: number) => Promise<void>): Promise<{ ms: number; lat: number[] }> {
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        const s = performance.now();
        await task(i);
        lat.push(performance.now() - s);
      }
    }),
  );
  return { ms: performance.now() - t0, lat: lat.sort((a, b) => a - b) };
}

function httpCall(agent: Agent, base: string, method: string, path: string, body?: unknown, accept = 'application/json'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    // Content-Length and a single end(): like Go clients, and no chunked trailer left to Nagle.
    const headers: Record<string, string | number> = { Accept: accept };
    if (data) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = Buffer.byteLength(data);
    }
    const req = request(base + path, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function startServer(dir: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--listen', '127.0.0.1:0', '--data-dir', dir], {
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
    stop: () =>
      new Promise<void>((r) => {
        proc.once('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}

async function registryCreates(concurrency: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-registry-'));
  const store = await openSqliteStore({ path: join(dir, 'db.sqlite') });
  const v = servedVersions(crd as unknown as Obj)[0]!;
  const rest = new GenericStore({ store, info: v.info, strategy: v.strategy });
  const { ms } = await pool(CREATES, concurrency, async (i) => {
    await rest.create('default', ct(`r-${i}`), {});
  });
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return (CREATES / ms) * 1000;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const server = await startServer(dir);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  try {
    const c = await httpCall(agent, server.base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    if (c.status !== 201) throw new Error(`CRD create failed: ${c.text}`);
    for (let i = 0; i < 200; i++) {
      if ((await httpCall(agent, server.base, 'GET', '/apis/stable.example.com/v1')).status === 200) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';

    // Registry and HTTP runs alternate, RUNS times each; medians are reported (a shared machine is noisy).
    let ratio = 0;
    let total = 0;
    for (const concurrency of [16, 64]) {
      const regRates: number[] = [];
      const httpRuns: { rate: number; lat: number[] }[] = [];
      for (let run = 0; run < RUNS; run++) {
        regRates.push(await registryCreates(concurrency));
        const offset = total;
        const { ms, lat } = await pool(CREATES, concurrency, async (i) => {
          const r = await httpCall(agent, server.base, 'POST', path, ct(`h${concurrency}-${offset + i}`));
          if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
        });
        total += CREATES;
        httpRuns.push({ rate: (CREATES / ms) * 1000, lat });
      }
      httpRuns.sort((a, b) => a.rate - b.rate);
      const mid = httpRuns[Math.floor(httpRuns.length / 2)]!;
      const reg = median(regRates);
      console.log(
        `creates, ${concurrency} clients: http ${mid.rate.toFixed(0)}/s (p50 ${percentile(mid.lat, 50).toFixed(1)} ms, p99 ${percentile(mid.lat, 99).toFixed(1)} ms); registry ${reg.toFixed(0)}/s (medians of ${RUNS})`,
      );
      if (concurrency === 64) ratio = mid.rate / reg;
    }

    // Exactly LIST_OBJECTS objects in a namespace of their own.
    const listPath = '/apis/stable.example.com/v1/namespaces/bench-list/crontabs';
    await httpCall(agent, server.base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench-list' } });
    await pool(LIST_OBJECTS, 64, async (i) => {
      const r = await httpCall(agent, server.base, 'POST', listPath, ct(`l-${i}`));
      if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
    });
    for (const [label, accept] of [
      ['JSON', 'application/json'],
      ['Table', 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json'],
    ] as const) {
      const t0 = performance.now();
      const r = await httpCall(agent, server.base, 'GET', listPath, undefined, accept);
      const ms = performance.now() - t0;
      const n = (JSON.parse(r.text) as { items?: unknown[]; rows?: unknown[] });
      console.log(`list ${(n.items ?? n.rows ?? []).length} objects as ${label}: ${ms.toFixed(0)} ms, ${(r.text.length / 1e6).toFixed(1)} MB`);
    }

    const rv = (JSON.parse((await httpCall(agent, server.base, 'GET', `${path}?limit=1`)).text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const watchAgent = new Agent({ keepAlive: false, maxSockets: WATCHERS + 10 });
    const arrivals: number[] = [];
    let sentAt = 0;
    const ready: Promise<void>[] = [];
    const reqs: ReturnType<typeof request>[] = [];
    const allArrived = new Promise<void>((resolveAll) => {
      for (let w = 0; w < WATCHERS; w++) {
        ready.push(
          new Promise<void>((resolveReady) => {
            const req = request(`${server.base}${path}?watch=true&resourceVersion=${rv}`, { agent: watchAgent }, (res) => {
              resolveReady();
              let got = false;
              res.on('data', (chunk: Buffer) => {
                if (!got && chunk.includes('"watched-one"')) {
                  got = true;
                  arrivals.push(performance.now() - sentAt);
                  if (arrivals.length === WATCHERS) resolveAll();
                }
              });
              res.on('error', () => {});
            });
            req.on('error', () => {});
            req.end();
            reqs.push(req);
          }),
        );
      }
    });
    await Promise.all(ready);
    sentAt = performance.now();
    await httpCall(agent, server.base, 'POST', path, ct('watched-one'));
    await allArrived;
    arrivals.sort((a, b) => a - b);
    console.log(`one change to ${WATCHERS} watch streams: first ${arrivals[0]!.toFixed(1)} ms, p50 ${percentile(arrivals, 50).toFixed(1)} ms, last ${arrivals[arrivals.length - 1]!.toFixed(1)} ms`);
    for (const r of reqs) r.destroy();
    watchAgent.destroy();

    console.log(`http creates/s ratio to registry creates/s: ${ratio.toFixed(2)}`);
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
