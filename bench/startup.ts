/**
 * Startup benchmark (`npm run bench:startup`): the built bin (`npm run build`, then
 * `node dist/bin/main.js serve`) from spawn to the first 200 of `/readyz`, on a fresh SQLite file
 * each time, with every built-in kind registered, against a floor measured the same way in the
 * same run: a bare `node -e` HTTP server that answers 200 on `/readyz` as soon as it listens
 * (the cost of starting node and a socket, which no server can go under).
 *
 * Runs alternate floor and bin so that a change in machine load affects both. Printed: each run,
 * the medians, `startup ratio to bare node server: X`, and last `startup to ready (built bin): X s`
 * (target < 1 s). The server starts as `serve` does by default, over HTTPS, so a first start
 * includes making its CA and certificates; `--plain-http` measures it without.
 *
 * Usage: npm run bench:startup [-- --runs 9 --no-build --bin PATH --plain-http]  (--bin: another
 * build's dist/bin/main.js, to compare; implies --no-build)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { Agent as SecureAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpCall } from './lib/http-call.ts';
import { median } from './lib/timing.ts';
import { builtBin } from './lib/validate-command.ts';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const RUNS = flag('--runs', 9);
const binFlag = process.argv.indexOf('--bin');
const NO_BUILD = process.argv.includes('--no-build') || binFlag > 0;
const PLAIN = process.argv.includes('--plain-http');

const root = new URL('..', import.meta.url).pathname;
const bin = binFlag > 0 ? process.argv[binFlag + 1]! : builtBin(root);

// The floor: listen on a free port, say where as `serve` does, answer 200 to everything.
const floorSource = `
const http = require('node:http');
const s = http.createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'text/plain' }); res.end('ok'); });
s.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port));
`;

/**
 * ms from spawn to the first 200 of /readyz for a process that prints `listening on <url>`; an
 * https URL is verified with `caFile`'s CA (anonymous requests may read /readyz).
 */
async function timeToReady(args: readonly string[], caFile?: string): Promise<number> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let exited = false;
  proc.on('exit', () => (exited = true));
  try {
    let out = '';
    const base = await new Promise<string>((resolve, reject) => {
      proc.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (https?:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      proc.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    });
    const agent = base.startsWith('https:') ? new SecureAgent({ keepAlive: false, ca: readFileSync(caFile!) }) : new Agent({ keepAlive: false });
    for (;;) {
      if (exited) throw new Error(`${args.join(' ')} exited`);
      const r = await httpCall(agent, base, 'GET', '/readyz').catch(() => ({ status: 0, text: '' }));
      if (r.status === 200) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    return performance.now() - t0;
  } finally {
    if (!exited) {
      const gone = new Promise<void>((r) => proc.once('exit', () => r()));
      proc.kill('SIGTERM');
      await gone;
    }
  }
}

async function main(): Promise<void> {
  if (!NO_BUILD) {
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`npm run build failed:\n${b.stdout}${b.stderr}`);
  }
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build`);
  console.log(`startup bench: ${RUNS} runs, Node ${process.version}, bin ${bin}${PLAIN ? ', --plain-http' : ', HTTPS (certificates made at each first start)'}`);
  const floor: number[] = [];
  const server: number[] = [];
  // One untimed start of each warms the file cache.
  for (let i = -1; i < RUNS; i++) {
    const f = await timeToReady(['-e', floorSource]);
    const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
    let s: number;
    try {
      s = await timeToReady([bin, 'serve', '--listen', '127.0.0.1:0', '--data-dir', dir, ...(PLAIN ? ['--plain-http'] : [])], join(dir, 'pki', 'ca.crt'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if (i < 0) continue;
    floor.push(f);
    server.push(s);
    console.log(`  run ${i + 1}: bare node server ${f.toFixed(0)} ms, built bin ${s.toFixed(0)} ms`);
  }
  const f = median(floor);
  const s = median(server);
  console.log(`bare node server to ready (median): ${f.toFixed(0)} ms`);
  console.log(`built bin to ready (median): ${s.toFixed(0)} ms`);
  console.log(`startup ratio to bare node server: ${(s / f).toFixed(2)}`);
  console.log(`startup to ready (built bin): ${(s / 1000).toFixed(2)} s`);
}

await main();
