// Runs every test of the project with node's test runner (through tsx, since Node 20 cannot
// strip TypeScript types). Node 20's `--test` takes no glob patterns, so the files are found here:
// unit tests beside the code (src/**/*.test.ts), end-to-end suites under test/, and the
// benchmark helpers' own tests under bench/.
// Extra arguments are passed through, e.g. `npm test -- --test-name-pattern=watch`, and a path
// argument narrows the run to the test files under it.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const paths = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) collect(p, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out;
}

const roots = paths.length > 0 ? paths : ['src', 'test', 'bench'];
const files = roots.flatMap((r) => (statSync(join(root, r)).isDirectory() ? collect(join(root, r), []) : [r])).sort();
if (files.length === 0) {
  console.error('no test files found under', roots.join(', '));
  process.exit(1);
}
const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...flags, ...files], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
