// Packs tsc's output for the command into dist/bin/ (the package's bin, dist/bin/main.js): the
// entry, the validate worker, and the modules each subcommand loads, split into shared chunks by
// esbuild, so that `validate` on one document reads about a hundred files instead of several
// hundred modules one by one (module resolution and loading were a third of its run). Run by
// `npm run build` after tsc; `--dist DIR` packs another tsc output directory (the bin goes to
// DIR/bin). better-sqlite3 (a native addon) and etcd3 (loaded only for --etcd-servers, with
// gRPC's own file layout) stay packages of node_modules.
import { chmodSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const i = process.argv.indexOf('--dist');
const dist = i > 0 ? resolve(process.argv[i + 1]!) : join(root, 'dist');
const out = join(dist, 'bin');

rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: [join(dist, 'cli', 'main.js'), join(dist, 'cli', 'validate-worker.js')],
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'etcd3'],
  // The CommonJS packages bundled in (yaml) call require() for Node's built-ins, which an ES
  // module does not have.
  banner: { js: "import { createRequire as __crdApiserverRequire } from 'node:module';\nconst require = __crdApiserverRequire(import.meta.url);" },
  logLevel: 'warning',
  metafile: true,
});
chmodSync(join(out, 'main.js'), 0o755);
const files = Object.keys(result.metafile.outputs);
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`bin in ${out}: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB`);
