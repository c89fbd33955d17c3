/**
 * `validate`'s progress bar: drawn on a real pseudo-terminal (util-linux `script`) for a run of
 * more than a second, and by CRD_APISERVER_PROGRESS=1 on a pipe from the first file; never on a pipe otherwise, never
 * with --output json, never with CRD_APISERVER_PROGRESS=0; and stdout the same with or without it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const main = join(root, 'src/cli/main.ts');

const dir = mkdtempSync(join(tmpdir(), 'validate-progress-'));
// Many files, so that the bar CRD_APISERVER_PROGRESS=1 draws from the first file is redrawn.
for (let f = 0; f < 40; f++) {
  const docs = Array.from({ length: 200 }, (_, d) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${d === 0 ? 'Bad_' : 'cm-'}${f}-${d}\n`);
  writeFileSync(join(dir, `f${String(f).padStart(2, '0')}.yaml`), docs.join('---\n'));
}

const bar = /validating \[[#.]+\] \d+\/40 files, \d+ documents, \d+ documents\/s/;

function run(env: Record<string, string | undefined>, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'validate', '--jobs', '1', ...args, dir], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CRD_APISERVER_PROGRESS: undefined, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('on a pipe there is no bar; CRD_APISERVER_PROGRESS=1 draws it on stderr, erased at the end, stdout unchanged', () => {
  const plain = run({});
  assert.equal(plain.code, 1, plain.stderr);
  assert.match(plain.stdout, /8000 documents: 7960 valid, 40 invalid/);
  assert.equal(plain.stderr, '');
  const forced = run({ CRD_APISERVER_PROGRESS: '1' });
  assert.match(forced.stderr, bar);
  assert.ok(forced.stderr.endsWith('\r\x1b[K'), JSON.stringify(forced.stderr.slice(-40)));
  assert.equal(forced.stdout, plain.stdout);
  assert.equal(forced.code, plain.code);
});

test('no bar with --output json, nor with CRD_APISERVER_PROGRESS=0', () => {
  const json = run({ CRD_APISERVER_PROGRESS: '1' }, '-o', 'json');
  assert.equal(json.stderr, '');
  const off = run({ CRD_APISERVER_PROGRESS: '0' });
  assert.equal(off.stderr, '');
});

const script = '/usr/bin/script';

// On a terminal the bar waits for the run's first second: a corpus twelve times the size, so the
// run lasts well over a second on a fast idle machine too (24,000 documents took under one).
const bigDir = mkdtempSync(join(tmpdir(), 'validate-progress-big-'));
for (let f = 0; f < 40; f++) {
  const docs = Array.from({ length: 2400 }, (_, d) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${d === 0 ? 'Bad_' : 'cm-'}${f}-${d}\n`);
  writeFileSync(join(bigDir, `f${String(f).padStart(2, '0')}.yaml`), docs.join('---\n'));
}

test('on a terminal the bar is drawn', { skip: existsSync(script) ? undefined : 'util-linux script(1) is not installed: no pseudo-terminal to run in' }, () => {
  const cmd = [process.execPath, '--import', 'tsx', main, 'validate', '--jobs', '1', bigDir].map((a) => `'${a}'`).join(' ');
  const r = spawnSync(script, ['-qfec', cmd, '/dev/null'], { cwd: root, encoding: 'utf8', env: { ...process.env, CRD_APISERVER_PROGRESS: undefined } });
  // script(1) gives back the terminal's output (stdout and stderr together) and the command's status.
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, bar);
  assert.match(r.stdout, /96000 documents: 95960 valid, 40 invalid/);
});
