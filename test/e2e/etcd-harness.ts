/**
 * End-to-end harness for servers on etcd: a real etcd cluster (src/storage/etcd/process.ts) and
 * real `crd-apiserver serve --etcd-servers ...` processes over it, each a replica with its own
 * data directory (kubeconfig) and port, that can be killed with any signal and started again on
 * the same port. Replicas of one test share an --etcd-prefix of their own. Results are
 * ServerProcess-shaped, so ./harness.ts's kubectl() runs against them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerProcess } from './harness.ts';

const root = new URL('../..', import.meta.url).pathname;

export interface Replica extends ServerProcess {
  /** Kill the process (default SIGKILL) and wait for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Start it again with the same flags and port. */
  restart(): Promise<void>;
}

/** Start a replica serving `endpoints` under `prefix`; resolves once it listens. */
export async function startReplica(endpoints: string[], prefix: string, extraArgs: string[] = []): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-etcd-e2e-'));
  let port = 0;
  let proc!: ChildProcess;
  let out = '';
  const launch = async (): Promise<string> => {
    const args = ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--plain-http', '--listen', `127.0.0.1:${port}`, '--data-dir', join(dir, 'data')];
    args.push('--etcd-servers', endpoints.join(','), '--etcd-prefix', prefix, ...extraArgs);
    proc = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const p = proc;
    p.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const mark = out.length;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`replica did not start in time:\n${out}`)), 30000);
      const check = (): void => {
        const m = /listening on (http:\/\/\S+)/.exec(out.slice(mark));
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      p.stdout!.on('data', check);
      p.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`replica exited with ${code}:\n${out}`));
      });
    });
  };
  const url = await launch();
  port = Number(new URL(url).port);
  const exited = () => (proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => proc.once('exit', () => r())));
  const replica: Replica = {
    url,
    dir,
    kubeconfig: join(dir, 'data', 'kubeconfig'),
    // Plain HTTP (--plain-http): the global fetch, no client TLS.
    fetch,
    tls: undefined,
    agent: undefined,
    get proc() {
      return proc;
    },
    output: () => out,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      const done = exited();
      proc.kill(signal);
      await done;
    },
    async restart() {
      await launch();
    },
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const done = exited();
        proc.kill('SIGTERM');
        await done;
      }
      rmSync(dir, { recursive: true, force: true });
      return proc.exitCode;
    },
  };
  return replica;
}

/** Poll `fn` until it returns a truthy value (or throw after `timeoutMs`). */
export async function eventually<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last instanceof Error ? last.message : String(last)}` : ''}`);
}

/** A CronTab object as JSON. */
export function crontab(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { cronSpec: '* * * * */5', image: 'img', ...extra } };
}

export const crontabsPath = '/apis/stable.example.com/v1/namespaces/default/crontabs';

/** POST a CronTab; resolves with the HTTP status and the parsed body. */
export async function createCronTab(base: string, name: string, timeoutMs = 15000): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(base + crontabsPath, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(crontab(name)),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** GET a list of CronTabs (names and resourceVersions). */
export async function listCronTabs(base: string): Promise<{ names: string[]; resourceVersion: string; rvs: string[] }> {
  const res = await fetch(base + crontabsPath, { signal: AbortSignal.timeout(15000) });
  if (res.status !== 200) throw new Error(`list: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { metadata: { resourceVersion: string }; items: { metadata: { name: string; resourceVersion: string } }[] };
  return { names: body.items.map((i) => i.metadata.name), rvs: body.items.map((i) => i.metadata.resourceVersion), resourceVersion: body.metadata.resourceVersion };
}

/** A watch on CronTabs over HTTP from `resourceVersion`, collecting events (type, name, resourceVersion). */
export function watchCronTabs(base: string, resourceVersion: string) {
  const events: { type: string; name: string; rv: string }[] = [];
  const ctl = new AbortController();
  let ended = false;
  const done = (async () => {
    try {
      const res = await fetch(`${base}${crontabsPath}?watch=1&resourceVersion=${resourceVersion}&allowWatchBookmarks=false`, { signal: ctl.signal });
      if (res.status !== 200) throw new Error(`watch: ${res.status} ${await res.text()}`);
      const reader = res.body!.getReader();
      const dec = new TextDecoder();
      let buf = '';
      for (;;) {
        const { value, done: eof } = await reader.read();
        if (eof) break;
        buf += dec.decode(value, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (!line) continue;
          const ev = JSON.parse(line) as { type: string; object: { metadata: { name: string; resourceVersion: string } } };
          events.push({ type: ev.type, name: ev.object.metadata.name, rv: ev.object.metadata.resourceVersion });
        }
      }
    } catch {
      // Aborted, or the server went away: the caller looks at `ended` and what arrived.
    } finally {
      ended = true;
    }
  })();
  return {
    events,
    get ended() {
      return ended;
    },
    async stop() {
      ctl.abort();
      await done;
    },
  };
}
