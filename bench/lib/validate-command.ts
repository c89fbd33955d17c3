/**
 * The `validate` command as the benches run it: the package's built bin (package.json's `bin`,
 * `node dist/bin/main.js`), when dist/ holds one (`build`: `npm run build` first, once per process), else the sources
 * through tsx; `what` says which, and when dist/ is older than src/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The package's bin, as package.json names it (npm links `crd-apiserver` to it). */
export function builtBin(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return join(root, pkg.bin['crd-apiserver']!);
}

let built = false;

/** The node arguments that start the command (before `validate ...`) and what they run. */
export function validateCommand(root: string, build: boolean): { argv: string[]; what: string } {
  if (build && !built) {
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`npm run build failed: ${b.stderr}`);
    built = true;
  }
  const bin = builtBin(root);
  if (existsSync(bin)) {
    const stale = statSync(join(root, 'src/cli/validate.ts')).mtimeMs > statSync(bin).mtimeMs ? ' (older than src/: run with --build)' : '';
    return { argv: [bin], what: `the built bin, node ${relative(root, bin)}${stale}` };
  }
  return { argv: ['--import', 'tsx', 'src/cli/main.ts'], what: 'the sources through tsx (no dist/: npm run build, or --build)' };
}
