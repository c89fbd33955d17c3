/**
 * bench:gc — the garbage collector against a client, on a real `serve` process: one owner (a
 * ConfigMap) with N dependents (ConfigMaps naming it), deleted in the background, timed until the
 * last dependent is gone; then the same N dependents deleted one by one through the API by a
 * client with as many requests in flight as the collector has workers (8). Runs alternate; the
 * last line is the median ratio of the collector's time to the client's.
 *
 *   npm run bench:gc [-- --dependents 10000 --runs 3]
 */
import { Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpCall } from './lib/http-call.ts';
import { median, pool, startServer } from './lib/serve.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const dependents = arg('dependents', 10_000);
const runs = arg('runs', 3);
const workers = 8;

const dir = mkdtempSync(join(tmpdir(), 'bench-gc-'));
const server = await startServer(join(dir, 'data'));
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const base = server.base;
const cms = '/api/v1/namespaces/default/configmaps';

async function call(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const r = await httpCall(agent, base, method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return JSON.parse(r.text) as Record<string, any>;
}

async function remaining(label: string): Promise<number> {
  const list = await call('GET', `${cms}?labelSelector=${label}&limit=1`);
  return list.items.length + (list.metadata.remainingItemCount ?? 0);
}

/** Creates the owner and its dependents (labelled `set=<label>`); returns the owner's name. */
async function populate(label: string, owned: boolean): Promise<string> {
  const owner = await call('POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `owner-${label}` } });
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name, uid: owner.metadata.uid };
  await pool(dependents, 32, async (i) => {
    await call('POST', cms, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${label}-${i}`, labels: { set: label }, ...(owned ? { ownerReferences: [ref] } : {}) },
      data: { i: String(i) },
    });
  });
  return owner.metadata.name as string;
}

async function until(label: string): Promise<void> {
  for (;;) {
    if ((await remaining(label)) === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const gcTimes: number[] = [];
const apiTimes: number[] = [];
try {
  for (let run = 0; run < runs; run++) {
    const gcLabel = `gc${run}`;
    const owner = await populate(gcLabel, true);
    const t0 = performance.now();
    await call('DELETE', `${cms}/${owner}?propagationPolicy=Background`);
    await until(gcLabel);
    gcTimes.push(performance.now() - t0);

    const apiLabel = `api${run}`;
    await populate(apiLabel, false);
    const t1 = performance.now();
    await pool(dependents, workers, async (i) => {
      await call('DELETE', `${cms}/${apiLabel}-${i}`);
    });
    apiTimes.push(performance.now() - t1);
    console.log(`run ${run + 1}: collector ${(gcTimes[run]! / 1000).toFixed(2)} s, client deleting one by one (${workers} in flight) ${(apiTimes[run]! / 1000).toFixed(2)} s`);
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
const ratios = gcTimes.map((g, i) => g / apiTimes[i]!);
console.log(`${dependents} dependents of one owner: collector median ${(median(gcTimes) / 1000).toFixed(2)} s, client median ${(median(apiTimes) / 1000).toFixed(2)} s`);
console.log(`gc/client delete time ratio: ${median(ratios).toFixed(2)}`);
