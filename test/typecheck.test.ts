/**
 * The whole tree type-checks under strict TypeScript (sources run through tsx, which strips types
 * without checking them, so this is where a type error is caught).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

test('tsc --noEmit reports no errors', () => {
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});
