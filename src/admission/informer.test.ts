import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openTempStore } from '../registry/testing.ts';
import { objectCache } from './informer.ts';

const until = async (f: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !f(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(f(), 'condition not reached');
};

test('callers of one store and prefix share one cache, and its objects, until the last stops', async () => {
  const t = await openTempStore();
  try {
    await t.store.create('/registry/things/a', JSON.stringify({ metadata: { name: 'a' }, n: 1 }));
    const one = objectCache(t.store, '/registry/things/');
    const two = objectCache(t.store, '/registry/things/');
    const other = objectCache(t.store, '/registry/others/');
    await Promise.all([one.synced, two.synced, other.synced]);
    // One decode per object: both callers see the same object.
    assert.equal(one.get('a'), two.get('a'));
    assert.deepEqual(one.get('a'), { metadata: { name: 'a' }, n: 1 });
    assert.equal(other.get('a'), undefined);

    // The first caller stops: the second still follows changes.
    one.stop();
    assert.equal(one.isSynced(), false);
    assert.equal(two.isSynced(), true);
    await t.store.create('/registry/things/b', JSON.stringify({ metadata: { name: 'b' } }));
    await until(() => two.get('b') !== undefined);

    // Once every caller has stopped, a new caller starts a fresh cache that lists again.
    two.stop();
    await t.store.create('/registry/things/c', JSON.stringify({ metadata: { name: 'c' } }));
    const three = objectCache(t.store, '/registry/things/');
    await three.synced;
    assert.deepEqual([...three.entries()].map(([k]) => k).sort(), ['a', 'b', 'c']);
    assert.notEqual(three.get('a'), two.get('a'));
    three.stop();
    other.stop();
  } finally {
    await t.close();
  }
});
