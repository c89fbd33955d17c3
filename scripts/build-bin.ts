// Packs tsc's output for the command into dist/bin/, the package's bin (dist/bin/main.js): the
// command and the validate worker each as one CommonJS script (`crd-apiserver.cjs`,
// `validate-worker.cjs`, made by esbuild), run by src/cli/packed.ts with V8's code cache of
// them, which a warm-up run (`validate --jobs 2` of the Gateway API examples with their CRDs)
// writes at the end of the build. `validate` on one document had spent a third of its run
// resolving and loading several hundred modules and much of the rest compiling them.
// Run by `npm run build` after tsc; `--dist DIR` packs another tsc output directory (the bin
// goes to DIR/bin). better-sqlite3 (a native addon) and etcd3 (loaded only for --etcd-servers,
// with gRPC's own file layout) stay packages of node_modules.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const i = process.argv.indexOf('--dist');
const dist = i > 0 ? resolve(process.argv[i + 1]!) : join(root, 'dist');
const out = join(dist, 'bin');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

for (const [name, entry] of [['crd-apiserver', 'main.js'], ['validate-worker', 'validate-worker.js']] as const) {
  const result = await build({
    entryPoints: [join(dist, 'cli', entry)],
    write: false,
    outfile: join(out, `${name}.cjs`),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3', 'etcd3', 'esbuild'],
    // ES modules are strict; their code stays so as one CommonJS script.
    banner: { js: '"use strict";' },
    inject: [join(root, 'scripts', 'bin-import-meta.js')],
    define: { 'import.meta.url': 'importMetaURL', 'import.meta.filename': 'importMetaFilename', 'import.meta.dirname': 'importMetaDirname', 'import.meta.resolve': 'importMetaResolve' },
    logLevel: 'warning',
  });
  const text = result.outputFiles[0]!.text.replace(/^#!.*\n/, '');
  const id = createHash('sha256').update(text).digest('hex');
  writeFileSync(join(out, `${name}.cjs`), `// build ${id}\n${text}`);
  const start = `${name === 'crd-apiserver' ? '#!/usr/bin/env node\n' : ''}import { runPacked } from './packed.js';\nrunPacked(import.meta.url, '${name}');\n`;
  writeFileSync(join(out, name === 'crd-apiserver' ? 'main.js' : 'validate-worker.js'), start);
}
copyFileSync(join(dist, 'cli', 'packed.js'), join(out, 'packed.js'));
chmodSync(join(out, 'main.js'), 0o755);

// The warm-up: what V8 has compiled by the end of it is what the cache holds.
const gateway = join(root, 'testdata', 'crds', 'gateway-api');
// Two threads, so that the worker script's cache is written too (by the worker, after its
// first file), on a hundred copies of the examples, so that this thread cannot judge them all
// before the worker is ready; the command's cache is written at its exit.
if (existsSync(gateway)) {
  const corpus = mkdtempSync(join(tmpdir(), 'crd-apiserver-warm-up-'));
  try {
    const examples = readdirSync(join(gateway, 'valid')).filter((f) => f.endsWith('.yaml'));
    for (let n = 0; n < 100; n++) for (const f of examples) copyFileSync(join(gateway, 'valid', f), join(corpus, `${n}-${f}`));
    const r = spawnSync(
      process.execPath,
      [join(out, 'main.js'), 'validate', '--jobs', '2', '--crds', join(gateway, 'crds', 'standard-install.yaml'), corpus],
      { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, CRD_APISERVER_WRITE_CODE_CACHE: '1', CRD_APISERVER_PROGRESS: '0' } },
    );
    if (r.status !== 0) throw new Error(`the bin's warm-up run failed (${r.status}): ${r.stdout}${r.stderr}`);
  } finally {
    rmSync(corpus, { recursive: true, force: true });
  }
}
const files = readdirSync(out);
const bytes = files.reduce((n, f) => n + statSync(join(out, f)).size, 0);
console.log(`bin in ${out}: ${files.join(', ')} (${(bytes / 1024).toFixed(0)} KiB)`);
