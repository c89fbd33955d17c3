/**
 * Server-side apply benchmark (`npm run bench:apply`): what applying costs against a merge patch
 * of the same change, in the same run, against a real `crd-apiserver serve` process.
 *
 * For a custom resource (CronTab) and a ConfigMap, OBJECTS objects are created, then each is
 * changed CHANGES times in turn by a merge patch (`{"spec":{"replicas":i}}`, `{"data":{"k":i}}`)
 * and by an apply of the whole object carrying the same change (fieldManager `bench`): p50/p99
 * latency with one client, and changes/s with 16 concurrent clients. The two are run in
 * back-to-back pairs BENCH_RUNS times (default 5) after an untimed warm-up; medians reported.
 * Every write — the merge patches too — maintains metadata.managedFields, as kube-apiserver's do.
 *
 * Ends with `apply/merge-patch time ratio: X` (median of the pairs' per-change time ratios, both
 * kinds, 16 clients; goal <= 1.5).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpCall } from './lib/http-call.ts';
import { median, pool, startServer } from './lib/serve.ts';
import { crdManifest } from '../src/server/testing/fixtures.ts';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 50);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 400);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const crd = crdManifest(
  'stable.example.com',
  { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
  {
    spec: {
      type: 'object',
      properties: {
        cronSpec: { type: 'string' },
        image: { type: 'string' },
        replicas: { type: 'integer', minimum: 0 },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        },
      },
    },
  },
);

interface Kind {
  name: string;
  path: (name: string) => string;
  collection: string;
  object: (name: string, i: number) => Record<string, unknown>;
  mergePatch: (i: number) => Record<string, unknown>;
}

const kinds: Kind[] = [
  {
    name: 'custom resource',
    collection: '/apis/stable.example.com/v1/namespaces/default/crontabs',
    path: (n) => `/apis/stable.example.com/v1/namespaces/default/crontabs/${n}`,
    object: (name, i) => ({
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name, labels: { app: 'bench' } },
      spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: i, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] },
    }),
    mergePatch: (i) => ({ spec: { replicas: i } }),
  },
  {
    name: 'ConfigMap',
    collection: '/api/v1/namespaces/default/configmaps',
    path: (n) => `/api/v1/namespaces/default/configmaps/${n}`,
    object: (name, i) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, labels: { app: 'bench' } },
      data: { k: String(i), a: 'one', b: 'two', c: 'three' },
    }),
    mergePatch: (i) => ({ data: { k: String(i) } }),
  },
];




async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-apply-'));
  const server = await startServer(dir);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const call = async (method: string, path: string, body: unknown, contentType: string, want: number) => {
    const r = await httpCall(agent, server.base, method, path, body, 'application/json', contentType);
    if (r.status !== want) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  };
  try {
    await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd, 'application/json', 201);
    for (let i = 0; i < 200; i++) {
      const r = await httpCall(agent, server.base, 'GET', '/apis/stable.example.com/v1/namespaces/default/crontabs');
      if (r.status === 200) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    let seq = 1000;
    const ratios: number[] = [];
    for (const kind of kinds) {
      const names = Array.from({ length: OBJECTS }, (_, i) => `bench-${i}`);
      for (const n of names) await call('POST', kind.collection, kind.object(n, 0), 'application/json', 201);
      const merge = (i: number) => call('PATCH', kind.path(names[i % OBJECTS]!), kind.mergePatch(++seq), 'application/merge-patch+json', 200);
      const apply = (i: number) => call('PATCH', `${kind.path(names[i % OBJECTS]!)}?fieldManager=bench&force=true`, kind.object(names[i % OBJECTS]!, ++seq), 'application/apply-patch+yaml', 200);
      // Warm-up: the first apply to each object adds the apply manager's entry.
      await pool(CHANGES, 16, merge);
      await pool(CHANGES, 16, apply);
      const m1: number[] = [], a1: number[] = [], m99: number[] = [], a99: number[] = [], mRate: number[] = [], aRate: number[] = [], pair: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const ms = await pool(CHANGES / 4, 1, merge);
        const as = await pool(CHANGES / 4, 1, apply);
        m1.push(ms.lat[Math.floor(ms.lat.length / 2)]!);
        a1.push(as.lat[Math.floor(as.lat.length / 2)]!);
        m99.push(ms.lat[Math.floor(ms.lat.length * 0.99)]!);
        a99.push(as.lat[Math.floor(as.lat.length * 0.99)]!);
        const mc = await pool(CHANGES, 16, merge);
        const ac = await pool(CHANGES, 16, apply);
        mRate.push((CHANGES / mc.ms) * 1000);
        aRate.push((CHANGES / ac.ms) * 1000);
        pair.push(ac.ms / mc.ms);
      }
      console.log(`${kind.name}:`);
      console.log(`  merge patch  p50 ${median(m1).toFixed(2)} ms  p99 ${median(m99).toFixed(2)} ms  ${median(mRate).toFixed(0)} changes/s (16 clients)`);
      console.log(`  apply        p50 ${median(a1).toFixed(2)} ms  p99 ${median(a99).toFixed(2)} ms  ${median(aRate).toFixed(0)} changes/s (16 clients)`);
      console.log(`  apply/merge-patch time ratio (${kind.name}): ${median(pair).toFixed(2)}`);
      ratios.push(...pair);
    }
    console.log(`apply/merge-patch time ratio: ${median(ratios).toFixed(2)}`);
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
