/**
 * The Go-shape pass against Go's own output: k8s.io/api's round-trip objects
 * (testdata/k8s-proto/HEAD, written by encoding/json from fuzzed structs) must come out of it
 * unchanged, and again after every zero value has been taken out of them; minimal objects of many
 * kinds get the fields a cluster shows (testdata/k8s-native/defaults-rest/go-shape.json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { goShapeOf, type GoShape } from './shape.ts';

type O = Record<string, unknown>;
const headDir = new URL('../../../testdata/k8s-proto/HEAD/', import.meta.url);

/** The round-trip objects of kinds the table has, with their pass (`core.v1.Pod.json` is core/v1 Pod). */
function roundTripObjects(): { file: string; obj: O; shape: GoShape }[] {
  const out: { file: string; obj: O; shape: GoShape }[] = [];
  for (const file of readdirSync(headDir).filter((f) => f.endsWith('.json'))) {
    const parts = file.replace(/\.json$/, '').split('.');
    const kind = parts.pop()!;
    const version = parts.pop()!;
    const group = parts.join('.');
    const shape = goShapeOf(group === 'core' ? '' : group, version, kind);
    if (shape) out.push({ file, obj: JSON.parse(readFileSync(new URL(file, headDir), 'utf8')) as O, shape });
  }
  return out;
}

/** MUTATES v: drops every "", 0, false, null and [] (what the pass must put back where Go writes it). */
function stripZeros(v: unknown): void {
  if (Array.isArray(v)) {
    for (const e of v) stripZeros(e);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  const o = v as O;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (x === '' || x === 0 || x === false || x === null || (Array.isArray(x) && x.length === 0)) delete o[k];
    else stripZeros(x);
  }
}

/**
 * Round-trip objects whose stripped form the pass cannot restore, and why: a null inside a map is
 * a map entry, not a field, so stripping it loses data.
 */
const notRestorable: Record<string, string> = {
  'policy.v1.PodDisruptionBudget.json': 'status.disruptedPods is a map of times; its null entry is data',
};

test('Go-encoded objects of every kind pass through unchanged (testdata/k8s-proto/HEAD)', () => {
  const objs = roundTripObjects();
  assert.ok(objs.length >= 55, `only ${objs.length} kinds`);
  for (const { file, obj, shape } of objs) {
    const c = structuredClone(obj);
    shape(c, true);
    assert.deepEqual(c, obj, file);
  }
});

test('Go-encoded objects stripped of their zero values get them back', () => {
  let n = 0;
  for (const { file, obj, shape } of roundTripObjects()) {
    if (notRestorable[file]) continue;
    const c = structuredClone(obj);
    stripZeros(c);
    shape(c, true);
    assert.deepEqual(c, obj, file);
    n++;
  }
  assert.ok(n >= 55, `only ${n} kinds`);
  console.log(`go-shape: ${n} round-trip kinds restored; not restorable: ${Object.entries(notRestorable).map(([f, why]) => `${f} (${why})`).join('; ')}`);
});

test('minimal objects of many kinds get the fields a cluster shows', () => {
  const doc = JSON.parse(readFileSync(new URL('../../../testdata/k8s-native/defaults-rest/go-shape.json', import.meta.url), 'utf8')) as {
    cases: { apiVersion: string; kind: string; input: O; expected: O }[];
  };
  assert.ok(doc.cases.length >= 25);
  for (const c of doc.cases) {
    const [group, version] = c.apiVersion.includes('/') ? (c.apiVersion.split('/') as [string, string]) : ['', c.apiVersion];
    const shape = goShapeOf(group, version, c.kind);
    assert.ok(shape, `${c.apiVersion} ${c.kind}`);
    const o = structuredClone(c.input);
    shape(o, true);
    assert.deepEqual(o, c.expected, `${c.apiVersion} ${c.kind}`);
  }
});

test('omitempty zeros go, pointers to zeros stay, nulls become what Go writes', () => {
  const shape = goShapeOf('apps', 'v1', 'Deployment')!;
  const d: O = { metadata: { name: 'd', namespace: '', creationTimestamp: null, labels: {} }, spec: { replicas: 0, paused: false, minReadySeconds: 0, template: null } };
  shape(d, true);
  assert.deepEqual(d, { metadata: { name: 'd' }, spec: { replicas: 0, selector: null, template: { metadata: {}, spec: { containers: null } }, strategy: {} } });
  // A request's shape leaves out missing scalars, nulls and structs with required fields (a PodSpec), for its schema validation.
  const r: O = { spec: { template: {} } };
  shape(r, false);
  assert.deepEqual(r, { metadata: {}, spec: { template: { metadata: {} }, strategy: {} } });
  const e: O = { involvedObject: {} };
  goShapeOf('', 'v1', 'Event')!(e, false);
  assert.deepEqual(e, { metadata: {}, involvedObject: {}, source: {} });
  // A null element of a slice of structs is Go's zero struct.
  const p: O = { spec: { containers: [null] } };
  goShapeOf('', 'v1', 'Pod')!(p, true);
  assert.deepEqual(p.spec, { containers: [{ name: '', resources: {} }] });
  assert.equal(goShapeOf('example.com', 'v1', 'Widget'), undefined);
});
