/**
 * Kubernetes' defaulting tables for pods and the kinds with pod templates (core/v1, apps/v1 and
 * batch/v1 `defaults_test.go`, and the defaulters' own rules), run as data from
 * `testdata/k8s-native/defaults-workloads/defaults.json` through the served defaulters
 * (`defaultsOf`, as the codec calls them). A case names the fields it checks by path, as its
 * upstream test compares them; a case whose feature gates upstream differ from Kubernetes
 * 1.35's says how its expectation was adjusted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { defaultsOf, loadAllKindSemantics } from '../../builtin/native-index.ts';

// The kind folders load on first use; these tables call the defaulters directly.
await loadAllKindSemantics();

interface Case {
  name: string;
  resource: string;
  source: string;
  input: Record<string, unknown>;
  expect?: Record<string, unknown>;
  absent?: string[];
  adjusted?: string;
  skip?: string;
}

const file = new URL('../../../../testdata/k8s-native/defaults-workloads/defaults.json', import.meta.url);
const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: Case[] };

/** The value at a path like `spec.containers[0].ports[1].protocol`, or undefined. */
function at(obj: unknown, path: string): unknown {
  let v = obj;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function defaulterOf(resource: string) {
  const [group, version, plural] = resource.split('/') as [string, string, string];
  const d = defaultsOf(group, version, plural);
  assert.ok(d, `no defaulter for ${resource}`);
  return d;
}

const skipped = cases.filter((c) => c.skip !== undefined);

test('the defaulting vectors hold every converted case', () => {
  assert.ok(cases.length >= 92, `expected at least 92 cases, found ${cases.length}`);
  console.log(`${cases.length} cases, ${skipped.length} skipped, ${cases.filter((c) => c.adjusted).length} adjusted to 1.35's feature gates or field names`);
  for (const c of skipped) console.log(`skip ${c.name}: ${c.skip}`);
});

for (const c of cases) {
  test(`defaults ${c.resource}: ${c.name}`, { skip: c.skip }, () => {
    const defaulter = defaulterOf(c.resource);
    const obj = structuredClone(c.input);
    defaulter(obj);
    for (const [path, want] of Object.entries(c.expect ?? {})) assert.deepEqual(at(obj, path), want, path);
    for (const path of c.absent ?? []) assert.equal(at(obj, path), undefined, `${path} should be unset`);
    // Stored objects are defaulted again on every read: a second pass changes nothing.
    const again = structuredClone(obj);
    defaulter(again);
    assert.deepEqual(again, obj, 'defaulting twice differs from once');
  });
}
