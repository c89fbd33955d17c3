/**
 * The byte-bounded start of the watch cache's backlog: the revision a SQLite store names for the
 * last `maxBytes` of history is the one the backlog's own eviction reaches after replaying all of
 * it (creates, updates carrying their previous value, deletes, a multi-byte value), and a cacher
 * started that way answers watches from before and inside its window as one replaying everything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../sqlite/index.ts';
import type { Store, WatchEvent } from '../store.ts';
import { defaultRingSizing, eventOverhead, EventRing } from './event-ring.ts';
import { openCacher } from './cacher.ts';

async function filled(): Promise<Store> {
  const store = await openSqliteStore({ path: ':memory:', compactIntervalMs: 0 });
  for (let i = 0; i < 40; i++) {
    const key = `/registry/things/t${i % 7}`;
    const value = JSON.stringify({ i, pad: 'x'.repeat(100 + ((i * 37) % 400)), text: i === 30 ? 'é€😀' : '' });
    const cur = await store.get(key);
    if (!cur) await store.create(key, value);
    else if (i % 5 === 0) await store.delete(key, cur.modRevision);
    else await store.update(key, value, cur.modRevision);
  }
  return store;
}

/** What the backlog keeps after every event since `after` is pushed: the revision it evicted through. */
async function evictedThrough(store: Store, after: number, maxBytes: number): Promise<number> {
  const events: WatchEvent[] = [];
  const current = await store.currentRevision();
  await new Promise<void>((resolve) => {
    const w = store.watch('/registry/', {
      afterRevision: after,
      onEvent: (ev) => {
        events.push(ev);
        if (ev.kv.modRevision === current) resolve();
      },
    });
    setTimeout(() => (w.cancel(), resolve()), 2000).unref();
  });
  const ring = new EventRing(defaultRingSizing, Date.now, maxBytes);
  for (const ev of events) ring.push(ev);
  return ring.evictedThrough || after;
}

test('historyStart names the revision the backlog would evict through', async () => {
  const store = await filled();
  try {
    const current = await store.currentRevision();
    const distinct = new Set<number>();
    for (const maxBytes of [1, 300, 1000, 2500, 6000, 12_000, 1e9]) {
      for (const after of [0, 10]) {
        const got = await store.historyStart!('/registry/', after, maxBytes, eventOverhead);
        assert.equal(got, await evictedThrough(store, after, maxBytes), `maxBytes ${maxBytes} after ${after}`);
        distinct.add(got);
      }
    }
    // The bounds above cut the history at several places (not all at its ends).
    assert.ok(distinct.size >= 5, `${[...distinct]}`);
    assert.equal(await store.historyStart!('/registry/', 0, 1, eventOverhead), current - 1);
  } finally {
    await store.close();
  }
});

test('a cacher whose backlog starts where its bytes allow answers watches as one replaying everything', async () => {
  const store = await filled();
  const bounded = await openCacher(store, { backlogBytes: 6000, progress: () => store.currentRevision() });
  // The same store without historyStart: the cacher replays all of it and evicts.
  const plain: Store = Object.create(store, { historyStart: { value: undefined } });
  const replayed = await openCacher(plain, { backlogBytes: 6000, progress: () => store.currentRevision() });
  try {
    const outcome = async (c: Store, after: number) =>
      new Promise<string>((resolve) => {
        const seen: number[] = [];
        const w = c.watch('/registry/things/', {
          afterRevision: after,
          resourcePrefix: '/registry/things/',
          onEvent: (ev) => seen.push(ev.kv.modRevision),
          onError: (e) => resolve(`error ${e.name}`),
        });
        setTimeout(() => (w.cancel(), resolve(seen.join(','))), 300);
      });
    const current = await store.currentRevision();
    for (const after of [1, 20, 30, current - 3]) assert.equal(await outcome(bounded, after), await outcome(replayed, after), `after ${after}`);
  } finally {
    await bounded.close(); // closes the store under both
  }
});
