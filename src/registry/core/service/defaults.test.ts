/** SetDefaults_Service as data (testdata/k8s-native/service/defaults.json): each object before and after defaulting. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { defaultsOf, loadAllKindSemantics } from '../../builtin/native-index.ts';

// The kind folders load on first use; these tables call the defaulters directly.
await loadAllKindSemantics();

const doc = JSON.parse(readFileSync(new URL('../../../../testdata/k8s-native/service/defaults.json', import.meta.url), 'utf8')) as {
  cases: Array<{ name: string; in: Record<string, unknown>; out: Record<string, unknown> }>;
};

test('SetDefaults_Service vectors, through the served version defaulter', () => {
  assert.ok(doc.cases.length >= 16);
  const d = defaultsOf('', 'v1', 'services');
  assert.ok(d, 'core/v1 services has a defaulter');
  for (const c of doc.cases) {
    const o = structuredClone(c.in);
    d(o);
    assert.deepEqual(o, c.out, c.name);
    d(o);
    assert.deepEqual(o, c.out, `${c.name}: defaulting twice changes nothing`);
  }
});
