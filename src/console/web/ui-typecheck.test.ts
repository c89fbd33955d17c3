/**
 * The browser modules (src/console/web/ui/) type-check against the DOM's types, in their own
 * program: the rest of the tree is typed for Node alone, and the two sets of globals disagree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const root = new URL('../../..', import.meta.url).pathname;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

test('the console\'s browser modules type-check with the DOM library', () => {
  const r = spawnSync(process.execPath, [tsc, '-p', 'src/console/web/ui/tsconfig.json'], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});
