/**
 * The `validate` command as the benches run it: the package's built bin, `node dist/cli/main.js`,
 * when dist/ holds one (`build`: `npm run build` first, once per process), else the sources
 * through tsx; `what` says which, and when dist/ is older than src/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

let built = false;

/** The node arguments that start the command (before `validate ...`) and what they run. */
export function validateCommand(root: string, build: boolean): { argv: string[]; what: string } {
  if (build && !built) {
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`npm run build failed: ${b.stderr}`);
    built = true;
  }
  const bin = join(root, 'dist/cli/main.js');
  if (existsSync(bin)) {
    const stale = statSync(join(root, 'src/cli/validate.ts')).mtimeMs > statSync(bin).mtimeMs ? ' (older than src/: run with --build)' : '';
    return { argv: [bin], what: `the built bin, node dist/cli/main.js${stale}` };
  }
  return { argv: ['--import', 'tsx', 'src/cli/main.ts'], what: 'the sources through tsx (no dist/: npm run build, or --build)' };
}
