import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { defaultDeprecationWarning } from './deprecation.ts';

const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s-conversion/default-deprecation-warning.json', import.meta.url), 'utf8')) as {
  cases: { name: string; deprecatedVersion: string; group: string; kind: string; versions: { name: string; served: boolean; deprecated: boolean }[]; want: string }[];
};

test('a deprecated version\'s default warning names the version to use (Test_defaultDeprecationWarning)', () => {
  assert.ok(vectors.cases.length >= 3, `only ${vectors.cases.length} cases`);
  for (const c of vectors.cases) assert.equal(defaultDeprecationWarning(c.deprecatedVersion, c.group, c.kind, c.versions), c.want, c.name);
});
