/**
 * The watch cache over a real SQLite store: the Store contract suite with every prefix cached
 * (each `/registry/<segment>/` as one resource), then what the cache adds: catch-up from the
 * store's watch, consistent reads after a write, ranges at older revisions rebuilt from the window,
 * the window's expiry as CompactedError (the registry's 410), and watchers that fall behind closed.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreContract } from '../contract.ts';
import { openSqliteStore } from '../sqlite/index.ts';
import { CompactedError, type Store, type WatchEvent } from '../store.ts';
import { openCacher, type Cacher, type CacherOptions } from './cacher.ts';
import { WatcherEvictedError } from './cache-watcher.ts';

const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-cacher-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** Every `/registry/<segment>/` prefix is a cached resource. */
function firstSegment(prefix: string): string | undefined {
  const m = /^\/registry\/[^/]+\//.exec(prefix);
  return m ? m[0] : undefined;
}

async function open(opts: CacherOptions = {}): Promise<{ raw: Store; cacher: Cacher }> {
  const raw = await openSqliteStore({ path: join(dir, `c-${++n}.db`), compactIntervalMs: 0 });
  const cacher = await openCacher(raw, { resourceOf: firstSegment, progress: () => raw.currentRevision(), ...opts });
  return { raw, cacher };
}

runStoreContract('watch cache over sqlite', async () => {
  const { cacher } = await open();
  return { store: cacher, cleanup: () => cacher.close() };
});

/** Waits for pending microtasks and immediates. */
const settle = () => new Promise((r) => setImmediate(r));

function collect(s: Store, prefix: string, afterRevision: number) {
  const events: WatchEvent[] = [];
  let error: Error | undefined;
  const watch = s.watch(prefix, { afterRevision, onEvent: (ev) => events.push(ev), onError: (e) => (error = e) });
  return { events, watch, error: () => error };
}

