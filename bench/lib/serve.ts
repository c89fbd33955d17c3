/**
 * What the HTTP benches share: a real `crd-apiserver serve` process on a fresh data directory,
 * a pool of concurrent tasks with their latencies, and the median.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = new URL('../..', import.meta.url).pathname;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Runs `n` tasks with `concurrency` in flight; returns elapsed ms and the sorted per-task latencies. */
export async function pool(n: number, concurrency: number, task: (i: number) => Promise<void>): Promise<{ ms: number; lat: number[] }> {
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

/**
 * Starts `serve` on a free port with its data under `dir` and `args` (default: plain HTTP);
 * resolves with its base URL once it listens. `BENCH_SERVE_NODE_FLAGS` (space-separated) is put
 * before the script, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the server under load
 * (the profile is written when `stop` ends it with SIGTERM).
 */
export async function startServer(dir: string, args: readonly string[] = ['--plain-http']): Promise<Started> {
  const nodeFlags = (process.env.BENCH_SERVE_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
  return spawnListening([...nodeFlags, '--import', 'tsx', 'src/cli/main.ts', 'serve', ...args, '--listen', '127.0.0.1:0', '--data-dir', dir]);
}

/** A started server process: its base URL, and `stop` (SIGTERM, resolved when it has exited). */
export interface Started {
  base: string;
  stop: () => Promise<void>;
  /** The CPU time (user + system, ms) the process has used so far; NaN where /proc is not there. */
  cpuMs: () => number;
}

/** utime + stime of a process from /proc/PID/stat (clock ticks of 10 ms on Linux). */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * The floor under an API server's create: a bare node:http server reading the request body,
 * parsing it as JSON and answering 201 with it re-serialized, in a child process as `serve` is.
 * No routing, storage or checks: what HTTP/1.1 and JSON cost in node on this machine.
 */
const floorServer = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString())) + '\\n';
    res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
process.once('SIGTERM', () => { server.closeAllConnections(); server.close(() => process.exit(0)); });
`;

/** Starts the node:http floor (see floorServer) on a free loopback port. */
export function startNodeHttpFloor(): Promise<Started> {
  return spawnListening(['-e', floorServer]);
}

/** Spawns node with `argv` in the checkout and resolves once it prints `listening on URL`. */
async function spawnListening(argv: string[]): Promise<Started> {
  const proc = spawn(process.execPath, argv, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (https?:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    base,
    cpuMs: () => processCpuMs(proc.pid),
    stop: () =>
      new Promise<void>((r) => {
        proc.once('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}
