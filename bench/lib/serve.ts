/**
 * What the HTTP benches share: a real `crd-apiserver serve` process on a fresh data directory,
 * a pool of concurrent tasks with their latencies, and the median.
 */
import { spawn } from 'node:child_process';

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
 * resolves with its base URL once it listens.
 */
export async function startServer(dir: string, args: readonly string[] = ['--plain-http']): Promise<{ base: string; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args, '--listen', '127.0.0.1:0', '--data-dir', dir], {
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
    stop: () =>
      new Promise<void>((r) => {
        proc.once('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}
