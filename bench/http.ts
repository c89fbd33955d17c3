/**
 * HTTP benchmark (`npm run bench:http`): what the API server costs on top of the registry,
 * measured against the registry in the same run.
 *
 * 1. creates/s and p50/p99 latency of `POST .../crontabs` with 1, 16 and 64 concurrent clients
 *    (keep-alive connections) against a real `crd-apiserver serve` process, and the registry's
 *    own create rate (GenericStore with the compiled CRD strategy on SQLite, same concurrency),
 *    run in back-to-back pairs, BENCH_RUNS times (default 5) after one untimed warm-up of each;
 *    medians reported, the ratio being the median of the pairs' ratios. The creates go through
 *    a minimal HTTP/1.1 client on raw keep-alive sockets (as load generators such as wrk do):
 *    node:http's client costs about as much CPU per request as the server's own handling, and
 *    on a small machine the figure would be the client's;
 *    then the same for built-in kinds at 64 clients: ConfigMap and Deployment creates over HTTP,
 *    each run paired with a registry run of the custom resource (the same floor), medians of the
 *    pairs' ratios;
 * 2. listing 10,000 objects over HTTP, as JSON and as a Table;
 * 3. one change delivered to 100 watch streams (latency until the last one has it).
 *
 *    Each Deployment run is also paired with an HTTP run of custom-resource creates (64 clients):
 *    the ratio of the two is what the built-in write path (typed decoding, defaults, native
 *    validation, Go's JSON shape; the deployment controller making a ReplicaSet for each, as
 *    kube-controller-manager would) costs against the CRD path over the same server;
 *    At 64 clients each pair is also paired with a run against the node:http floor (a bare
 *    node:http server in a child process that parses the body and answers 201 with it), right
 *    after the HTTP run on even runs and before it on odd ones: what the server costs beyond
 *    HTTP and JSON themselves. Then the growth: the time of 10x the creates against the time of
 *    the creates (64 clients), so that a cost growing with the stored objects shows.
 * Ends with `built-in http creates/s ratio to registry creates/s: ConfigMap X, Deployment Y`,
 * `deployment creates ratio to custom resource: X` (goal >= 0.5),
 * `http creates/s ratio to node:http floor: X` (goal >= 0.7), then
 * `http creates/s ratio to registry creates/s: X` (the custom resource; goal >= 0.3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { httpCall } from './lib/http-call.ts';
import { median, pool, startNodeHttpFloor, startServer } from './lib/serve.ts';
import { crdManifest } from '../src/server/testing/fixtures.ts';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servedVersions } from '../src/registry/crd/serving.ts';
import { GenericStore } from '../src/registry/generic-store.ts';
import type { Obj } from '../src/registry/rest.ts';
import { openSqliteStore } from '../src/storage/sqlite/index.ts';
import { benchDeployment as deployment } from './lib/workloads.ts';

const CREATES = Number(process.env.BENCH_CREATES ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LIST_OBJECTS = 10_000;
const WATCHERS = 100;

const crd = crdManifest(
  'stable.example.com',
  { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
  { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer', minimum: 0 } } } },
  { additionalPrinterColumns: [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }] },
);

const ct = (name: string): Obj => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name, labels: { app: 'bench' } },
  spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 1 },
});


function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}



/**
 * One keep-alive connection sending one request at a time: the request written as one buffer, the
 * response read up to its Content-Length (every answer to a create carries one).
 */
class RawConnection {
  private buf: Buffer = Buffer.alloc(0);
  private waiting: ((r: { status: number; text: string }) => void) | undefined;
  private failed: ((e: Error) => void) | undefined;

  private constructor(private readonly sock: Socket, private readonly host: string) {
    sock.setNoDelay(true);
    sock.on('data', (c: Buffer) => {
      this.buf = this.buf.length === 0 ? c : Buffer.concat([this.buf, c]);
      this.parse();
    });
    sock.on('error', (e) => this.failed?.(e));
    sock.on('close', () => this.failed?.(new Error('connection closed')));
  }

  static open(base: string): Promise<RawConnection> {
    const u = new URL(base);
    return new Promise((resolve, reject) => {
      const sock = connect(Number(u.port), u.hostname, () => resolve(new RawConnection(sock, u.host)));
      sock.once('error', reject);
    });
  }

  private parse(): void {
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buf.subarray(0, end).toString('latin1');
    const m = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!m) throw new Error(`response without Content-Length: ${head}`);
    const total = end + 4 + Number(m[1]);
    if (this.buf.length < total) return;
    const text = this.buf.subarray(end + 4, total).toString();
    this.buf = this.buf.subarray(total);
    const done = this.waiting!;
    this.waiting = this.failed = undefined;
    done({ status: Number(head.slice(9, 12)), text });
  }

  post(path: string, body: unknown): Promise<{ status: number; text: string }> {
    const data = Buffer.from(JSON.stringify(body));
    const head = `POST ${path} HTTP/1.1\r\nHost: ${this.host}\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: ${data.length}\r\n\r\n`;
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failed = reject;
      this.sock.write(Buffer.concat([Buffer.from(head, 'latin1'), data]));
    });
  }

  close(): void {
    this.failed = undefined;
    this.sock.destroy();
  }
}

