/**
 * `validate` on worker threads against `validate` on one: real CLI processes over a directory of
 * files with valid, invalid and unreadable documents, an input that does not exist, a file that
 * cannot be cut and an empty document; the same stdout (text and JSON, in input order), the same
 * stderr and the same exit codes for every pool size, and a loading error (an invalid CRD)
 * reported once. Also when a pool is used at all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { workersFor } from './validate.ts';

const root = new URL('../..', import.meta.url).pathname;

function validate(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'validate', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CRD_APISERVER_PROGRESS: '0' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  key: value\n`;

const dir = mkdtempSync(join(tmpdir(), 'validate-pool-'));
const inputs = join(dir, 'in');
mkdirSync(join(inputs, 'sub'), { recursive: true });
// Files of several documents: every third invalid (a name with `_`), with unreadable documents,
// a broken separator and an empty document among them, across a nested directory.
for (let f = 0; f < 9; f++) {
  const docs: string[] = [];
  for (let d = 0; d < 6; d++) docs.push(configMap(d % 3 === 2 ? `bad_name-${f}-${d}` : `cm-${f}-${d}`));
  if (f === 2) docs.splice(3, 0, 'a: [1, 2\n');
  if (f === 4) docs.push('# only a comment\n');
  if (f === 6) docs.splice(1, 0, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dup}\ndata: {a: "1"}\ndata: {b: "2"}\n');
  let text = docs.join('---\n');
  if (f === 7) text += '--- not a separator\n' + configMap('after-the-separator');
  writeFileSync(join(inputs, f % 2 === 0 ? 'sub' : '', `f${f}.yaml`), text);
}
const missing = join(dir, 'missing.yaml');
const lone = join(dir, 'lone.yaml');
writeFileSync(lone, configMap('lone'));

const withProblems = [join(inputs, 'f1.yaml'), missing, inputs, lone];

test('the pool prints what one thread prints, in input order, with the same exit code (text)', () => {
  const one = validate('--jobs', '1', ...withProblems);
  assert.equal(one.code, 2, one.stdout + one.stderr);
  // What the inputs hold, so that the comparison below compares something.
  assert.match(one.stdout, /62 documents: 42 valid, 20 invalid, 3 unreadable/);
  assert.match(one.stderr, /cannot read .*missing\.yaml: no such file or directory/);
  assert.match(one.stderr, /f2\.yaml:\d+:1: error converting YAML to JSON: yaml: line 2: /);
  assert.match(one.stderr, /invalid Yaml document separator: not a separator/);
  assert.match(one.stdout, /f6\.yaml:\d+:\d+: ConfigMap\/dup: ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error/);
  for (const jobs of ['2', '3']) {
    const pool = validate('--jobs', jobs, ...withProblems);
    assert.equal(pool.code, one.code, `--jobs ${jobs}: ${pool.stderr}`);
    assert.equal(pool.stdout, one.stdout, `--jobs ${jobs}: stdout`);
    assert.equal(pool.stderr, one.stderr, `--jobs ${jobs}: stderr`);
  }
});

test('the pool prints what one thread prints, in input order, with the same exit code (JSON)', () => {
  const one = validate('--jobs', '1', '-o', 'json', ...withProblems);
  assert.equal(one.code, 2);
  const lines = one.stdout.trim().split('\n').map((l) => JSON.parse(l) as { file: string; document?: number });
  // 62 documents and the 3 unreadable inputs (a document, a missing file, a broken separator).
  assert.equal(lines.length, 65);
  assert.ok(lines.some((l) => l.file === missing && l.document === undefined), one.stdout);
  // f1.yaml's documents come first, in order, as the inputs were given.
  assert.deepEqual(lines.slice(0, 6).map((l) => [l.file.endsWith('f1.yaml'), l.document]), [1, 2, 3, 4, 5, 6].map((d) => [true, d]));
  const pool = validate('--jobs', '2', '-o', 'json', ...withProblems);
  assert.equal(pool.code, one.code);
  assert.equal(pool.stdout, one.stdout);
  assert.equal(pool.stderr, one.stderr);
});

test('exit codes 0 and 1 are the same on the pool', () => {
  const someInvalid = [join(inputs, 'f1.yaml'), lone];
  writeFileSync(join(dir, 'ok.yaml'), configMap('ok-1') + '---\n' + configMap('ok-2'));
  for (const jobs of ['1', '2']) {
    const ok = validate('--jobs', jobs, join(dir, 'ok.yaml'), lone);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /^3 documents: 3 valid, 0 invalid\n$/);
    const bad = validate('--jobs', jobs, ...someInvalid);
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /7 documents: 5 valid, 2 invalid\n$/);
  }
});

test('a CRD that cannot be loaded is reported once, as on one thread', () => {
  const crd = join(dir, 'badcrd.yaml');
  writeFileSync(
    crd,
    'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: wrong.example.com}\n' +
      'spec: {group: example.com, scope: Namespaced, names: {plural: things, kind: Thing}, versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]}\n' +
      '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: not-a-crd}\n',
  );
  const one = validate('--jobs', '1', '--crds', crd, inputs);
  assert.equal(one.code, 2);
  assert.match(one.stderr, /must be spec\.names\.plural\+"\."\+spec\.group/);
  const pool = validate('--jobs', '2', '--crds', crd, inputs);
  assert.equal(pool.code, 2);
  assert.equal(pool.stdout, one.stdout);
  assert.equal(pool.stderr, one.stderr);
});

test('--jobs must be a positive integer', () => {
  const r = validate('--jobs', '0', lone);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--jobs must be a positive integer, not "0"/);
});

test('a pool is used for two files or more: of 1 MiB without --jobs (one thread per two CPUs), whatever the size with it', () => {
  const small = [join(inputs, 'f1.yaml'), lone];
  assert.equal(workersFor({ jobs: undefined }, small), 1);
  assert.equal(workersFor({ jobs: 4 }, small), 2, 'never more workers than files');
  assert.equal(workersFor({ jobs: 1 }, small), 1);
  assert.equal(workersFor({ jobs: 8 }, [lone]), 1);
  const big = join(dir, 'big.yaml');
  writeFileSync(big, Array.from({ length: 20000 }, (_, i) => configMap(`cm-${i}`)).join('---\n'));
  assert.equal(workersFor({ jobs: undefined }, [big, lone]), Math.min(2, Math.max(1, Math.floor(availableParallelism() / 2))), 'one thread per two CPUs');
});
