/**
 * The token file as kube-apiserver reads it: upstream's tokenfile_test.go cases as data
 * (testdata/k8s-authn/tokenfile.json), and the CSV reader's quoting and errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTokenFile, readTokenFile } from './tokenfile.ts';
import { readCSV } from './csv.ts';

interface Vectors {
  files: { name: string; contents: string; tokens?: { token: string; user: { username: string; uid: string; groups: string[] } | null }[]; error?: string; count?: number }[];
}
const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s-authn/tokenfile.json', import.meta.url), 'utf8')) as Vectors;

test('upstream tokenfile_test.go cases, read from real files', async () => {
  assert.ok(vectors.files.length >= 4);
  let cases = 0;
  const dir = mkdtempSync(join(tmpdir(), 'tokenfile-'));
  try {
    for (const f of vectors.files) {
      const path = join(dir, f.name);
      writeFileSync(path, f.contents);
      if (f.error !== undefined) {
        assert.throws(() => readTokenFile(path), { message: f.error.replace('PATH', path) }, f.name);
        cases++;
        continue;
      }
      if (f.count !== undefined) {
        assert.equal(parseTokenFile(f.contents, path).size, f.count, f.name);
        cases++;
      }
      const auth = readTokenFile(path);
      for (const t of f.tokens ?? []) {
        assert.deepEqual(await auth.authenticateToken(t.token), t.user, `${f.name} ${t.token}`);
        cases++;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(cases >= 11, `${cases} cases`);
});

test('a later duplicate token wins; a user is a fresh copy each time', async () => {
  const auth = readTokenFileFrom('t,first,1\nt,second,2,"a,b"\n');
  const u = await auth.authenticateToken('t');
  assert.deepEqual(u, { username: 'second', uid: '2', groups: ['a', 'b'] });
  u!.groups.push('x');
  assert.deepEqual((await auth.authenticateToken('t'))!.groups, ['a', 'b']);
});

function readTokenFileFrom(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'tokenfile-'));
  try {
    writeFileSync(join(dir, 'f'), text);
    return readTokenFile(join(dir, 'f'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('CSV as encoding/csv reads it', () => {
  assert.deepEqual(readCSV('a,b,c\n\n"x ""y""",z\r\n'), [['a', 'b', 'c'], ['x "y"', 'z']]);
  assert.deepEqual(readCSV('a,"multi\nline",c\n'), [['a', 'multi\nline', 'c']]);
  assert.deepEqual(readCSV('a,b,\n"q",\n'), [['a', 'b', ''], ['q', '']]);
  assert.deepEqual(readCSV('a,b'), [['a', 'b']]);
  assert.throws(() => readCSV('tok,us"er,uid\n'), { message: 'parse error on line 1, column 7: bare " in non-quoted field' });
  assert.throws(() => readCSV('ok,1,2\n"abc"d,2\n'), { message: 'parse error on line 2, column 5: extraneous or missing " in quoted-field' });
  assert.throws(() => readCSV('"open\nstill\n'), { message: /^record on line 1; parse error on line 2, column \d+: extraneous or missing " in quoted-field$/ });
});