/** A ConfigMap as applications keep them: a few settings and a small file. */
const configMap = (name: string): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { app: 'bench' } },
  data: { LOG_LEVEL: 'info', MAX_CONNECTIONS: '100', 'app.properties': 'server.port=8080\nserver.timeout=30s\ncache.enabled=true\n' },
});


/** The built-in kinds timed beside the custom resource: collection path and object. */
const builtinKinds: { label: string; path: string; obj: (name: string) => Obj }[] = [
  { label: 'ConfigMap', path: '/api/v1/namespaces/default/configmaps', obj: configMap },
  { label: 'Deployment', path: '/apis/apps/v1/namespaces/default/deployments', obj: deployment },
];

/** `n` creates through `concurrency` raw connections (one each); elapsed ms and latencies. */
async function httpCreates(
  base: string,
  path: string,
  n: number,
  concurrency: number,
  name: (i: number) => string,
  obj: (name: string) => Obj = ct,
): Promise<{ ms: number; lat: number[] }> {
  const conns = await Promise.all(Array.from({ length: concurrency }, () => RawConnection.open(base)));
  const free = [...conns];
  try {
    return await pool(n, concurrency, async (i) => {
      const c = free.pop()!;
      const r = await c.post(path, obj(name(i)));
      free.push(c);
      if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
    });
  } finally {
    for (const c of conns) c.close();
  }
}


