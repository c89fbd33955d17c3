/**
 * The served versions of a Webhook-conversion CRD over a real SQLite store: what is stored (the
 * storage version, pruned by its schema), pages converted in one review each, selectable fields
 * of the served version matched on converted objects, watch events in order when they are
 * converted in batches, and a failing conversion ending a watch with its 500. The webhook answers
 * in process here (the HTTPS transport is the admission client's, tested end to end in
 * test/e2e/crd-versions.test.ts).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { customResourceKinds } from '../definition.ts';
import { openTempStore, type TempStore } from '../../testing.ts';
import type { KindDefinition } from '../../kind.ts';
import type { Obj, WatchEvent } from '../../rest.ts';
import type { ConversionWebhookClient } from './webhook.ts';

const G = 'stable.example.com';
let t: TempStore;
let v1: KindDefinition;
let beta: KindDefinition;
const reviews: Obj[] = [];
let failing = false;

/** The webhook: v1beta1 `spec.cronSpec` is v1 `spec.schedule`; to v1 it also adds a field v1 does not know. */
const client: ConversionWebhookClient = {
  post(_cc, _timeout, review) {
    reviews.push(review);
    const req = review.request as Obj;
    if (failing) return Promise.reject(new Error('failed to call webhook: Post "https://hook/convert?timeout=30s": EOF'));
    const convertedObjects = (req.objects as Obj[]).map((o) => {
      const out = structuredClone(o);
      const spec = (out.spec ?? {}) as Obj;
      if (req.desiredAPIVersion === `${G}/v1`) {
        spec.schedule = spec.cronSpec;
        delete spec.cronSpec;
        spec.unknownToV1 = true;
      } else {
        spec.cronSpec = spec.schedule;
        delete spec.schedule;
      }
      out.spec = spec;
      out.apiVersion = req.desiredAPIVersion;
      return out;
    });
    return Promise.resolve({ apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: req.uid, result: { status: 'Success' }, convertedObjects } });
  },
};

const schema = (field: string) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' } } } } } });

before(async () => {
  t = await openTempStore();
  const crd: Obj = {
    metadata: { name: `crontabs.${G}` },
    spec: {
      group: G,
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://hook/convert' } } },
      versions: [
        { name: 'v1beta1', served: true, storage: false, schema: schema('cronSpec'), selectableFields: [{ jsonPath: '.spec.cronSpec' }] },
        { name: 'v1', served: true, storage: true, schema: schema('schedule') },
      ],
    },
  };
  const kinds = customResourceKinds(crd, { store: t.store, conversionWebhooks: client });
  beta = kinds.find((k) => k.version === 'v1beta1')!;
  v1 = kinds.find((k) => k.version === 'v1')!;
});
after(() => t.close());

const crontab = (name: string, cronSpec: string): Obj => ({ apiVersion: `${G}/v1beta1`, kind: 'CronTab', metadata: { name, namespace: 'default' }, spec: { cronSpec } });

test('a write at v1beta1 is stored at v1, pruned by v1\'s schema', async () => {
  await beta.store.create('default', crontab('a', 'A'), {});
  const kv = await t.store.get(`/registry/${G}/crontabs/default/a`);
  const stored = JSON.parse(kv!.value) as Obj;
  assert.equal(stored.apiVersion, `${G}/v1`);
  assert.deepEqual(stored.spec, { schedule: 'A' });
  assert.deepEqual((await beta.store.get('default', 'a')).spec, { cronSpec: 'A' });
  assert.deepEqual((await v1.store.get('default', 'a')).spec, { schedule: 'A' });
});

test('each page of a list is one review; selectable fields match the served version\'s converted objects', async () => {
  for (const n of ['b', 'c', 'd', 'e']) await v1.store.create('default', { apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: n }, spec: { schedule: n.toUpperCase() } }, {});
  reviews.length = 0;
  const page = await beta.store.list('default', { limit: 2 });
  assert.deepEqual(page.items.map((o) => o.spec), [{ cronSpec: 'A' }, { cronSpec: 'B' }]);
  assert.equal(reviews.length, 1);
  assert.equal(((reviews[0]!.request as Obj).objects as Obj[]).length, 2);
  const rest = await beta.store.list('default', { continue: page.metadata.continue });
  assert.deepEqual(rest.items.map((o) => (o.metadata as Obj).name), ['c', 'd', 'e']);
  const selected = await beta.store.list('default', { fieldSelector: 'spec.cronSpec=D' });
  assert.deepEqual(selected.items.map((o) => (o.metadata as Obj).name), ['d']);
});

