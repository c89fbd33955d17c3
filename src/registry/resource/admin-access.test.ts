/**
 * The DRA admin-access namespace check as data (testdata/k8s-native/dra-admin-access/): each case
 * is created through the kind's real store over a real SQLite store holding upstream's two
 * namespaces, and read once more through authorizedForAdmin to count the namespace reads.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StatusError } from '../../apimachinery/index.ts';
import { builtinRegistry } from '../kinds.ts';
import type { KindDefinition } from '../kind.ts';
import type { Obj } from '../rest.ts';
import { openTempStore, type TempStore } from '../testing.ts';
import { authorizedForAdmin, storedNamespaces, type NamespaceReader } from './admin-access.ts';

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
