/**
 * The ServiceAccount admission plugin against the cases converted from upstream's
 * admission_test.go (testdata/k8s-serviceaccount/admission.json), run as data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isStatusError, newNotFound } from '../../apimachinery/index.ts';
import type { AdmissionAttributes, Obj } from '../../registry/index.ts';
import { serviceAccountAdmission } from './plugin.ts';

const doc = JSON.parse(readFileSync(new URL('../../../testdata/k8s-serviceaccount/admission.json', import.meta.url), 'utf8'));

function attrs(c: { operation?: string; subresource?: string; resource?: string; pod: Obj | null }): AdmissionAttributes {
  return {
    operation: (c.operation ?? 'CREATE') as AdmissionAttributes['operation'],
    user: { username: 'admin', groups: [] },
    resource: { group: '', version: 'v1', resource: c.resource ?? 'pods' },
    subresource: c.subresource ?? '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'myns',
    name: 'myname',
    object: c.pod ?? undefined,
    oldObject: undefined,
    options: {},
    dryRun: false,
    warnings: [],
  };
}

test('admission.json: the ServiceAccount plugin as upstream admits and refuses pods', async () => {
  assert.ok(doc.cases.length >= 27, 'the table has its cases');
  for (const c of doc.cases) {
    const byName = (list: Obj[] | undefined) => new Map((list ?? []).map((s) => [(s.metadata as { name: string }).name, s]));
    const cached = byName(c.cached);
    const live = c.live ? byName(c.live) : cached;
    const plugin = serviceAccountAdmission({
      cached: (_ns, name) => cached.get(name),
      get: async (_ns, name) => {
        const s = live.get(name);
        if (!s) throw newNotFound({ group: '', resource: 'serviceaccounts' }, name);
        return s;
      },
      defaultAttempts: 1,
      retryIntervalMs: 0,
      generateName: (base) => `${base}abcde`,
    });
    const a = attrs(c);
    const before = JSON.stringify(c.pod?.spec ?? null);
    let err = '';
    try {
      if (plugin.handles(a.operation)) {
        await plugin.admit!(a);
        await plugin.validate!(a);
      }
    } catch (e) {
      assert.ok(isStatusError(e), `${c.name}: refused with a Status`);
      assert.equal(e.status.code, 403, c.name);
      err = e.status.message ?? '';
    }
    if (c.expectErr) assert.equal(err, c.expectErr, c.name);
    else assert.equal(err, '', c.name);
    if (c.expectSpec) assert.deepEqual((a.object as Obj).spec, c.expectSpec, c.name);
    else if (!c.expectErr && !c.expectAllowed && c.pod) assert.equal(JSON.stringify(c.pod.spec), before, `${c.name}: unchanged`);
  }
  process.stdout.write(`admission.json: ${doc.cases.length} passed, 0 skipped\n`);
});

test('the default ServiceAccount is waited for: a live read that finds it on a later attempt admits the pod', async () => {
  let reads = 0;
  const plugin = serviceAccountAdmission({
    get: async (_ns, name) => {
      if (++reads < 3) throw newNotFound({ group: '', resource: 'serviceaccounts' }, name);
      return { metadata: { name, namespace: 'myns' } };
    },
    retryIntervalMs: 1,
  });
  const a = attrs({ pod: { metadata: { name: 'myname' }, spec: { automountServiceAccountToken: false } } });
  await plugin.admit!(a);
  // Two misses and a hit, then the admit's closing validation reads it once more.
  assert.equal(reads, 4);
  // A named ServiceAccount is read once.
  reads = -100;
  const b = attrs({ pod: { metadata: { name: 'myname' }, spec: { serviceAccountName: 'other' } } });
  await assert.rejects(plugin.admit!(b), /serviceaccount "other" not found/);
  assert.equal(reads, -99);
});
