/**
 * The DRA admin-access namespace check as data (testdata/k8s-native/dra-admin-access/): each create
 * case is created through the kind's real store over a real SQLite store holding upstream's two
 * namespaces, and read once more through authorizedForAdmin to count the namespace reads; each
 * status case runs the claim's update hook over that store, then the real status strategy.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StatusError } from '../../apimachinery/index.ts';
import { builtinRegistry } from '../kinds.ts';
import type { KindDefinition } from '../kind.ts';
import type { Obj } from '../rest.ts';
import { openTempStore, type TempStore } from '../testing.ts';
import { authorizedForAdmin, authorizedForAdminStatus, resourceWriteHooks, storedNamespaces, type NamespaceReader } from './admin-access.ts';
import { builtinResources } from '../builtin/catalog.ts';
import { BuiltinStrategy } from '../builtin/strategy.ts';
import type { RequestContext } from '../strategy.ts';
import { errorString } from '../../apimachinery/index.ts';

interface Case {
  name: string;
  object: Obj;
  errors: string[];
  namespaceReads: number;
}
interface Vectors {
  source: string;
  minCases: number;
  kinds: Record<string, Case[]>;
  skipped: { name: string; reason: string }[];
}

const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s-native/dra-admin-access/strategy-create.json', import.meta.url), 'utf8')) as Vectors;

let t: TempStore;
let kinds: KindDefinition[];
before(async () => {
  t = await openTempStore();
  kinds = builtinRegistry({ store: t.store }).kinds;
  const namespaces = kinds.find((k) => k.group === '' && k.resource === 'namespaces')!.store;
  for (const [name, labels] of [['default', { key: 'value' }], ['kube-system', { 'resource.kubernetes.io/admin-access': 'true' }]] as const) {
    await namespaces.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } }, {});
  }
});
after(() => t.close());

/** The field errors a create fails with (none: it was stored). */
async function createErrors(kind: KindDefinition, obj: Obj): Promise<string[]> {
  try {
    await kind.store.create((obj.metadata as { namespace: string }).namespace, structuredClone(obj), {});
    return [];
  } catch (e) {
    if (!(e instanceof StatusError) || e.status.code !== 422) throw e;
    return (e.status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
  }
}

test('dra-admin-access vectors: counts and skips', () => {
  const total = Object.values(vectors.kinds).reduce((n, cs) => n + cs.length, 0);
  assert.ok(total >= vectors.minCases && vectors.minCases >= 16, `only ${total} cases`);
  for (const s of vectors.skipped) assert.ok(s.reason.trim() !== '', `${s.name} is skipped without a reason`);
  console.log(`dra-admin-access: ${total} cases, ${vectors.skipped.length} upstream cases skipped\n  ${vectors.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n  ')}`);
});

for (const [resource, cases] of Object.entries(vectors.kinds)) {
  test(`dra-admin-access ${resource} (${vectors.source})`, async () => {
    const kind = kinds.find((k) => `${k.group}/${k.resource}` === resource);
    assert.ok(kind, resource);
    for (const [i, c] of cases.entries()) {
      const obj = structuredClone(c.object);
      (obj.metadata as { name: string }).name += `-${i}`;
      assert.deepEqual(await createErrors(kind, obj), c.errors, `${resource}: ${c.name}`);
      let reads = 0;
      const stored = storedNamespaces(t.store);
      const counting: NamespaceReader = (name) => (reads++, stored(name));
      const spec = obj.spec as Record<string, Record<string, unknown>>;
      const requests = (resource.endsWith('templates') ? (spec.spec!.devices as Record<string, unknown>) : spec.devices!).requests;
      await authorizedForAdmin(requests, (obj.metadata as { namespace: string }).namespace, counting);
      assert.equal(reads, c.namespaceReads, `${resource}: ${c.name} (namespace reads)`);
    }
  });
}

test('a namespace that cannot be read is an internal error of the request asking for admin access', async () => {
  const requests = [{ name: 'a', exactly: { deviceClassName: 'c', adminAccess: true } }];
  assert.deepEqual(await authorizedForAdmin(requests, 'gone', storedNamespaces(t.store)), [
    {
      type: 'InternalError',
      field: 'spec.devices.requests[0].adminAccess',
      badValue: null,
      detail: 'could not retrieve namespace to verify admin access: namespaces "gone" not found',
    },
  ]);
  const failing: NamespaceReader = () => Promise.reject(new Error('database is locked'));
  const [e] = await authorizedForAdmin(requests, 'default', failing);
  assert.equal(e?.detail, 'could not retrieve namespace to verify admin access: database is locked');
});

interface StatusCase {
  name: string;
  old: Obj;
  object: Obj;
  errors: string[];
  namespaceReads: number;
}

const statusVectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s-native/dra-admin-access/strategy-status-update.json', import.meta.url), 'utf8')) as {
  source: string;
  minCases: number;
  cases: StatusCase[];
  skipped: { name: string; reason: string }[];
};

const results = (o: Obj) => ((o.status as { allocation?: { devices: { results: unknown[] } } }).allocation?.devices.results);

test(`dra-admin-access status updates (${statusVectors.source})`, async () => {
  assert.ok(statusVectors.cases.length >= statusVectors.minCases && statusVectors.minCases >= 10, `only ${statusVectors.cases.length} cases`);
  for (const s of statusVectors.skipped) assert.ok(s.reason.trim() !== '', `${s.name} is skipped without a reason`);
  const r = builtinResources().find((x) => x.group === 'resource.k8s.io' && x.resource === 'resourceclaims')!;
  const status = new BuiltinStrategy(r, () => {
    throw new Error('resourceclaims fell back to its OpenAPI schema');
  }).subresourceStrategy('status')!;
  const hooks = resourceWriteHooks.resourceclaims!(t.store);
  for (const c of statusVectors.cases) {
    const ctx: RequestContext = { warnings: [], fieldValidation: 'Strict', dryRun: false, subresource: 'status' };
    const obj = structuredClone(c.object);
    const finish = await hooks.beginStatusUpdate!(ctx, obj, c.old);
    status.prepareForUpdate(ctx, obj, c.old);
    assert.deepEqual(status.validateUpdate(ctx, obj, c.old).map(errorString), c.errors, c.name);
    await finish(true);
    let reads = 0;
    const stored = storedNamespaces(t.store);
    await authorizedForAdminStatus(results(c.object), results(c.old), (c.old.metadata as { namespace: string }).namespace, (name) => (reads++, stored(name)));
    assert.equal(reads, c.namespaceReads, `${c.name} (namespace reads)`);
  }
});

test('a claim update through the main endpoint leaves its status unchecked (the spec is immutable and the status is the stored one)', async () => {
  const hooks = resourceWriteHooks.resourceclaims!(t.store);
  const c = statusVectors.cases.find((x) => x.name === 'keep-fields-admin-access-NonAdminNamespace')!;
  const ctx: RequestContext = { warnings: [], fieldValidation: 'Strict', dryRun: false };
  // Only the status endpoint has an update hook (upstream's check is in the status strategy).
  assert.equal(hooks.beginUpdate, undefined);
  // Had a hook found anything for this request, the claim's rules would report it here.
  const r = builtinResources().find((x) => x.group === 'resource.k8s.io' && x.resource === 'resourceclaims')!;
  const status = new BuiltinStrategy(r, () => {
    throw new Error('resourceclaims fell back to its OpenAPI schema');
  }).subresourceStrategy('status')!;
  assert.deepEqual(status.validateUpdate(ctx, structuredClone(c.old), c.old).map(errorString), []);
});
