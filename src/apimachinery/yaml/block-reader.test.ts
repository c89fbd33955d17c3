/**
 * The block reader against the full reader: on every YAML document under testdata/ (the CRD
 * bundles of real projects among them) and every
 * vector of go-yaml-v2.json, whatever the block reader accepts it must read to the same JSON data
 * with the same positions for every node (and for absent fields, their deepest ancestor's); and
 * it must accept the plain manifests it exists for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { readYAML, readYAMLComposed } from './index.ts';
import { readBlockYAML } from './block-reader.ts';
import { isEmptyYAMLDocument, splitYAMLDocuments } from './split.ts';

const testdata = new URL('../../../testdata/', import.meta.url).pathname;

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml(\.gz)?$/.test(name)) out.push(p);
  }
  return out;
}

/** Every path to a node of a JSON value, and one absent child of each collection. */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(v)) {
    v.forEach((x, i) => paths(x, [...prefix, i], out));
    out.push([...prefix, v.length], [...prefix, 'absent']);
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out);
    out.push([...prefix, 'absent-field'], [...prefix, 0]);
  }
  return out;
}

interface Outcome {
  checked: number;
  accepted: number;
}

/** Compares the two readers on one document; returns whether the block reader accepted it. */
function compare(text: string, where: string): boolean {
  if (readBlockYAML(text) === undefined) return false;
  let full;
  try {
    full = readYAMLComposed(text);
  } catch (e) {
    assert.fail(`${where}: the block reader read what the full reader refuses (${(e as Error).message})`);
  }
  assert.deepEqual(full.duplicates, [], `${where}: a document with duplicate keys was accepted`);
  const fast = readYAML(text);
  assert.deepEqual(fast.value, full.value, `${where}: values differ`);
  // Same key order too: the output is printed.
  assert.equal(JSON.stringify(fast.value), JSON.stringify(full.value), `${where}: key order differs`);
  for (const p of paths(full.value)) {
    const a = fast.offsetOf(p);
    const b = full.offsetOf(p);
    assert.equal(a, b, `${where}: offset of ${JSON.stringify(p)}: ${a} (block) vs ${b} (full)`);
    assert.deepEqual(fast.position(a), full.position(b), `${where}: position of ${JSON.stringify(p)}`);
  }
  return true;
}

test('the block reader reads every testdata document it accepts as the full reader does', () => {
  const o: Outcome = { checked: 0, accepted: 0 };
  for (const f of yamlFiles(testdata)) {
    const text = f.endsWith('.gz') ? gunzipSync(readFileSync(f)).toString('utf8') : readFileSync(f, 'utf8');
    const { chunks } = splitYAMLDocuments(text);
    chunks.forEach((c, i) => {
      if (isEmptyYAMLDocument(c.text)) return;
      o.checked++;
      if (compare(c.text, `${f.slice(testdata.length)} document ${i + 1}`)) o.accepted++;
    });
  }
  console.log(`block reader: accepted ${o.accepted} of ${o.checked} testdata documents`);
  assert.ok(o.checked >= 200, `only ${o.checked} documents`);
  // Most real manifests are of the plain shape; a reader that gives up on them gains nothing.
  assert.ok(o.accepted >= o.checked / 3, `accepted only ${o.accepted} of ${o.checked}`);
});

test('the block reader reads the testdata JSON documents, written as YAML, as the full reader does', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.json') && statSync(p).size < 200_000) files.push(p);
    }
  };
  walk(join(testdata, 'crds'));
  walk(join(testdata, 'k8s'));
  let checked = 0;
  let accepted = 0;
  for (const f of files.slice(0, 400)) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(f, 'utf8'));
    } catch {
      continue;
    }
    checked++;
    if (compare(stringify(value), f.slice(testdata.length))) accepted++;
  }
  console.log(`block reader: accepted ${accepted} of ${checked} JSON documents written as YAML`);
  assert.ok(checked >= 50, `only ${checked} documents`);
  assert.ok(accepted >= checked / 3, `accepted only ${accepted} of ${checked}`);
});

