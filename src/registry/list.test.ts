import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openTempStore, rejectsStatus, widget, widgetStore, type TempStore } from './testing.ts';
import type { GenericStore } from './generic-store.ts';
import type { Obj } from './rest.ts';

const names = (items: Obj[]) => items.map((o) => (o.metadata as { name: string }).name);


describe('list', () => {
  let t: TempStore;
  let s: GenericStore;
  before(async () => {
    t = await openTempStore();
    s = widgetStore(t.store);
    for (let i = 0; i < 10; i++) {
      await s.create('a', widget(`w${i}`, { labels: { parity: i % 2 === 0 ? 'even' : 'odd' }, spec: { color: i < 3 ? 'red' : 'blue' } }), {});
    }
    await s.create('b', widget('other'), {});
  });
  after(() => t.close());

  test('lists one namespace or all, as a WidgetList at the current revision', async () => {
    const l = await s.list('a', {});
    assert.equal(l.apiVersion, 'example.com/v1');
    assert.equal(l.kind, 'WidgetList');
    assert.deepEqual(names(l.items), ['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8', 'w9']);
    assert.equal(l.metadata.resourceVersion, String(await t.store.currentRevision()));
    assert.equal(l.metadata.continue, undefined);
    const all = await s.list(undefined, {});
    assert.equal(all.items.length, 11);
  });

  test('label and field selectors (metadata.name, metadata.namespace, selectable field)', async () => {
    assert.deepEqual(names((await s.list('a', { labelSelector: 'parity=even' })).items), ['w0', 'w2', 'w4', 'w6', 'w8']);
    assert.deepEqual(names((await s.list('a', { labelSelector: 'parity in (odd),parity!=even' })).items), ['w1', 'w3', 'w5', 'w7', 'w9']);
    assert.deepEqual(names((await s.list(undefined, { fieldSelector: 'metadata.name=w3' })).items), ['w3']);
    assert.deepEqual(names((await s.list(undefined, { fieldSelector: 'metadata.namespace=b' })).items), ['other']);
    assert.deepEqual(names((await s.list('a', { fieldSelector: 'spec.color=red' })).items), ['w0', 'w1', 'w2']);
    assert.deepEqual(names((await s.list('a', { fieldSelector: 'spec.color!=blue', labelSelector: 'parity=odd' })).items), ['w1']);
  });

  test('malformed selectors and unsupported field labels are 400 and nothing else', async () => {
    await rejectsStatus(s.list('a', { fieldSelector: 'spec.size=3' }), 400, 'BadRequest', 'field label not supported: spec.size');
    await rejectsStatus(s.list('a', { fieldSelector: 'nonsense' }), 400, 'BadRequest', "invalid selector: 'nonsense'; can't understand 'nonsense'");
    await rejectsStatus(s.list('a', { labelSelector: 'a in (b' }), 400, 'BadRequest', /^unable to parse requirement|found '', expected/);
  });

  test('limit/continue pages a consistent snapshot with remainingItemCount', async () => {
    const p1 = await s.list('a', { limit: 4 });
    assert.deepEqual(names(p1.items), ['w0', 'w1', 'w2', 'w3']);
    assert.equal(p1.metadata.remainingItemCount, 6);
    assert.ok(p1.metadata.continue);
    // Changes after the first page are not seen by the following pages.
    await s.create('a', widget('w55'), {});
    await s.delete('a', 'w8', {});
    const p2 = await s.list('a', { limit: 4, continue: p1.metadata.continue });
    assert.deepEqual(names(p2.items), ['w4', 'w5', 'w6', 'w7']);
    assert.equal(p2.metadata.resourceVersion, p1.metadata.resourceVersion);
    assert.equal(p2.metadata.remainingItemCount, 2);
    const p3 = await s.list('a', { limit: 4, continue: p2.metadata.continue });
    assert.deepEqual(names(p3.items), ['w8', 'w9']);
    assert.equal(p3.metadata.continue, undefined);
    assert.equal(p3.metadata.remainingItemCount, undefined);
    const now = await s.list('a', {});
    assert.deepEqual(names(now.items), ['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w55', 'w6', 'w7', 'w9']);
    // restore
    await s.delete('a', 'w55', {});
    await s.create('a', widget('w8', { labels: { parity: 'even' } }), {});
  });

  test('a filtered page may hold fewer items; no remainingItemCount with a selector', async () => {
    const p1 = await s.list('a', { limit: 3, labelSelector: 'parity=odd' });
    assert.deepEqual(names(p1.items), ['w1', 'w3', 'w5']);
    assert.equal(p1.metadata.remainingItemCount, undefined);
    const p2 = await s.list('a', { limit: 3, labelSelector: 'parity=odd', continue: p1.metadata.continue });
    assert.deepEqual(names(p2.items), ['w7', 'w9']);
  });

  test('continue with a resourceVersion is 400; malformed tokens are 400', async () => {
    const p1 = await s.list('a', { limit: 2 });
    await rejectsStatus(
      s.list('a', { limit: 2, continue: p1.metadata.continue, resourceVersion: '5' }),
      400,
      'BadRequest',
      'specifying resource version is not allowed when using continue',
    );
    await rejectsStatus(
      s.list('a', { continue: 'a!b' }),
      400,
      'BadRequest',
      'invalid continue token: continue key is not valid: illegal base64 data at input byte 1',
    );
    const noRV = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 0, start: 'x' })).toString('base64url');
    await rejectsStatus(
      s.list('a', { continue: noRV }),
      400,
      'BadRequest',
      'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
    const escape = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 3, start: '../../x' })).toString('base64url');
    await rejectsStatus(s.list('a', { continue: escape }), 400, 'BadRequest', 'invalid continue token: continue key is not valid: ../../x');
    const version = Buffer.from(JSON.stringify({ v: 'v2', rv: 3, start: 'x' })).toString('base64url');
    await rejectsStatus(
      s.list('a', { continue: version }),
      400,
      'BadRequest',
      'invalid continue token: continue key is not valid: server does not recognize this encoded version v2',
    );
  });

  test('resourceVersion parameters: validation errors', async () => {
    await rejectsStatus(
      s.list('a', { resourceVersionMatch: 'Exact' }),
      422,
      'Invalid',
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    await rejectsStatus(
      s.list('a', { resourceVersion: '0', resourceVersionMatch: 'Exact' }),
      422,
      'Invalid',
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
    await rejectsStatus(
      s.list('a', { resourceVersion: '1', resourceVersionMatch: 'Newest' }),
      422,
      'Invalid',
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
    );
    await rejectsStatus(
      s.list('a', { resourceVersion: 'abc' }),
      400,
      'BadRequest',
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
    await rejectsStatus(
      s.list('a', { resourceVersion: '99999999999999999999' }),
      400,
      'BadRequest',
      'invalid resource version: resourceVersion: Invalid value: "99999999999999999999": strconv.ParseUint: parsing "99999999999999999999": value out of range',
    );
  });

  test('resourceVersion semantics: Exact reads the past, NotOlderThan needs the store to be there', async () => {
    const before = await t.store.currentRevision();
    await s.create('a', widget('late'), {});
    const exact = await s.list('a', { resourceVersion: String(before), resourceVersionMatch: 'Exact' });
    assert.ok(!names(exact.items).includes('late'));
    assert.equal(exact.metadata.resourceVersion, String(before));
    const legacy = await s.list('a', { resourceVersion: String(before), limit: 100 });
    assert.ok(!names(legacy.items).includes('late'));
    const fresh = await s.list('a', { resourceVersion: String(before), resourceVersionMatch: 'NotOlderThan' });
    assert.ok(names(fresh.items).includes('late'));
    const any = await s.list('a', { resourceVersion: '0' });
    assert.ok(names(any.items).includes('late'));
    const future = String((await t.store.currentRevision()) + 100);
    const err = await rejectsStatus(
      s.list('a', { resourceVersion: future, resourceVersionMatch: 'NotOlderThan' }),
      504,
      'Timeout',
      `Timeout: Too large resource version: ${future}, current: ${await t.store.currentRevision()}`,
    );
    assert.deepEqual(err.status.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
    await s.delete('a', 'late', {});
  });

  test('compacted revisions: Exact is 410 Expired; an expired continue token gets an inconsistent one', async () => {
    const old = await t.store.currentRevision();
    const p1 = await s.list('a', { limit: 3 });
    await s.create('a', widget('zz-new'), {});
    await s.update('a', 'w9', (cur) => ({ ...cur!, spec: { color: 'green' } }), {});
    await t.store.compact(await t.store.currentRevision());
    await rejectsStatus(
      s.list('a', { resourceVersion: String(old), resourceVersionMatch: 'Exact' }),
      410,
      'Expired',
      'The resourceVersion for the provided list is too old.',
    );
    const err = await rejectsStatus(s.list('a', { limit: 3, continue: p1.metadata.continue }), 410, 'Expired', /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response/);
    const token = (err.status.metadata as { continue?: string }).continue;
    assert.ok(token);
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString()) as { rv: number; start: string };
    assert.equal(decoded.rv, -1);
    // The inconsistent token continues at the latest revision: the new object and the change are seen.
    const rest = await s.list('a', { continue: token });
    assert.deepEqual(names(rest.items), ['w3', 'w4', 'w5', 'w6', 'w7', 'w8', 'w9', 'zz-new']);
    assert.deepEqual(rest.items.find((o) => (o.metadata as { name: string }).name === 'w9')!.spec, { color: 'green' });
  });
});
