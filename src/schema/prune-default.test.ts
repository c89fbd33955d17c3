// The write path's one walk (prune.ts's compilePrunerDefaulting, through compile.ts's prune with
// applyDefaults) against upstream's steps one after the other — decode the root ObjectMeta, Prune,
// PruneNonNullableNullsWithoutDefaults, coerce embedded ObjectMeta, write the root ObjectMeta
// back, Default — on the vendored CRD bundles' schemas (with objects generated from them: nulls,
// missing and unknown fields, embedded resources) and on the benchmark's real objects. The
// results must be identical, key order included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';
import { decodeObjectMeta, encodeObjectMeta } from '../apimachinery/index.ts';
import { compileSchema } from './compile.ts';
import { compileDefaulter, compileNullPruner } from './default.ts';
import { compileCoercer } from './objectmeta.ts';
import { compilePruner } from './prune.ts';
import { newStructural, type Structural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';
import { deepCopyJSON, isObject } from './value.ts';

const testdata = new URL('../../testdata/crds/', import.meta.url).pathname;

function crdSchemas(text: string): { name: string; schema: JSONSchemaProps }[] {
  const out: { name: string; schema: JSONSchemaProps }[] = [];
  for (const d of parseAllDocuments(text)) {
    const o = d.toJS() as { kind?: string; metadata: { name: string }; spec: { versions: { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }[] } } | null;
    if (o?.kind !== 'CustomResourceDefinition') continue;
    for (const v of o.spec.versions) if (v.schema?.openAPIV3Schema) out.push({ name: `${o.metadata.name}/${v.name}`, schema: v.schema.openAPIV3Schema });
  }
  return out;
}

/** The vendored bundles' version schemas, but Argo Workflows' (12 MB of YAML, no new shapes). */
function vendoredSchemas(): { name: string; schema: JSONSchemaProps }[] {
  const out = crdSchemas(readFileSync(join(testdata, 'cert-manager/cert-manager.crds.yaml'), 'utf8'));
  out.push(...crdSchemas(readFileSync(join(testdata, 'gateway-api/crds/standard-install.yaml'), 'utf8')));
  for (const f of readdirSync(join(testdata, 'bundles'))) {
    if (f.startsWith('argo-workflows')) continue;
    out.push(...crdSchemas(gunzipSync(readFileSync(join(testdata, 'bundles', f))).toString()));
  }
  return out;
}

/** Upstream's order, step by step, from the separately compiled (and separately tested) passes. */
function reference(s: Structural, obj: Record<string, unknown>): string | undefined {
  let meta: Record<string, unknown> | undefined;
  if (Object.hasOwn(obj, 'metadata')) {
    const d = decodeObjectMeta(obj.metadata);
    if (d.error !== undefined) return d.error;
    meta = encodeObjectMeta(d.meta);
  }
  compilePruner(s, true)(obj);
  compileNullPruner(s)(obj);
  const c = compileCoercer(s, false)(undefined, obj);
  if (c.error !== undefined) return 'coerce';
  if (meta !== undefined) obj.metadata = meta;
  compileDefaulter(s)(obj);
  return undefined;
}

/** A small deterministic PRNG (mulberry32), so that every run generates the same objects. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An object for s: properties present, missing or null, unknown fields, arrays with nulls, embedded resources. */
function generate(s: Structural | undefined, rnd: () => number, depth: number): unknown {
  if (s === undefined || depth > 7) return rnd() < 0.5 ? 'x' : { unknownKey: { deep: 1 } };
  if (rnd() < 0.08) return null;
  if (s.items !== undefined || s.type === 'array') {
    const n = Math.floor(rnd() * 3);
    return Array.from({ length: n }, () => (rnd() < 0.15 ? null : generate(s.items, rnd, depth + 1)));
  }
  if (s.properties !== undefined || s.additionalProperties !== undefined || s.type === 'object' || s.xEmbeddedResource || s.xPreserveUnknownFields) {
    const o: Record<string, unknown> = {};
    if (s.xEmbeddedResource) {
      if (rnd() < 0.7) o.apiVersion = rnd() < 0.9 ? 'v1' : null;
      if (rnd() < 0.7) o.kind = 'Pod';
      if (rnd() < 0.7) o.metadata = rnd() < 0.8 ? { name: 'n', labels: { b: '1', a: '2' }, extra: 1 } : null;
    }
    for (const [k, p] of s.properties ?? []) {
      const r = rnd();
      if (r < 0.3) continue;
      o[k] = r < 0.4 ? null : generate(p, rnd, depth + 1);
    }
    if (s.additionalProperties !== undefined) for (let i = 0; i < 2; i++) o[`ap${i}`] = rnd() < 0.2 ? null : generate(s.additionalProperties.structural, rnd, depth + 1);
    if (rnd() < 0.3) o.notInSchema = rnd() < 0.5 ? null : { a: 1 };
    return o;
  }
  switch (s.type) {
    case 'integer':
      return 3;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    default:
      return rnd() < 0.1 ? { notAScalar: 1 } : 's';
  }
}

const metadataShapes: unknown[] = [
  { name: 'a', namespace: 'ns', labels: { z: '1', a: '2' }, annotations: { k: 'v' } },
  { name: 'a', creationTimestamp: '2024-01-02T03:04:05Z', resourceVersion: '5', uid: 'u', generation: 2, finalizers: ['f'] },
  { generateName: 'g-', labels: {}, annotations: null, finalizers: [] },
  { name: 'a', unknownField: 1, ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'n', uid: 'u', extra: 1 }] },
  null,
];

