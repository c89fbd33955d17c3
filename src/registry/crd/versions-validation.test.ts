import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorString, Path } from '../../apimachinery/index.ts';
import { validateDeprecationWarning, validateStoredVersions } from './validation.ts';

const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s-conversion/crd-versions-validation.json', import.meta.url), 'utf8')) as {
  skipped: { name: string; reason: string }[];
  storedVersions: { name: string; versions: string[]; storageVersion: string; storedVersions: string[]; errors: { type: string; field: string; contains: string }[] }[];
  deprecationWarning: { name: string; deprecated: boolean; warning: string | null; want: string[] }[];
};

test('status.storedVersions must name the storage version and only versions in spec (TestValidateCustomResourceDefinitionStoredVersions)', () => {
  const cases = vectors.storedVersions;
  assert.ok(cases.length >= 5, `only ${cases.length} cases`);
  for (const c of cases) {
    const versions = c.versions.map((name) => ({ name, storage: name === c.storageVersion }));
    const errs = validateStoredVersions(c.storedVersions, versions, Path.of('status', 'storedVersions'));
    assert.deepEqual(
      errs.map((e) => ({ type: e.type, field: e.field, ok: true })),
      c.errors.map((w) => ({ type: w.type, field: w.field, ok: true })),
      c.name,
    );
    errs.forEach((e, i) => assert.ok(errorString(e).includes(c.errors[i]!.contains), `${c.name}: ${errorString(e)}`));
  }
});

test('a deprecation warning is for deprecated versions, short and printable (Test_validateDeprecationWarning)', () => {
  const cases = vectors.deprecationWarning;
  assert.ok(cases.length >= 9, `only ${cases.length} cases`);
  for (const s of vectors.skipped) console.log(`skipped ${s.name}: ${s.reason}`);
  for (const c of cases) assert.deepEqual(validateDeprecationWarning(c.deprecated, c.warning), c.want, c.name);
});