test('watch events converted in batches keep their order, and a failed conversion ends the watch with 500', async () => {
  const events: WatchEvent[] = [];
  let ended: Error | undefined;
  const w = await beta.store.watch('default', { resourceVersion: String(await t.store.currentRevision()) }, (ev) => events.push(ev), (err) => (ended = err));
  // Writes queue while the first conversion is in flight, and go together.
  await Promise.all(['w1', 'w2', 'w3', 'w4'].map((n) => v1.store.create('default', { apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: n }, spec: { schedule: n } }, {})));
  for (let i = 0; i < 100 && events.length < 4; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(events.length, 4);
  assert.deepEqual(
    events.map((e) => [e.type, (e.object.metadata as Obj).resourceVersion, e.object.apiVersion, e.object.spec]),
    [...events].sort((a, b) => Number((a.object.metadata as Obj).resourceVersion) - Number((b.object.metadata as Obj).resourceVersion)).map((e) => ['ADDED', (e.object.metadata as Obj).resourceVersion, `${G}/v1beta1`, { cronSpec: (e.object.metadata as Obj).name }]),
  );
  failing = true;
  try {
    await v1.store.create('default', { apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: 'w5' }, spec: { schedule: 'x' } }, {});
    for (let i = 0; i < 100 && ended === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    const last = events[events.length - 1]!;
    assert.equal(last.type, 'ERROR');
    assert.deepEqual(last.object, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `conversion webhook for ${G}/v1, Kind=CronTab failed: Post "https://hook/convert?timeout=30s": EOF`,
      code: 500,
    });
    assert.ok(ended);
  } finally {
    failing = false;
    w.stop();
  }
});

test('a dry-run create converts to the storage version and back, stores nothing, and answers with the round trip', async () => {
  reviews.length = 0;
  const out = await beta.store.create('default', crontab('dry', 'D'), { dryRun: true });
  assert.deepEqual(
    reviews.map((r) => (r.request as Obj).desiredAPIVersion),
    [`${G}/v1`, `${G}/v1beta1`],
  );
  // The field the webhook added at v1 is pruned by v1's schema on the way to storage.
  assert.deepEqual(out.object.spec, { cronSpec: 'D' });
  assert.equal(out.object.apiVersion, `${G}/v1beta1`);
  assert.equal((out.object.metadata as Obj).resourceVersion, undefined);
  assert.equal(await t.store.get(`/registry/${G}/crontabs/default/dry`), undefined);
});

test('a dry-run create or update whose conversion fails is refused with the 500 a write gets, and stores nothing', async () => {
  failing = true;
  try {
    await assert.rejects(beta.store.create('default', crontab('dry-fail', 'D'), { dryRun: true }), (e: any) => {
      assert.equal(e.status.code, 500);
      assert.equal(e.status.message, `conversion webhook for ${G}/v1beta1, Kind=CronTab failed: Post "https://hook/convert?timeout=30s": EOF`);
      return true;
    });
    assert.equal(await t.store.get(`/registry/${G}/crontabs/default/dry-fail`), undefined);
  } finally {
    failing = false;
  }
  const before = await t.store.get(`/registry/${G}/crontabs/default/a`);
  // The stored object reads through the webhook too: read it first, then fail the write's conversion.
  const cur = await beta.store.get('default', 'a');
  failing = true;
  try {
    await assert.rejects(
      beta.store.update('default', 'a', () => ({ ...cur, spec: { cronSpec: 'changed' } }), { dryRun: true }),
      (e: any) => e.status.code === 500 && /conversion webhook for/.test(e.status.message),
    );
  } finally {
    failing = false;
  }
  const dry = await beta.store.update('default', 'a', (c) => ({ ...c!, spec: { cronSpec: 'changed' } }), { dryRun: true });
  assert.deepEqual(dry.object.spec, { cronSpec: 'changed' });
  assert.equal((dry.object.metadata as Obj).resourceVersion, String(before!.modRevision));
  assert.deepEqual(await t.store.get(`/registry/${G}/crontabs/default/a`), before);
});

test('ownership is computed across the webhook: an apply at v1 conflicts with a v1beta1 update of the same field, and force takes it', async () => {
  const key = `/registry/${G}/crontabs/default/owned`;
  await beta.store.create('default', crontab('owned', 'five'), { manager: 'beta-writer' });
  const applyAtV1 = (force: boolean) =>
    v1.store.update(
      'default',
      'owned',
      (cur) => v1.store.apply!(cur, { apiVersion: `${G}/v1`, kind: 'CronTab', metadata: { name: 'owned', namespace: 'default' }, spec: { schedule: 'six' } }, { manager: 'v1-applier', force }),
      { manager: 'v1-applier', applied: true, patched: true },
    );
  reviews.length = 0;
  await assert.rejects(applyAtV1(false), (e: any) => {
    assert.equal(e.status.code, 409);
    // The field as the manager's version names it.
    assert.equal(e.status.message, `Apply failed with 1 conflict: conflict with "beta-writer" using ${G}/v1beta1: .spec.cronSpec`);
    return true;
  });
  // The live and merged objects went to v1beta1, the manager's version, through the webhook.
  assert.ok(reviews.some((r) => (r.request as Obj).desiredAPIVersion === `${G}/v1beta1`));
  const out = await applyAtV1(true);
  const managed = (out.object.metadata as Obj).managedFields as Obj[];
  // beta-writer keeps its entry at its own version, without the field the apply took.
  assert.deepEqual(
    managed.map((m) => [m.manager, m.operation, m.apiVersion, m.fieldsV1]),
    [
      ['v1-applier', 'Apply', `${G}/v1`, { 'f:spec': { 'f:schedule': {} } }],
      ['beta-writer', 'Update', `${G}/v1beta1`, { 'f:spec': {} }],
    ],
  );
  assert.deepEqual(JSON.parse((await t.store.get(key))!.value).spec, { schedule: 'six' });
});