function fixtureObjects(s: Structural, seed: number): Record<string, unknown>[] {
  const rnd = prng(seed);
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < 6; i++) {
    const spec = generate(s, rnd, 0);
    const o: Record<string, unknown> = isObject(spec) ? spec : { spec };
    o.apiVersion = 'example.com/v1';
    o.kind = 'Example';
    o.metadata = deepCopyJSON(metadataShapes[i % metadataShapes.length]);
    out.push(o);
  }
  return out;
}

/** JSON with key order and Go's number kinds (bigint) kept, for an exact comparison. */
const exact = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));

function assertSameAsReference(name: string, schema: JSONSchemaProps, objs: readonly Record<string, unknown>[]): number {
  const s = newStructural(schema)!;
  const compiled = compileSchema(schema);
  let n = 0;
  for (const [i, o] of objs.entries()) {
    const want = deepCopyJSON(o);
    const wantErr = reference(s, want);
    const got = deepCopyJSON(o);
    const r = compiled.prune(got, { isResourceRoot: true, trackUnknown: true, applyDefaults: true });
    assert.equal(r.error !== undefined, wantErr !== undefined, `${name} #${i}: error ${r.error} vs ${wantErr}`);
    if (wantErr === undefined) assert.equal(exact(got), exact(want), `${name} #${i}`);
    n++;
  }
  return n;
}

test('prune with defaults in one walk equals the upstream steps on objects generated for every vendored schema', () => {
  const schemas = vendoredSchemas();
  assert.ok(schemas.length >= 200, `only ${schemas.length} schemas`);
  let objects = 0;
  for (const [i, { name, schema }] of schemas.entries()) objects += assertSameAsReference(name, schema, fixtureObjects(newStructural(schema)!, i + 1));
  assert.ok(objects >= 1200, `only ${objects} objects`);
});

test('prune with defaults in one walk equals the upstream steps on the benchmark objects', async () => {
  const { validCertificates, invalidCertificates } = await import('../../bench/lib/certificates.ts');
  const { crdVersionSchema, docsOfKind } = await import('../../bench/lib/manifests.ts');
  const routes = [
    ...docsOfKind(join(testdata, 'gateway-api/valid'), 'gateway.networking.k8s.io/v1beta1', 'HTTPRoute'),
    ...docsOfKind(join(testdata, 'gateway-api/invalid/httproute'), 'gateway.networking.k8s.io/v1beta1', 'HTTPRoute'),
  ];
  const route = crdVersionSchema(join(testdata, 'gateway-api/crds/standard-install.yaml'), 'httproutes.gateway.networking.k8s.io', 'v1beta1');
  const cert = crdVersionSchema(join(testdata, 'cert-manager/cert-manager.crds.yaml'), 'certificates.cert-manager.io', 'v1');
  assert.ok(assertSameAsReference('HTTPRoute', route, routes) >= 50);
  assert.ok(assertSameAsReference('Certificate', cert, [...validCertificates(), ...invalidCertificates()]) >= 12);
});

test('the walk defaults what it keeps, after pruning: defaults are not pruned, nulls of defaulted fields are filled', () => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: {
      a: { type: 'string', default: 'A' },
      b: { type: 'object', default: { unknown: 1, c: null }, properties: { c: { type: 'string', default: 'C' } } },
      d: { type: 'string' },
      e: { type: 'array', items: { type: 'string', default: 'E' } },
    },
  };
  const schema: JSONSchemaProps = { type: 'object', properties: { spec } };
  const obj: Record<string, unknown> = { apiVersion: 'v1', kind: 'K', metadata: { name: 'n' }, spec: { a: null, d: null, e: [null, 'x'], x: 1 } };
  const r = compileSchema(schema).prune(obj, { isResourceRoot: true, trackUnknown: true, applyDefaults: true });
  assert.deepEqual(r.prunedPaths, ['spec.x']);
  // b's default keeps its unknown field (defaults are pruned when the CRD is stored, not per object)
  // and its null c is defaulted inside it.
  assert.equal(exact(obj.spec), exact({ a: 'A', e: ['E', 'x'], b: { unknown: 1, c: 'C' } }));
  assert.equal(exact(obj.metadata), exact({ name: 'n', creationTimestamp: null }));
});
