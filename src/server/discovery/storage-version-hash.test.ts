import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { builtinRegistry } from '../../registry/index.ts';
import { openTempStore } from '../../registry/testing.ts';
import { discoveryOf } from './model.ts';

const data = JSON.parse(readFileSync(new URL('../../../testdata/k8s/storage-version-hashes.json', import.meta.url), 'utf8')) as { hashes: Record<string, string>; skipped: Record<string, string> };

test('discovery shows the storageVersionHash kube-apiserver shows for every built-in resource (testdata/k8s/storage-version-hashes.json)', async () => {
  const want = Object.entries(data.hashes).filter(([gvr]) => data.skipped[gvr] === undefined);
  assert.ok(want.length >= 49, `only ${want.length} resources`);
  const t = await openTempStore();
  try {
    const kinds = builtinRegistry({ store: t.store }).kinds;
    const got = new Map(kinds.map((k) => [`${k.group === '' ? '' : `${k.group}/`}${k.version}/${k.resource}`, discoveryOf(k).storageVersionHash]));
    const wrong = want.filter(([gvr, h]) => got.get(gvr) !== h).map(([gvr, h]) => `${gvr}: ${got.get(gvr)} != ${h}`);
    assert.deepEqual(wrong, []);
  } finally {
    await t.close();
  }
});
