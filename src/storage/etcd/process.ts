/**
 * Real etcd members for tests and benchmarks: each on loopback ports picked free, with its data in a
 * temporary directory, stopped (and its directory removed) by `stop()`. A member can be killed with
 * any signal and restarted on the same ports and data, which is what the fault tests do. TLS
 * clusters take PEM files made by the caller (see ./certs.ts).
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { etcdClientOptions, type EtcdTLS } from './store.ts';

export const etcdBinary = '/usr/bin/etcd';

/** Undefined when etcd is installed, else why tests that need it skip (and how to install it). */
export function etcdMissing(): string | undefined {
  return existsSync(etcdBinary) ? undefined : 'etcd is not installed (apt-get install etcd-server)';
}

/**
 * A free TCP port on 127.0.0.1, below the kernel's ephemeral range (32768 and up): a member killed
 * and restarted must get its port back, and ports in that range are handed to every `listen(0)`
 * and outgoing connection on the machine in the meantime.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export interface ClusterTLSFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

export interface EtcdMember {
  name: string;
  clientURL: string;
  readonly running: boolean;
  /** Send `signal` (default SIGKILL) and wait for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Start it again on the same ports and data directory; resolves once this member (not another
   * process that took its port meanwhile) answers on its client URL. */
  start(): Promise<void>;
  /** SIGSTOP / SIGCONT: the member hangs with its connections open, then goes on. */
  pause(): void;
  resume(): void;
}

export interface EtcdCluster {
  members: EtcdMember[];
  /** Client URLs of every member. */
  endpoints: string[];
  /** Client TLS for the cluster, when it serves TLS. */
  tls?: EtcdTLS;
  /** Wait until a linearizable read through `endpoints` succeeds. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** Kill every member and remove the data. */
  stop(): Promise<void>;
}

/** Start `size` members (default 1) as one cluster; resolves once it serves reads. */
export async function startEtcdCluster(
  opts: { size?: number; tls?: ClusterTLSFiles & EtcdTLS; extraArgs?: string[] } = {},
): Promise<EtcdCluster> {
  const size = opts.size ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-etcd-'));
  const scheme = opts.tls ? 'https' : 'http';
  const ports: { client: number; peer: number }[] = [];
  for (let i = 0; i < size; i++) ports.push({ client: await freePort(), peer: await freePort() });
  const token = `t${process.pid}-${Date.now()}`;
  const initialCluster = ports.map((p, i) => `m${i}=http://127.0.0.1:${p.peer}`).join(',');
  const members = ports.map((p, i) => {
    const name = `m${i}`;
    const clientURL = `${scheme}://127.0.0.1:${p.client}`;
    const args = [
      `--name=${name}`,
      `--data-dir=${join(dir, name)}`,
      `--listen-client-urls=${clientURL}`,
      `--advertise-client-urls=${clientURL}`,
      `--listen-peer-urls=http://127.0.0.1:${p.peer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${p.peer}`,
      `--initial-cluster=${initialCluster}`,
      `--initial-cluster-token=${token}`,
      '--initial-cluster-state=new',
      '--logger=zap',
      '--log-level=error',
      ...(opts.extraArgs ?? []),
    ];
    if (opts.tls) {
      args.push(`--cert-file=${opts.tls.certFile}`, `--key-file=${opts.tls.keyFile}`, `--trusted-ca-file=${opts.tls.caFile}`, '--client-cert-auth');
    }
    return new Member(name, clientURL, args, opts.tls ? { ca: opts.tls.ca, cert: opts.tls.cert, key: opts.tls.key } : undefined);
  });
  await Promise.all(members.map((m) => m.spawn()));
  const endpoints = members.map((m) => m.clientURL);
  const tls = opts.tls ? { ca: opts.tls.ca, cert: opts.tls.cert, key: opts.tls.key } : undefined;
  const cluster: EtcdCluster = {
    members,
    endpoints,
    tls,
    waitReady: (timeoutMs = 20_000) => waitReady(endpoints, tls, timeoutMs),
    async stop() {
      for (const m of members) m.resume();
      await Promise.all(members.map((m) => m.kill('SIGKILL')));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.waitReady();
    await Promise.all(members.map((m) => m.learnIdentity()));
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  return cluster;
}

class Member implements EtcdMember {
  private proc: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stderr = '';
  /** etcd's id of this member, learnt once the cluster first formed. */
  private memberId = '';

  constructor(
    readonly name: string,
    readonly clientURL: string,
    private readonly args: string[],
    private readonly tls: EtcdTLS | undefined,
  ) {}

  get running(): boolean {
    return this.proc !== undefined;
  }

  /** The member id this member's own URL reports ('' when it does not answer). */
  private async reportedId(): Promise<string> {
    const client = new Etcd3(etcdClientOptions({ endpoints: [this.clientURL], tls: this.tls, requestTimeoutMs: 1000 }));
    try {
      return (await client.maintenance.status()).header.member_id;
    } catch {
      return '';
    } finally {
      client.close();
    }
  }

  async learnIdentity(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(this.memberId = await this.reportedId())) {
      if (Date.now() > deadline) throw new Error(`etcd member ${this.name} does not answer on ${this.clientURL}:\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async start(): Promise<void> {
    await this.spawn();
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (!this.proc) throw new Error(`etcd member ${this.name} exited on restart:\n${this.stderr}`);
      const id = await this.reportedId();
      if (id === this.memberId) return;
      if (id !== '') throw new Error(`another etcd (member ${id}) answers on ${this.clientURL}, the port of ${this.name}`);
      if (Date.now() > deadline) throw new Error(`etcd member ${this.name} did not answer after restart:\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Start the process (without waiting for it to serve). */
  async spawn(): Promise<void> {
    if (this.proc) return;
    const p = spawn(etcdBinary, this.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.proc = p;
    p.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    this.exited = new Promise<void>((resolve) => {
      p.once('exit', () => {
        if (this.proc === p) this.proc = undefined;
        resolve();
      });
    });
    // Fail fast when the binary cannot start at all.
    await new Promise<void>((resolve, reject) => {
      p.once('error', reject);
      setTimeout(resolve, 50);
    });
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const p = this.proc;
    if (!p) return;
    p.kill(signal);
    await this.exited;
  }

  pause(): void {
    this.proc?.kill('SIGSTOP');
  }

  resume(): void {
    this.proc?.kill('SIGCONT');
  }

  /** The last lines etcd wrote to stderr (for failure messages). */
  log(): string {
    return this.stderr;
  }
}

async function waitReady(endpoints: string[], tls: EtcdTLS | undefined, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const client = new Etcd3(etcdClientOptions({ endpoints, tls, requestTimeoutMs: 1000 }));
    try {
      await client.kv.range({ key: Buffer.from('health'), count_only: true });
      return;
    } catch (e) {
      last = e;
    } finally {
      client.close();
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`etcd at ${endpoints.join(',')} did not become ready: ${last instanceof Error ? last.message : String(last)}`);
}