describe('watch cache', () => {
  test('follows writes made to the store behind it: a consistent read after a write sees the write', async () => {
    const { raw, cacher } = await open();
    try {
      await raw.create('/registry/w/a', 'A1');
      // Built on first use, from the store.
      assert.deepEqual((await cacher.range('/registry/w/')).items.map((kv) => kv.value), ['A1']);
      assert.equal(cacher.cachedResources, 1);
      // Written behind the cache's back: the next consistent read waits for the cache to catch up.
      const b = await raw.create('/registry/w/b', 'B1');
      const res = await cacher.range('/registry/w/');
      assert.deepEqual(res.items.map((kv) => kv.value), ['A1', 'B1']);
      assert.ok(res.revision >= b.modRevision);
      assert.ok(Object.isFrozen(res.items[0]), 'cached key-values are shared and frozen');
      // The same object version is the same KeyValue on every read.
      assert.equal((await cacher.range('/registry/w/')).items[1], res.items[1]);
    } finally {
      await cacher.close();
    }
  });

  test('ranges at every older revision in the window, with limits and start keys, equal the store’s', async () => {
    const { raw, cacher } = await open();
    try {
      await cacher.range('/registry/w/');
      const start = await raw.currentRevision();
      // A deterministic mix of creates, updates and deletes over ten keys.
      const live = new Map<string, number>();
      let seed = 7;
      const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
      for (let i = 0; i < 120; i++) {
        const key = `/registry/w/ns${rand(2)}/k${rand(10)}`;
        const rev = live.get(key);
        if (rev === undefined) live.set(key, (await raw.create(key, `v${i}`)).modRevision);
        else if (rand(3) === 0) {
          await raw.delete(key, rev);
          live.delete(key);
        } else live.set(key, (await raw.update(key, `v${i}`, rev)).modRevision);
      }
      const end = await raw.currentRevision();
      let compared = 0;
      for (let rev = start; rev <= end; rev += 3) {
        for (const prefix of ['/registry/w/', '/registry/w/ns1/']) {
          for (const opts of [{}, { limit: 3 }, { limit: 2, startKey: `${prefix}k4` }, { countOnly: true }]) {
            const want = await raw.range(prefix, { revision: rev, ...opts });
            const got = await cacher.range(prefix, { revision: rev, resourcePrefix: '/registry/w/', ...opts });
            assert.deepEqual({ ...got, items: [...got.items] }, want, `at ${rev} ${prefix} ${JSON.stringify(opts)}`);
            compared++;
          }
        }
      }
      assert.ok(compared > 300);
    } finally {
      await cacher.close();
    }
  });

  test('a watch from before the window is CompactedError with the oldest revision it can serve; a range there asks the store', async () => {
    const { raw, cacher } = await open({ ring: { initialCapacity: 4, maxCapacity: 4, freshMs: 0 } });
    try {
      await cacher.range('/registry/w/');
      const first = await raw.create('/registry/w/a', '0');
      let kv = first;
      for (let i = 1; i < 10; i++) kv = await raw.update('/registry/w/a', String(i), kv.modRevision);
      await cacher.range('/registry/w/');
      // Four events kept: the state after the sixth write is the oldest the window rebuilds.
      const oldest = kv.modRevision - 4;
      const got = collect(cacher, '/registry/w/', first.modRevision);
      await settle();
      const err = got.error();
      assert.ok(err instanceof CompactedError, `expected CompactedError, got ${err}`);
      assert.equal(err.requested, first.modRevision);
      assert.equal(err.compacted, oldest);
      // From the oldest revision on, the window replays.
      const ok = collect(cacher, '/registry/w/', oldest);
      await settle();
      assert.deepEqual(ok.events.map((e) => e.kv.value), ['6', '7', '8', '9']);
      ok.watch.cancel();
      // An Exact read before the window is the store's answer.
      const old = await cacher.range('/registry/w/', { revision: first.modRevision, resourcePrefix: '/registry/w/' });
      assert.deepEqual(old.items.map((x) => x.value), ['0']);
    } finally {
      await cacher.close();
    }
  });

  test('the backlog of resources not cached yet is bounded by bytes: a cache built later reaches back as far as it does', async () => {
    // Each event of a 200-byte value costs about 350 bytes: 2,000 bytes keep five.
    for (const [backlogBytes, kept] of [[2000, 5], [undefined, 20]] as const) {
      const { raw, cacher } = await open(backlogBytes === undefined ? {} : { backlogBytes });
      try {
        const revs: number[] = [];
        for (let i = 0; i < 20; i++) revs.push((await raw.create(`/registry/leases/l${i}`, 'x'.repeat(200))).modRevision);
        await cacher.range('/registry/w/');
        // Built now, the leases' cache replays what the backlog kept, and no more.
        const all = collect(cacher, '/registry/leases/', revs[0]! - 1);
        await settle();
        if (kept === 20) {
          assert.equal(all.error(), undefined);
          assert.equal(all.events.length, 20);
          all.watch.cancel();
        } else {
          const err = all.error();
          assert.ok(err instanceof CompactedError, `expected CompactedError, got ${err}`);
          assert.equal(err.compacted, revs[20 - kept - 1]);
          const ok = collect(cacher, '/registry/leases/', revs[20 - kept - 1]!);
          await settle();
          assert.deepEqual(ok.events.map((e) => e.kv.key), revs.slice(20 - kept).map((_, i) => `/registry/leases/l${20 - kept + i}`));
          ok.watch.cancel();
        }
        // Either way the cache holds every lease.
        assert.equal((await cacher.range('/registry/leases/')).items.length, 20);
      } finally {
        await cacher.close();
      }
    }
  });

  test('every client watch of a resource is served from one store watch', async () => {
    const { raw, cacher } = await open();
    try {
      const watchersOf = () => (raw as unknown as { broadcaster: { size: number } }).broadcaster.size;
      const before = watchersOf();
      const rev = await raw.currentRevision();
      const watches = Array.from({ length: 50 }, (_, i) => collect(cacher, i % 2 ? '/registry/w/ns1/' : '/registry/w/', rev));
      assert.equal(watchersOf(), before, 'no store watch per client');
      await raw.create('/registry/w/ns1/x', 'X');
      await raw.create('/registry/w/ns2/y', 'Y');
      await settle();
      for (const [i, w] of watches.entries()) {
        assert.deepEqual(w.events.map((e) => e.kv.value), i % 2 ? ['X'] : ['X', 'Y']);
        w.watch.cancel();
      }
      // Every watcher got the same shared event.
      assert.equal(watches[0]!.events[0], watches[2]!.events[0]);
    } finally {
      await cacher.close();
    }
  });

  test('a watcher that falls behind is closed with WatcherEvictedError; the others keep going', async () => {
    const { raw, cacher } = await open({ watcherCapacity: 5 });
    try {
      const rev = await raw.currentRevision();
      const slow = collect(cacher, '/registry/w/', rev);
      await settle();
      // Ten events in one commit reach the watcher before it can take any: more than it may hold.
      await Promise.all(Array.from({ length: 10 }, (_, i) => raw.create(`/registry/w/k${i}`, String(i))));
      await settle();
      assert.ok(slow.error() instanceof WatcherEvictedError, `expected WatcherEvictedError, got ${slow.error()}`);
      assert.deepEqual(slow.events, []);
      // A watch started after the burst replays it whole: history does not count against the buffer.
      const later = collect(cacher, '/registry/w/', rev);
      await settle();
      assert.equal(later.events.length, 10);
      assert.equal(later.error(), undefined);
      later.watch.cancel();
    } finally {
      await cacher.close();
    }
  });

  test('without a progress source, a consistent read waits for the revision, then reads the store', async () => {
    const raw = await openSqliteStore({ path: join(dir, `c-${++n}.db`), compactIntervalMs: 0 });
    const cacher = await openCacher(raw, { resourceOf: firstSegment, freshWaitMs: 50 });
    try {
      await raw.create('/registry/w/a', 'A');
      assert.deepEqual((await cacher.range('/registry/w/')).items.map((kv) => kv.value), ['A']);
      // A write outside everything the cache watches moves the revision without an event for it:
      // the read cannot know the cache is fresh, waits, and answers from the store.
      await raw.create('/elsewhere', 'x');
      const t0 = Date.now();
      const res = await cacher.range('/registry/w/');
      assert.ok(Date.now() - t0 >= 45);
      assert.deepEqual(res.items.map((kv) => kv.value), ['A']);
      assert.ok(!Object.isFrozen(res.items[0]), 'served by the store');
    } finally {
      await cacher.close();
    }
  });

  test('a store watch that fails closes the cached watchers and the cache starts over', async () => {
    const { raw, cacher } = await open();
    try {
      await raw.create('/registry/w/a', 'A');
      const rev = await raw.currentRevision();
      const w = collect(cacher, '/registry/w/', rev);
      await settle();
      // As when the store compacted past the cache's watch.
      (cacher as unknown as { onWatchError(e: Error): void }).onWatchError(new CompactedError(rev, rev + 1));
      await settle();
      assert.ok(w.error() instanceof WatcherEvictedError);
      assert.equal(cacher.cachedResources, 0);
      await raw.create('/registry/w/b', 'B');
      assert.deepEqual((await cacher.range('/registry/w/')).items.map((kv) => kv.value), ['A', 'B']);
    } finally {
      await cacher.close();
    }
  });
});
