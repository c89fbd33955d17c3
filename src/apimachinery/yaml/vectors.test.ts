/**
 * kubernetes-sigs/yaml's and its go-yaml v2 fork's decoding tables, run as data
 * (testdata/yaml/go-yaml-v2.json): YAML in, the JSON data YAMLToJSON yields (and the duplicate
 * keys YAMLToJSONStrict reports) or the error text out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readYAML } from './index.ts';

interface Case {
  name: string;
  group: string;
  yaml: string;
  json?: unknown;
  error?: string;
  duplicates?: string[];
  skip?: string;
}

const file = new URL('../../../testdata/yaml/go-yaml-v2.json', import.meta.url);
const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: Case[] };

test('the vector file holds the converted tables', () => {
  assert.ok(cases.length >= 100, `only ${cases.length} cases`);
  const skipped = cases.filter((c) => c.skip);
  for (const c of skipped) assert.ok(c.skip!.length > 10, `${c.name}: a skip gives its reason`);
  console.log(`go-yaml-v2.json: ${cases.length - skipped.length} run, ${skipped.length} skipped`);
});

for (const c of cases) {
  test(`${c.group}: ${c.name}`, { skip: c.skip }, () => {
    if (c.error !== undefined) {
      assert.throws(() => readYAML(c.yaml), (e: Error) => {
        if (c.error !== '*') assert.equal(e.message, c.error);
        return true;
      });
      return;
    }
    const d = readYAML(c.yaml);
    assert.deepEqual(d.value, c.json);
    assert.deepEqual(d.duplicates.map((x) => x.message), c.duplicates ?? []);
  });
}
