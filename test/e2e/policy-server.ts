/**
 * The serve process the admission-policy end-to-end suites share: the harness's server, started
 * with `--audit-log-path` and a policy logging every request at Metadata level when it completes,
 * so that the suites can read the audit annotations policies record.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerProcess } from './harness.ts';

const root = new URL('../..', import.meta.url).pathname;

export interface AuditedServer extends ServerProcess {
  /** The audit events logged so far (JSON lines of the audit log). */
  auditEvents(): Record<string, unknown>[];
}

/** An audit policy: every request at Metadata level, one event when it completes. */
export const metadataAuditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
`;

/** Starts `serve` with an audit log; resolves once it prints its address. */
export async function startAuditedServer(): Promise<AuditedServer> {
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-vap-'));
  const auditLog = join(dir, 'audit.log');
  const auditPolicy = join(dir, 'audit-policy.yaml');
  writeFileSync(auditPolicy, metadataAuditPolicy);
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--plain-http', '--listen', '127.0.0.1:0', '--data-dir', join(dir, 'data'), '--audit-log-path', auditLog, '--audit-policy-file', auditPolicy],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${out}`)), 20000);
    proc.stdout!.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    dir,
    kubeconfig: join(dir, 'data', 'kubeconfig'),
    // Plain HTTP (--plain-http): the global fetch, no client TLS.
    fetch,
    tls: undefined,
    agent: undefined,
    proc,
    output: () => out,
    auditEvents() {
      if (!existsSync(auditLog)) return [];
      return readFileSync(auditLog, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    async stop() {
      if (proc.exitCode !== null) return proc.exitCode;
      const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
      proc.kill('SIGTERM');
      const code = await exited;
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}
