/**
 * The built-in kinds' defaulters run as data: upstream's defaults_test.go tables of the groups
 * other than pods and workloads (testdata/k8s-native/defaults-rest/defaults.json), each input
 * defaulted through the served version's defaulter and compared with the expected object.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { defaultsOf, loadAllKindSemantics } from '../builtin/native-index.ts';
import { defaultResourceSlice } from '../resource/resourceslice/defaults.ts';

// The kind folders load on first use; these tables call the defaulters directly.
await loadAllKindSemantics();

type O = Record<string, unknown>;
const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s-native/defaults-rest/defaults.json', import.meta.url), 'utf8')) as {
  cases: { name: string; source: string; gvr: string; input: O; expected: O }[];
  skipped: { name: string; reason: string }[];
};

test('defaulters of the other built-in kinds (upstream defaults_test.go tables)', () => {
  assert.ok(vectors.cases.length >= 45, `only ${vectors.cases.length} cases`);
  for (const c of vectors.cases) {
    const [group, version, resource] = c.gvr.split('/') as [string, string, string];
    const d = defaultsOf(group, version, resource);
    assert.ok(d, `${c.name}: no defaulter for ${c.gvr}`);
    const obj = structuredClone(c.input);
    d(obj);
    assert.deepEqual(obj, c.expected, `${c.name} (${c.source})`);
    // Defaulting twice changes nothing: stored objects are defaulted again on every read.
    d(obj);
    assert.deepEqual(obj, c.expected, `${c.name}: not idempotent`);
  }
  for (const s of vectors.skipped) assert.ok(s.reason.length > 0, `${s.name} is skipped without a reason`);
  console.log(`defaults-rest: ${vectors.cases.length} cases, ${vectors.skipped.length} skipped (${vectors.skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')})`);
});

test('a ResourceSlice device taint without timeAdded is stamped with the current second, once', () => {
  const before = Math.floor(Date.now() / 1000) * 1000;
  const obj: O = { spec: { devices: [{ name: 'd', taints: [{ key: 'k', effect: 'NoSchedule' }, { key: 'j', effect: 'NoSchedule', timeAdded: '2020-01-01T00:00:00Z' }] }] } };
  defaultResourceSlice(obj);
  const taints = ((obj.spec as O).devices as O[])[0]!.taints as O[];
  const t = taints[0]!.timeAdded as string;
  assert.match(t, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.ok(Date.parse(t) >= before && Date.parse(t) <= Date.now());
  assert.equal(taints[1]!.timeAdded, '2020-01-01T00:00:00Z');
  defaultResourceSlice(obj);
  assert.equal(taints[0]!.timeAdded, t);
});
