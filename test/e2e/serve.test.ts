/**
 * `crd-apiserver serve` as a process: what it prints and writes, health and version over TLS
 * and with --plain-http, refusing plain HTTP on non-loopback addresses, a port or data directory already in use, and a clean
 * exit on SIGTERM.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { readYAML } from '../../src/apimachinery/yaml/index.ts';
import { startServer, type ServerProcess } from './harness.ts';

const root = new URL('../..', import.meta.url).pathname;
let s: ServerProcess;

function serve(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], { cwd: root, encoding: 'utf8', timeout: 30000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(async () => {
  s = await startServer();
});

after(async () => {
  if (s.proc.exitCode === null) await s.stop();
});

test('prints how to use the kubeconfig it writes, and answers health and version over TLS', async () => {
  assert.match(s.output(), /^crd-apiserver listening on https:\/\/127\.0\.0\.1:\d+ \(data in .*\)\n/);
  assert.match(s.output(), new RegExp(`\\n  export KUBECONFIG=${s.kubeconfig}\\n`));
  const kc = readYAML(readFileSync(s.kubeconfig, 'utf8')).value as any;
  assert.equal(kc.clusters[0].cluster.server, s.url);
  assert.equal(kc.clusters[0].cluster['insecure-skip-tls-verify'], undefined);
  assert.match(Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), /^-----BEGIN CERTIFICATE-----/);
  assert.equal(await (await s.fetch(`${s.url}/healthz`)).text(), 'ok');
  const version = (await (await s.fetch(`${s.url}/version`)).json()) as { gitVersion: string };
  assert.equal(version.gitVersion, 'v1.35.0');
});

test('--plain-http serves plain HTTP with a kubeconfig client-node accepts', async () => {
  const p = await startServer({ args: ['--plain-http'] });
  try {
    assert.match(p.output(), /^crd-apiserver listening on http:\/\/127\.0\.0\.1:\d+ /);
    const kc = readYAML(readFileSync(p.kubeconfig, 'utf8')).value as any;
    assert.deepEqual(kc.clusters[0].cluster, { server: p.url, 'insecure-skip-tls-verify': true });
    assert.equal(await (await fetch(`${p.url}/healthz`)).text(), 'ok');
  } finally {
    await p.stop();
  }
});

test('refuses plain HTTP on non-loopback addresses, a busy port and a data directory in use', () => {
  const wide = serve(['--plain-http', '--listen', '0.0.0.0:6443', '--data-dir', `${s.dir}/other`]);
  assert.equal(wide.status, 2);
  assert.match(wide.stderr, /^crd-apiserver serve: refusing to serve plain HTTP on 0\.0\.0\.0:6443: --plain-http has no TLS or authentication, so only loopback addresses/);
  const port = new URL(s.url).port;
  const busy = serve(['--listen', `127.0.0.1:${port}`, '--data-dir', `${s.dir}/other`]);
  assert.equal(busy.status, 1);
  assert.match(busy.stderr, /cannot listen on 127\.0\.0\.1:\d+: listen EADDRINUSE/);
  const locked = serve(['--listen', '127.0.0.1:0', '--data-dir', `${s.dir}/data`]);
  assert.equal(locked.status, 1);
  assert.match(locked.stderr, /cannot open the store in .*: database is locked \(is another crd-apiserver serving this data directory\?\)/);
});

test('a token file with a short record, or a certificate file that is not PEM, stops the start with the reason', () => {
  writeFileSync(`${s.dir}/short.csv`, 'tok,user\n');
  const short = serve(['--listen', '127.0.0.1:0', '--data-dir', `${s.dir}/other`, '--token-auth-file', `${s.dir}/short.csv`]);
  assert.equal(short.status, 1);
  assert.equal(short.stderr, `crd-apiserver serve: invalid TLS or authentication config: token file '${s.dir}/short.csv' must have at least 3 columns (token, user name, user uid), found 2\n`);
  const notPEM = serve(['--listen', '127.0.0.1:0', '--data-dir', `${s.dir}/other`, '--tls-cert-file', `${s.dir}/short.csv`, '--tls-private-key-file', `${s.dir}/short.csv`]);
  assert.equal(notPEM.status, 1);
  assert.match(notPEM.stderr, /^crd-apiserver serve: invalid TLS config: .*PEM/);
});

test('exits 0 on SIGTERM', async () => {
  const code = await s.stop();
  assert.equal(code, 0);
  assert.match(s.output(), /received SIGTERM, shutting down\n/);
});