async function registryCreates(concurrency: number, n = CREATES): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-registry-'));
  const store = await openSqliteStore({ path: join(dir, 'db.sqlite') });
  const v = servedVersions(crd as unknown as Obj)[0]!;
  const rest = new GenericStore({ store, info: v.info, strategy: v.strategy, codec: v.codec });
  const { ms } = await pool(n, concurrency, async (i) => {
    await rest.create('default', ct(`r-${i}`), {});
  });
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return (n / ms) * 1000;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const server = await startServer(dir);
  const floor = await startNodeHttpFloor();
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  try {
    const c = await httpCall(agent, server.base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    if (c.status !== 201) throw new Error(`CRD create failed: ${c.text}`);
    for (let i = 0; i < 200; i++) {
      if ((await httpCall(agent, server.base, 'GET', '/apis/stable.example.com/v1')).status === 200) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';

    // Untimed warm-up of both sides (JIT, SQLite page cache), then registry and HTTP runs
    // alternating, RUNS times each; medians are reported (a shared machine is noisy).
    let total = 0;
    await registryCreates(16);
    await httpCreates(server.base, path, CREATES, 16, (i) => `warm-${i}`);
    await httpCreates(floor.base, path, CREATES, 64, (i) => `warm-${i}`);
    let ratio = 0;
    let registry64 = 0;
    const floorRates: number[] = [];
    const floorRatios: number[] = [];
    const serverCpuPerCreate: number[] = [];
    for (const concurrency of [1, 16, 64]) {
      const n = concurrency === 1 ? Math.min(CREATES, 1000) : CREATES;
      const regRates: number[] = [];
      const httpRuns: { rate: number; lat: number[] }[] = [];
      const ratios: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        // Each pair runs back to back, in alternating order, so that both halves see the same load.
        const offset = total;
        const timeHttp = async () => {
          // At 64 clients the floor runs beside the server, after it on even runs, before on odd ones.
          const floorRate = async () => (concurrency === 64 ? (n / (await httpCreates(floor.base, path, n, concurrency, (i) => `f-${i}`)).ms) * 1000 : 0);
          const before = run % 2 === 1 ? await floorRate() : 0;
          const cpu = server.cpuMs();
          const { ms, lat } = await httpCreates(server.base, path, n, concurrency, (i) => `h${concurrency}-${offset + i}`);
          if (concurrency === 64) serverCpuPerCreate.push(((server.cpuMs() - cpu) * 1000) / n);
          const rate = (n / ms) * 1000;
          httpRuns.push({ rate, lat });
          const f = run % 2 === 0 ? await floorRate() : before;
          if (f > 0) {
            floorRates.push(f);
            floorRatios.push(rate / f);
          }
        };
        if (run % 2 === 0) {
          regRates.push(await registryCreates(concurrency, n));
          await timeHttp();
        } else {
          await timeHttp();
          regRates.push(await registryCreates(concurrency, n));
        }
        total += n;
        ratios.push(httpRuns[run]!.rate / regRates[run]!);
      }
      httpRuns.sort((a, b) => a.rate - b.rate);
      const mid = httpRuns[Math.floor(httpRuns.length / 2)]!;
      const reg = median(regRates);
      console.log(
        `creates, ${concurrency} client${concurrency === 1 ? '' : 's'}: http ${mid.rate.toFixed(0)}/s (p50 ${percentile(mid.lat, 50).toFixed(1)} ms, p99 ${percentile(mid.lat, 99).toFixed(1)} ms); registry ${reg.toFixed(0)}/s; ratio ${median(ratios).toFixed(2)} (medians of ${RUNS})`,
      );
      // The median of the paired ratios: a change in machine load between pairs cancels out.
      if (concurrency === 64) {
        ratio = median(ratios);
        registry64 = reg;
      }
    }
    console.log(
      `node:http floor, 64 clients: ${median(floorRates).toFixed(0)}/s; http creates ratio ${median(floorRatios).toFixed(2)}; server CPU ${median(serverCpuPerCreate).toFixed(0)} us per create (medians of ${RUNS})`,
    );
    // What one event loop allows: a server whose every create cost only what a floor request costs
    // plus what a registry create costs (1/floor + 1/registry seconds) reaches these ratios, and
    // no more: a request needs its HTTP and JSON and its storage write, one after the other.
    const floorRate = median(floorRates);
    console.log(
      `one event loop's ceiling (the floor's work and the registry's, nothing else): ratio to registry ${(1 / (1 + registry64 / floorRate)).toFixed(2)}, ratio to node:http floor ${(1 / (1 + floorRate / registry64)).toFixed(2)}`,
    );

    // Growth: the same creates ten times over, against one run of them, back to back.
    // The server's CPU time grows the same way when the machine's load changes in between.
    const cpu0 = server.cpuMs();
    const oneRun = await httpCreates(server.base, path, CREATES, 64, (i) => `g1-${i}`);
    const cpu1 = server.cpuMs();
    const tenRuns = await httpCreates(server.base, path, 10 * CREATES, 64, (i) => `g10-${i}`);
    const cpu10 = server.cpuMs() - cpu1;
    total += 11 * CREATES;
    const growth = `growth: 10x the creates (${CREATES} -> ${10 * CREATES}, 64 clients) -> ${(tenRuns.ms / oneRun.ms).toFixed(2)}x the time, ${(cpu10 / (cpu1 - cpu0)).toFixed(2)}x the server's CPU time (${((1000 * (cpu1 - cpu0)) / CREATES).toFixed(0)} -> ${((1000 * cpu10) / (10 * CREATES)).toFixed(0)} us per create)`;
    console.log(growth);

    // Built-in kinds against the same floor: the registry's custom-resource creates.
    const builtinRatios: string[] = [];
    const deploymentToCR: number[] = [];
    for (const k of builtinKinds) {
      await httpCreates(server.base, k.path, CREATES, 16, (i) => `warm-${i}`, k.obj);
      const httpRuns: { rate: number; lat: number[] }[] = [];
      const ratios: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const offset = total;
        const timeHttp = async () => {
          const { ms, lat } = await httpCreates(server.base, k.path, CREATES, 64, (i) => `h64-${offset + i}`, k.obj);
          httpRuns.push({ rate: (CREATES / ms) * 1000, lat });
        };
        // Deployments are also paired with custom-resource creates over HTTP, before them on even
        // runs and after on odd ones (the controller's trailing work then slows either side).
        let crRate = 0;
        const timeCR = async () => {
          if (k.label !== 'Deployment') return;
          const { ms } = await httpCreates(server.base, path, CREATES, 64, (i) => `d64-${offset + i}`);
          crRate = (CREATES / ms) * 1000;
        };
        let reg: number;
        if (run % 2 === 0) {
          reg = await registryCreates(64);
          await timeCR();
          await timeHttp();
        } else {
          await timeHttp();
          await timeCR();
          reg = await registryCreates(64);
        }
        total += CREATES;
        ratios.push(httpRuns[run]!.rate / reg);
        if (crRate > 0) deploymentToCR.push(httpRuns[run]!.rate / crRate);
      }
      httpRuns.sort((a, b) => a.rate - b.rate);
      const mid = httpRuns[Math.floor(httpRuns.length / 2)]!;
      console.log(
        `${k.label} creates, 64 clients: http ${mid.rate.toFixed(0)}/s (p50 ${percentile(mid.lat, 50).toFixed(1)} ms, p99 ${percentile(mid.lat, 99).toFixed(1)} ms); ratio to registry custom-resource creates ${median(ratios).toFixed(2)} (medians of ${RUNS})`,
      );
      builtinRatios.push(`${k.label} ${median(ratios).toFixed(2)}`);
    }

    // Exactly LIST_OBJECTS objects in a namespace of their own.
    const listPath = '/apis/stable.example.com/v1/namespaces/bench-list/crontabs';
    await httpCall(agent, server.base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench-list' } });
    await httpCreates(server.base, listPath, LIST_OBJECTS, 64, (i) => `l-${i}`);
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

    console.log(`built-in http creates/s ratio to registry creates/s: ${builtinRatios.join(', ')}`);
    console.log(`deployment creates ratio to custom resource: ${median(deploymentToCR).toFixed(2)} (median of ${RUNS} paired runs, 64 clients over HTTP)`);
    console.log(growth);
    console.log(`http creates/s ratio to node:http floor: ${median(floorRatios).toFixed(2)}`);
    console.log(`http creates/s ratio to registry creates/s: ${ratio.toFixed(2)}`);
  } finally {
    agent.destroy();
    await floor.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
