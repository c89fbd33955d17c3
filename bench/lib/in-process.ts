/**
 * An in-process server for the admission benches: the composition `serve` uses (backend and
 * ApiServer) on a fresh data directory, listening on loopback, with a keep-alive agent for the
 * benches' requests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiServer, openBackend } from '../../src/server/index.ts';

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
