/**
 * The registry's list, watch, consistency and generic-store suites run again with the watch cache
 * in front of their SQLite stores (openTempStore reads the switch), in a child process: every
 * list, continue token, watch, bookmark, selector and 410 they pin must come out the same when
 * served from the cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { watchCacheEnv } from './testing.ts';

const here = dirname(fileURLToPath(import.meta.url));
const suites = ['list.test.ts', 'watch.test.ts', 'consistency.test.ts', 'generic-store.test.ts'];
/** The tests those suites held when this was written: fewer means a suite stopped running. */
const minimumTests = 62;

test('the list, watch, consistency and generic-store suites pass with the watch cache on', () => {
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', ...suites.map((f) => join(here, f))], {
    cwd: join(here, '..', '..'),
    // Without NODE_TEST_CONTEXT the child reports as a top-level run (TAP on stdout), not to this runner.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')), [watchCacheEnv]: '1' },
    encoding: 'utf8',
    timeout: 600_000,
  });
  const out = res.stdout ?? '';
  const count = (label: string) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(out)?.[1] ?? NaN);
  const failures = out.split('\n').filter((l) => /^\s*not ok/.test(l));
  assert.equal(res.status, 0, `suites failed with the watch cache on:\n${failures.join('\n')}\n${res.stderr}`);
  assert.equal(count('fail'), 0);
  assert.ok(count('pass') >= minimumTests, `expected at least ${minimumTests} passing tests, got ${count('pass')}`);
});
