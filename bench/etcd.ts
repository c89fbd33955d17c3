/**
 * etcd benchmark (`npm run bench:etcd`): what the etcd backend costs on top of etcd itself, and
 * what a second replica adds, each measured against a peer in the same run on one etcd member
 * started here (loopback, temporary data directory).
 *
 * 1. creates/s through the etcd Store (one compare-and-put transaction per create, 64 concurrent
 *    creators) against raw `etcd3` puts of the same values with the same concurrency; also the
 *    registry's GenericStore (custom-resource strategy) over the etcd Store, for reference;
 * 2. HTTP creates/s against real `serve --etcd-servers` processes: 64 keep-alive clients on one
 *    replica, then the same clients split over two replicas of the same etcd.
 *
 * Runs alternate between the compared sides; medians of BENCH_RUNS runs (default 5) of
 * BENCH_CREATES creates (default 2000) are printed, then `etcd store ratio to raw puts: X`
 * (goal >= 0.5) and `two replicas ratio to one: X`.
 */
import { Agent, request } from 'node:http';
import { Etcd3 } from 'etcd3';
import { openEtcdStore, type EtcdStore } from '../src/storage/etcd/index.ts';
import { etcdMissing, startEtcdCluster } from '../src/storage/etcd/process.ts';
import { CustomResourceStrategy } from '../src/registry/customresource/strategy.ts';
import { GenericStore } from '../src/registry/generic-store.ts';
import type { Obj } from '../src/registry/rest.ts';
import { median } from './lib/timing.ts';
import { crontabCRDYAML } from '../test/e2e/harness.ts';
import { startReplica, crontabsPath, type Replica } from '../test/e2e/etcd-harness.ts';
import { parse } from 'yaml';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CREATES = Number(process.env.BENCH_CREATES ?? 2000);
const CONCURRENCY = 64;

function sampleObject(i: number): Obj {
  return {
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name: `ct-${i}`, namespace: 'default', labels: { app: 'bench', shard: String(i % 16) }, annotations: { note: 'x'.repeat(64) } },
    spec: { cronSpec: '* * * * */5', image: 'registry.example.com/bench:1', replicas: i % 5 },
  };
}

/** Run `task(i)` for i < n with `concurrency` in flight; resolves with creates per second. */
async function pool(n: number, concurrency: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

function post(agent: Agent, base: string, path: string, body: unknown): Promise<number> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function httpCreates(bases: string[], run: string): Promise<number> {
  const agents = bases.map(() => new Agent({ keepAlive: true, maxSockets: CONCURRENCY }));
  try {
    return await pool(CREATES, CONCURRENCY, async (i) => {
      const k = i % bases.length;
      const obj = sampleObject(i);
      (obj.metadata as Obj).name = `${run}-${i}`;
      const status = await post(agents[k]!, bases[k]!, crontabsPath, obj);
      if (status !== 201) throw new Error(`create ${run}-${i}: ${status}`);
    });
  } finally {
    for (const a of agents) a.destroy();
  }
}

async function main(): Promise<void> {
  const missing = etcdMissing();
  if (missing) {
    console.log(`skipped: ${missing}`);
    return;
  }
  const cluster = await startEtcdCluster();
  const raw = new Etcd3({ hosts: cluster.endpoints });
  let store: EtcdStore | undefined;
  const replicas: Replica[] = [];
  try {
    store = await openEtcdStore({ endpoints: cluster.endpoints, prefix: '/bench-store', compactionIntervalMs: 0 });
    const generic = new GenericStore({
      store,
      strategy: new CustomResourceStrategy({ group: 'stable.example.com', version: 'v1', kind: 'CronTab', namespaced: true, subresources: { status: {} } }),
      info: { group: 'stable.example.com', version: 'v1', resource: 'crontabs', kind: 'CronTab', listKind: 'CronTabList', namespaced: true },
    });
    const value = JSON.stringify(sampleObject(0));
    const rawRates: number[] = [];
    const storeRates: number[] = [];
    const genericRates: number[] = [];
    console.log(`etcd ${cluster.endpoints[0]}: ${CREATES} creates x ${RUNS} runs, ${CONCURRENCY} concurrent`);
    for (let r = 0; r < RUNS + 1; r++) {
      const rawRate = await pool(CREATES, CONCURRENCY, (i) => raw.put(`/bench-raw/r${r}/${i}`).value(value).exec().then(() => {}));
      const storeRate = await pool(CREATES, CONCURRENCY, (i) => store!.create(`/registry/stable.example.com/crontabs/default/r${r}-${i}`, value).then(() => {}));
      const genericRate = await pool(CREATES, CONCURRENCY, async (i) => {
        const obj = sampleObject(i);
        (obj.metadata as Obj).name = `g${r}-${i}`;
        await generic.create('default', obj, {});
      });
      if (r === 0) continue; // warm-up
      rawRates.push(rawRate);
      storeRates.push(storeRate);
      genericRates.push(genericRate);
      console.log(`  run ${r}: raw puts ${rawRate.toFixed(0)}/s, etcd store ${storeRate.toFixed(0)}/s, registry on etcd ${genericRate.toFixed(0)}/s`);
    }
    const rawMedian = median(rawRates);
    const storeMedian = median(storeRates);
    console.log(`raw etcd3 puts:        ${rawMedian.toFixed(0)} creates/s (median)`);
    console.log(`etcd store creates:    ${storeMedian.toFixed(0)} creates/s (median)`);
    console.log(`registry on etcd:      ${median(genericRates).toFixed(0)} creates/s (median)`);

    const prefix = '/bench-http';
    replicas.push(...(await Promise.all([startReplica(cluster.endpoints, prefix), startReplica(cluster.endpoints, prefix)])));
    const crd = parse(crontabCRDYAML) as Obj;
    const agent = new Agent({ keepAlive: true });
    const status = await post(agent, replicas[0]!.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    agent.destroy();
    if (status !== 201) throw new Error(`CRD create: ${status}`);
    for (const rep of replicas) {
      for (let t = 0; ; t++) {
        const res = await fetch(rep.url + crontabsPath);
        if (res.status === 200) break;
        if (t > 200) throw new Error('CRD not served');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const one: number[] = [];
    const two: number[] = [];
    for (let r = 0; r < RUNS + 1; r++) {
      const o = await httpCreates([replicas[0]!.url], `one${r}`);
      const t = await httpCreates(replicas.map((x) => x.url), `two${r}`);
      if (r === 0) continue;
      one.push(o);
      two.push(t);
      console.log(`  run ${r}: HTTP one replica ${o.toFixed(0)}/s, two replicas ${t.toFixed(0)}/s`);
    }
    console.log(`HTTP creates, one replica:   ${median(one).toFixed(0)} creates/s (median)`);
    console.log(`HTTP creates, two replicas:  ${median(two).toFixed(0)} creates/s (median)`);
    console.log(`two replicas ratio to one: ${(median(two) / median(one)).toFixed(2)}`);
    console.log(`etcd store ratio to raw puts: ${(storeMedian / rawMedian).toFixed(2)}`);
  } finally {
    await Promise.all(replicas.map((r) => r.stop()));
    await store?.close();
    raw.close();
    await cluster.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
