/**
 * The package as it is published: `npm run build`'s steps (tsc, the console bundle, the bin's
 * chunks) written into a fresh package directory holding package.json, vendor/ and node_modules
 * (links to this checkout's), and the `crd-apiserver` bin that package.json names run from it.
 * Everything else runs the sources through tsx, where each module finds its data files from
 * src/; this is where a file the built bin reads from another place (vendor/, the console's
 * bundle) would be missed.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCLI } from '../lib/cli.ts';

const root = new URL('../..', import.meta.url).pathname;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const gatewayCRDs = join(root, 'testdata/crds/gateway-api/crds/standard-install.yaml');
const gatewayValid = join(root, 'testdata/crds/gateway-api/valid');
const gatewayInvalid = join(root, 'testdata/crds/gateway-api/invalid/httproute');

let pkg = '';
let bin = '';

function run(file: string, args: string[], timeout = 300_000): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [file, ...args], { cwd: root, encoding: 'utf8', timeout, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(() => {
  pkg = mkdtempSync(join(tmpdir(), 'crd-apiserver-package-'));
  copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(root, 'vendor'), join(pkg, 'vendor'));
  symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'));
  const dist = join(pkg, 'dist');
  const steps: [string, string[]][] = [
    [tsc, ['-p', join(root, 'tsconfig.build.json'), '--outDir', dist]],
    ['--import', ['tsx', join(root, 'scripts/build-console.ts'), '--out', join(dist, 'console', 'web-dist')]],
    ['--import', ['tsx', join(root, 'scripts/build-bin.ts'), '--dist', dist]],
  ];
  for (const [file, args] of steps) {
    const r = run(file, args);
    assert.equal(r.code, 0, `${file} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  }
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  bin = join(pkg, manifest.bin['crd-apiserver']!);
});

after(() => {
  if (pkg !== '') rmSync(pkg, { recursive: true, force: true });
});

test('the bin runs the packed command and worker with the code caches its build wrote', () => {
  assert.ok(existsSync(bin), `${bin} is missing`);
  assert.match(readFileSync(bin, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  const files = readdirSync(join(pkg, 'dist', 'bin'));
  for (const f of ['crd-apiserver.cjs', 'validate-worker.cjs', 'validate-worker.js', 'packed.js']) assert.ok(files.includes(f), files.join(' '));
  for (const name of ['crd-apiserver', 'validate-worker']) {
    // The cache is named for the script's build, so it cannot meet another build of it.
    const script = join(pkg, 'dist', 'bin', `${name}.cjs`);
    const build = /^\/\/ build ([0-9a-f]{64})\n/.exec(readFileSync(script, 'utf8'))?.[1];
    assert.ok(build !== undefined, name);
    assert.ok(files.includes(`${name}.${build}.cache`), files.join(' '));
    // V8 takes it: a rejected cache would cost the whole compilation again.
    const probe = run('--input-type=module', [
      '-e',
      `import { Script } from 'node:vm'; import { Module } from 'node:module'; import { readFileSync } from 'node:fs';
       const s = new Script(Module.wrap(readFileSync(process.argv[1], 'utf8')), { filename: process.argv[1], cachedData: readFileSync(process.argv[2]) });
       console.log(s.cachedDataRejected);`,
      script,
      join(pkg, 'dist', 'bin', `${name}.${build}.cache`),
    ]);
    assert.equal(probe.stdout.trim(), 'false', `${name}: ${probe.stderr}`);
  }
});

test('validate judges Gateway API documents with their CRDs, on one thread and on a pool of two', () => {
  const one = run(bin, ['validate', '--jobs', '1', '--crds', gatewayCRDs, gatewayValid]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /^\d+ documents: \d+ valid, 0 invalid$/m);
  const pool = run(bin, ['validate', '--jobs', '2', '--crds', gatewayCRDs, gatewayValid]);
  assert.equal(pool.code, 0, pool.stderr);
  assert.equal(pool.stdout, one.stdout);
});

test('validate from the bin answers as from the sources: CEL rules, schemas, built-in kinds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-package-docs-'));
  try {
    // A built-in kind with a value of the wrong Go type (its shape is read from vendor/).
    writeFileSync(join(dir, 'configmap.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: 1\n');
    const args = ['validate', '--crds', gatewayCRDs, gatewayInvalid, dir];
    const packed = run(bin, args);
    const sources = runCLI(...args);
    assert.equal(packed.code, 1, packed.stderr);
    assert.equal(packed.stdout, sources.stdout);
    assert.equal(packed.code, sources.code);
    assert.match(packed.stdout, /cannot unmarshal number into Go struct field ConfigMap\.data of type string/);
    assert.match(packed.stdout, /^\d+ documents: \d+ valid, [1-9]\d* invalid$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cel eval runs from the bin', () => {
  const r = run(bin, ['cel', 'eval', "'a'.size() + 1"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), '{"type": "int", "value": 2}');
});

test('serve: a Deployment gets its ReplicaSet (the pod-template hash reads vendor/), and the console is served', async () => {
  const data = mkdtempSync(join(tmpdir(), 'crd-apiserver-package-data-'));
  const proc = spawn(process.execPath, [bin, 'serve', '--plain-http', '--listen', '127.0.0.1:0', '--data-dir', data], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      proc.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
    });
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    const created = await fetch(`${base}/apis/apps/v1/namespaces/default/deployments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(deployment),
    });
    assert.equal(created.status, 201, await created.text());
    let hashes: string[] = [];
    for (let i = 0; i < 100 && hashes.length === 0; i++) {
      const list = (await (await fetch(`${base}/apis/apps/v1/namespaces/default/replicasets`)).json()) as { items: { metadata: { labels?: Record<string, string> } }[] };
      hashes = list.items.map((rs) => rs.metadata.labels?.['pod-template-hash'] ?? '');
      if (hashes.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(hashes.length, 1, `no ReplicaSet for the Deployment; server stderr: ${err}`);
    assert.match(hashes[0]!, /^[a-z0-9]{8,10}$/);
    const page = await fetch(`${base}/console/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script defer src="[^"]+"><\/script>/);
  } finally {
    await new Promise<void>((r) => {
      proc.once('exit', () => r());
      proc.kill('SIGTERM');
    });
    rmSync(data, { recursive: true, force: true });
  }
});
