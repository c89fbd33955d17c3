/**
 * An in-process server for the admission benches: the composition `serve` uses (backend and
 * ApiServer) on a fresh data directory, listening on loopback, with a keep-alive agent for the
 * benches' requests; and the write load they time on it, ConfigMap creates from concurrent
 * clients, in back-to-back pairs against a server without the admission step measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiServer, openBackend } from '../../src/server/index.ts';
import { httpCall } from './http-call.ts';
import { median } from './timing.ts';

export interface Served {
  base: string;
  agent: Agent;
  stop(): Promise<void>;
}

export async function serveInProcess(prefix: string): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const backend = await openBackend(dir);
  const server = new ApiServer(backend.deps);
  const { host, port } = await server.listen('127.0.0.1', 0);
  return {
    base: `http://${host}:${port}`,
    agent: new Agent({ keepAlive: true, maxSockets: 64 }),
    async stop() {
      await server.close();
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A request that must succeed (2xx); its body. */
export async function must(s: Served, method: string, path: string, body?: unknown): Promise<string> {
  const r = await httpCall(s.agent, s.base, method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.text;
}

let seq = 0;

/** `n` ConfigMap creates in `default` with `clients` concurrent clients; creates per second. */
export async function configMapCreates(s: Served, n: number, clients: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next++ < n) {
        const name = `bench-${seq++}`;
        await must(s, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1', b: '2', c: '3' } });
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

/** Medians of paired runs: creates/s on the plain server, on the measured one, and their ratio. */
export interface PairedCreates {
  plain: number;
  measured: number;
  ratio: number;
}

/**
 * An untimed warm-up (200 creates on each), then `runs` back-to-back pairs of `n` creates on
 * `plain` and `measured`; `afterRun` is called after each pair.
 */
export async function pairedCreates(plain: Served, measured: Served, opts: { runs: number; n: number; clients: number; afterRun?: () => void }): Promise<PairedCreates> {
  await configMapCreates(plain, 200, opts.clients);
  await configMapCreates(measured, 200, opts.clients);
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let run = 0; run < opts.runs; run++) {
    const x = await configMapCreates(plain, opts.n, opts.clients);
    const y = await configMapCreates(measured, opts.n, opts.clients);
    a.push(x);
    b.push(y);
    ratios.push(y / x);
    opts.afterRun?.();
  }
  return { plain: median(a), measured: median(b), ratio: median(ratios) };
}
