// Builds the console's browser bundle (src/console/web/) into dist/console/web-dist, beside the
// compiled server that serves it, and prints its size. Run by `npm run build`; `--out DIR` builds
// elsewhere (a server run from sources builds its own copy on first use).
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { buildBundle } from '../src/console/index.ts';

const root = resolve(import.meta.dirname, '..');
const i = process.argv.indexOf('--out');
const out = i > 0 ? resolve(process.argv[i + 1]!) : join(root, 'dist', 'console', 'web-dist');
await buildBundle(out);
let total = 0;
let gz = 0;
for (const f of readdirSync(join(out, 'assets'))) {
  const p = join(out, 'assets', f);
  total += statSync(p).size;
  gz += gzipSync(readFileSync(p)).length;
  console.log(`  ${f}  ${(statSync(p).size / 1024).toFixed(1)} KiB`);
}
console.log(`console bundle in ${out}: ${(total / 1024).toFixed(1)} KiB (${(gz / 1024).toFixed(1)} KiB gzipped)`);