test('the block reader reads strings as the yaml package writes them, folded, quoted and escaped, as the full reader does', () => {
  const strings = ['plain', '  lead', 'trail  ', 'x: y', '# c', 'a #b', '- a', 'é ü', 'tab\there', 'nl\nin', 'two\n\nbreaks', 'yes', '012', '1e3', '~', '',
    'a long sentence of many words that the writer folds over several lines when it is longer than its width', "it's", 'say "hi"', 'back\\slash', 'ctl\u0001', '\u00a0nbsp'];
  const doc = { top: strings, nested: { list: strings.map((s, i) => ({ [`k${i}`]: s, n: i })) } };
  let accepted = 0;
  for (const options of [{}, { lineWidth: 20, minContentWidth: 0 }, { defaultStringType: 'QUOTE_DOUBLE' as const }, { defaultStringType: 'QUOTE_SINGLE' as const, lineWidth: 30 }, { indentSeq: false }]) {
    const text = stringify(doc, options);
    if (compare(text, JSON.stringify(options))) accepted++;
    for (const [i, str] of strings.entries()) if (compare(stringify({ s: str }, options), `${JSON.stringify(options)} string ${i}`)) accepted++;
  }
  console.log(`block reader: accepted ${accepted} of ${5 * (strings.length + 1)} written strings`);
  assert.ok(accepted >= 40, `accepted only ${accepted}`);
});

test('the block reader agrees with the full reader on the go-yaml vectors', () => {
  const file = join(testdata, 'yaml/go-yaml-v2.json');
  const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: { name: string; yaml: string; skip?: string }[] };
  let accepted = 0;
  for (const c of cases) {
    if (c.skip) continue;
    if (compare(c.yaml, `vector ${c.name}`)) accepted++;
  }
  console.log(`block reader: accepted ${accepted} of ${cases.length} vectors`);
  assert.ok(accepted >= 10, `accepted only ${accepted} vectors`);
});

test('the block reader reads the shapes of plain manifests', () => {
  const cases: [string, unknown][] = [
    ['a: 1\nb: x\n', { a: 1, b: 'x' }],
    ['b: 1\na: 2\n', { a: 2, b: 1 }],
    ['a:\n  - x\n  - "y"\n', { a: ['x', 'y'] }],
    ['a:\n- x\nb: 2\n', { a: ['x'], b: 2 }],
    ["a: 'it''s'  # c\n", { a: "it's" }],
    ['---\n# c\na: []\nb: {}\nc:\nd: ~\n', { a: [], b: {}, c: null, d: null }],
    ['- k: v\n  m: 1\n- 0x10\n- -2.5\n- yes\n- 18446744073709551616\n', [{ k: 'v', m: 1 }, 16, -2.5, true, 18446744073709552000]],
    ['t: 2001-12-14\nu: http://x/y  \n', { t: '2001-12-14', u: 'http://x/y' }],
    ['a: "one\n  two  \n\n   three # not a comment"\nb: 1\n', { a: 'one two\nthree # not a comment', b: 1 }],
    ["- 'it''s\n  folded\n'\n- x\n", ["it's folded ", 'x']],
    ['a: one\n  two\n\n  three\nb: 2\n', { a: 'one two\nthree', b: 2 }],
    ['a: "tab\\tnl\\nq\\"\\x41\\u00e9 \\\n   joined"\n', { a: 'tab\tnl\nq"Aé joined' }],
    ['a:\n  b: "closes at\n  the parent\'s indentation"\n', { a: { b: "closes at the parent's indentation" } }],
  ];
  for (const [yaml, want] of cases) {
    assert.deepEqual(readBlockYAML(yaml)?.value, want, yaml);
    compare(yaml, JSON.stringify(yaml));
  }
});

test('the block reader leaves what is not plain block YAML to the full reader', () => {
  for (const yaml of [
    'a: &x 1\nb: *x\n',
    'a: !!str 1\n',
    'a: |\n  text\n',
    'a: >\n  text\n',
    'a: [1, 2]\n',
    'a: {b: 1}\n',
    'a: "esc\\/"\n',
    'a: "\\ud800"\n',
    'a: 1\na: 2\n',
    '1: x\n',
    'true: x\n',
    '<<: {a: 1}\n',
    'a: b: c\n',
    'a:\tb\n',
    'a: 1\r\n',
    '%YAML 1.1\n---\na: 1\n',
    'a: 1\n---\nb: 2\n',
    'a: 1\n...\n',
    '- - x\n',
    'x\n',
    'a: .nan\n',
    'a:\n  b: 1\n c: 2\n',
    '? a\n: b\n',
  ]) {
    assert.equal(readBlockYAML(yaml), undefined, JSON.stringify(yaml));
  }
});
