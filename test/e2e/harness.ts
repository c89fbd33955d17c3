/**
 * End-to-end harness: starts a real `crd-apiserver serve` process through the CLI entry
 * (`node --import tsx src/cli/main.ts serve --listen 127.0.0.1:0 --data-dir <tmp>`), over HTTPS
 * with the certificates it makes unless `--plain-http` is among the arguments, reads the chosen
 * address from its output, and runs kubectl against the kubeconfig it writes, with a private
 * HOME and discovery cache so that runs never share state. Raw requests go through `s.fetch`,
 * which trusts the server's CA and presents the kubeconfig's admin certificate.
 */
import { spawn, type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYAML } from 'yaml';
import { tlsFetch, type ClientTLS } from '../lib/tls-fetch.ts';

const root = new URL('../..', import.meta.url).pathname;

export interface ServerProcess {
  url: string;
  dir: string;
  kubeconfig: string;
  proc: ChildProcess;
  /** fetch for this server: over TLS as the kubeconfig's admin, or the global fetch for plain HTTP. */
  fetch: typeof fetch;
  /** The kubeconfig's CA and admin certificate (undefined for plain HTTP). */
  tls: ClientTLS | undefined;
  /** An https.Agent with `tls`, for node:https requests (undefined for plain HTTP). */
  agent: Agent | undefined;
  output(): string;
  stop(opts?: { keep?: boolean }): Promise<number | null>;
}

/**
 * Starts the server (with `args` after the harness's own flags); resolves once it prints its
 * address. With `dir`, on that directory's data (a restart); `stop({ keep: true })` leaves the
 * directory for one.
 */
export async function startServer(opts: { dir?: string; args?: readonly string[] } = {}): Promise<ServerProcess> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'crd-apiserver-e2e-'));
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--listen', '127.0.0.1:0', '--data-dir', join(dir, 'data'), ...(opts.args ?? [])], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    // A minute: a loaded 2-core machine can take over 20 s to start tsx and the server. A server
    // that does not start is killed, so that the test file's process can still exit.
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${out}`));
    }, 60_000);
    const check = (): void => {
      const m = /listening on (https?:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', check);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  const kubeconfig = join(dir, 'data', 'kubeconfig');
  const tls = url.startsWith('https:') ? kubeconfigTLS(kubeconfig) : undefined;
  const client = tls ? tlsFetch(tls) : undefined;
  return {
    url,
    dir,
    kubeconfig,
    proc,
    fetch: client?.fetch ?? fetch,
    tls,
    agent: client?.agent,
    output: () => out,
    async stop(o: { keep?: boolean } = {}) {
      if (proc.exitCode !== null) return proc.exitCode;
      client?.agent.destroy();
      const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
      proc.kill('SIGTERM');
      const code = await exited;
      if (!o.keep) rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/** The CA and client certificate a kubeconfig written by `serve` embeds. */
export function kubeconfigTLS(kubeconfig: string): ClientTLS {
  const kc = parseYAML(readFileSync(kubeconfig, 'utf8')) as {
    clusters: { cluster: { 'certificate-authority-data'?: string } }[];
    users: { user: { 'client-certificate-data'?: string; 'client-key-data'?: string } }[];
  };
  const text = (b?: string) => (b === undefined ? undefined : Buffer.from(b, 'base64').toString('utf8'));
  const user = kc.users[0]?.user ?? {};
  const cert = text(user['client-certificate-data']);
  const key = text(user['client-key-data']);
  return { ca: text(kc.clusters[0]?.cluster['certificate-authority-data']) ?? '', ...(cert !== undefined && key !== undefined ? { cert, key } : {}) };
}

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `/usr/bin/kubectl --kubeconfig ... args`, optionally feeding `stdin`. */
export function kubectl(s: ServerProcess, args: string[], stdin?: string, env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = execFile(
      '/usr/bin/kubectl',
      ['--kubeconfig', s.kubeconfig, '--cache-dir', join(s.dir, 'kube-cache'), ...args],
      { env: { ...process.env, HOME: s.dir, ...env }, timeout: 30000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (stdin !== undefined) child.stdin!.end(stdin);
    else child.stdin!.end();
  });
}

/** Runs kubectl and returns its stdout; a non-zero exit fails the test with the command and its stderr. */
export async function kubectlOK(s: ServerProcess, args: string[]): Promise<string> {
  const r = await kubectl(s, args);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Writes a manifest into the server's temp dir and returns its path. */
export function manifest(s: ServerProcess, name: string, text: string): string {
  const p = join(s.dir, name);
  writeFileSync(p, text);
  return p;
}

export const crontabCRDYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: CronTab runs an image on a schedule.
        properties:
          spec:
            type: object
            description: Spec of the CronTab.
            properties:
              cronSpec:
                type: string
                description: The cron schedule.
              image:
                type: string
              replicas:
                type: integer
          status:
            type: object
            properties:
              replicas:
                type: integer
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Image
      type: string
      jsonPath: .spec.image
      priority: 1
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
`;
