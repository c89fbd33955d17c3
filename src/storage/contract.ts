/**
 * The Store contract suite: one set of tests for every clause of ./store.ts, run by each backend
 * (`runStoreContract('sqlite', open)`), so that the backends stay interchangeable. Each test opens a
 * fresh, empty store and cleans it up. The suite asserts only what the contract promises (not, for
 * example, the initial revision of an empty store, which differs between backends).
 */

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  type KeyValue,
  type Store,
  type WatchEvent,
} from './store.ts';

export interface OpenedStore {
  store: Store;
  cleanup(): Promise<void>;
}

/** Register the contract tests for one backend under `describe(name)`. */
export function runStoreContract(name: string, open: () => Promise<OpenedStore>): void {
  /** Run `fn` against a fresh store, always cleaning up. */
  function withStore(fn: (s: Store) => Promise<void>): () => Promise<void> {
    return async () => {
      const { store, cleanup } = await open();
      try {
        await fn(store);
      } finally {
        await cleanup();
      }
    };
  }

  describe(`Store contract: ${name}`, () => {
    describe('revisions and writes', () => {
      test('every write increases the global revision by one', withStore(async (s) => {
        const r0 = await s.currentRevision();
        const a = await s.create('/registry/t/a', 'A1');
        assert.equal(a.modRevision, r0 + 1);
        assert.equal(a.createRevision, r0 + 1);
        const b = await s.create('/registry/t/b', 'B1');
        assert.equal(b.modRevision, r0 + 2);
        const a2 = await s.update('/registry/t/a', 'A2', a.modRevision);
        assert.equal(a2.modRevision, r0 + 3);
        const bd = await s.delete('/registry/t/b', b.modRevision);
        assert.equal(bd.modRevision, r0 + 4);
        assert.equal(await s.currentRevision(), r0 + 4);
      }));

      test('create returns the stored key-value and get reads it back', withStore(async (s) => {
        const kv = await s.create('/registry/t/a', '{"x":1}');
        assert.deepEqual(kv, { key: '/registry/t/a', value: '{"x":1}', createRevision: kv.modRevision, modRevision: kv.modRevision });
        assert.deepEqual(await s.get('/registry/t/a'), kv);
        assert.equal(await s.get('/registry/t/missing'), undefined);
      }));

      test('create of an existing key fails with ConflictError(exists) carrying the current value', withStore(async (s) => {
        const kv = await s.create('/registry/t/a', 'A1');
        const rev = await s.currentRevision();
        await assert.rejects(s.create('/registry/t/a', 'A2'), (err: unknown) => {
          assert.ok(err instanceof ConflictError);
          assert.equal(err.key, '/registry/t/a');
          assert.equal(err.reason, 'exists');
          assert.deepEqual(err.current, kv);
          return true;
        });
        assert.equal(await s.currentRevision(), rev, 'a failed write consumes no revision');
        assert.equal((await s.get('/registry/t/a'))?.value, 'A1');
      }));

      test('update keeps createRevision, sets a new modRevision, and checks the expected revision', withStore(async (s) => {
        const a1 = await s.create('/registry/t/a', 'A1');
        const a2 = await s.update('/registry/t/a', 'A2', a1.modRevision);
        assert.equal(a2.createRevision, a1.createRevision);
        assert.ok(a2.modRevision > a1.modRevision);
        assert.equal(a2.value, 'A2');
        assert.deepEqual(await s.get('/registry/t/a'), a2);
        await assert.rejects(s.update('/registry/t/a', 'A3', a1.modRevision), (err: unknown) => {
          assert.ok(err instanceof ConflictError);
          assert.equal(err.reason, 'modified');
          assert.deepEqual(err.current, a2);
          return true;
        });
        await assert.rejects(s.update('/registry/t/none', 'X', a1.modRevision), (err: unknown) => {
          assert.ok(err instanceof ConflictError);
          assert.equal(err.reason, 'not-found');
          assert.equal(err.key, '/registry/t/none');
          return true;
        });
        assert.equal((await s.get('/registry/t/a'))?.value, 'A2');
      }));

      test('delete checks the expected revision and returns the deleted value at the delete revision', withStore(async (s) => {
        const a1 = await s.create('/registry/t/a', 'A1');
        const a2 = await s.update('/registry/t/a', 'A2', a1.modRevision);
        await assert.rejects(s.delete('/registry/t/a', a1.modRevision), (err: unknown) => {
          assert.ok(err instanceof ConflictError);
          assert.equal(err.reason, 'modified');
          assert.deepEqual(err.current, a2);
          return true;
        });
        const d = await s.delete('/registry/t/a', a2.modRevision);
        assert.deepEqual(d, { key: '/registry/t/a', value: 'A2', createRevision: a1.createRevision, modRevision: a2.modRevision + 1 });
        assert.equal(await s.currentRevision(), d.modRevision);
        assert.equal(await s.get('/registry/t/a'), undefined);
        await assert.rejects(s.delete('/registry/t/a', d.modRevision), (err: unknown) => {
          assert.ok(err instanceof ConflictError);
          assert.equal(err.reason, 'not-found');
          return true;
        });
        await assert.rejects(s.update('/registry/t/a', 'A3', a2.modRevision), (err: unknown) => {
          assert.ok(err instanceof ConflictError);
          assert.equal(err.reason, 'not-found');
          return true;
        });
      }));

      test('a key created again after deletion gets a new createRevision', withStore(async (s) => {
        const a1 = await s.create('/registry/t/a', 'A1');
        await s.delete('/registry/t/a', a1.modRevision);
        const again = await s.create('/registry/t/a', 'B1');
        assert.ok(again.createRevision > a1.createRevision);
        assert.equal(again.createRevision, again.modRevision);
        assert.deepEqual(await s.get('/registry/t/a'), again);
      }));
    });

    describe('reads at a revision', () => {
      test('get and range at an old revision see the state as of that revision', withStore(async (s) => {
        const a1 = await s.create('/registry/t/a', 'A1');
        const b1 = await s.create('/registry/t/b', 'B1');
        const snapshot = await s.currentRevision();
        const a2 = await s.update('/registry/t/a', 'A2', a1.modRevision);
        await s.delete('/registry/t/b', b1.modRevision);
        await s.create('/registry/t/c', 'C1');

        assert.deepEqual(await s.get('/registry/t/a', snapshot), a1);
        assert.deepEqual(await s.get('/registry/t/b', snapshot), b1);
        assert.equal(await s.get('/registry/t/c', snapshot), undefined);
        assert.equal(await s.get('/registry/t/b'), undefined);

        const old = await s.range('/registry/t/', { revision: snapshot });
        assert.equal(old.revision, snapshot);
        assert.deepEqual(old.items, [a1, b1]);
        assert.equal(old.count, 2);
        assert.equal(old.more, false);

        const now = await s.range('/registry/t/');
        assert.equal(now.revision, await s.currentRevision());
        assert.deepEqual(now.items.map((kv) => kv.key), ['/registry/t/a', '/registry/t/c']);
        assert.deepEqual(now.items[0], a2);
      }));

      test('a read at a future revision fails with FutureRevisionError', withStore(async (s) => {
        await s.create('/registry/t/a', 'A1');
        const cur = await s.currentRevision();
        await assert.rejects(s.range('/registry/t/', { revision: cur + 1 }), (err: unknown) => {
          assert.ok(err instanceof FutureRevisionError);
          assert.equal(err.requested, cur + 1);
          assert.equal(err.current, cur);
          return true;
        });
        await assert.rejects(s.get('/registry/t/a', cur + 5), FutureRevisionError);
        assert.equal((await s.range('/registry/t/', { revision: cur })).items.length, 1);
      }));

      test('range returns keys in key order with limit, more, count and startKey', withStore(async (s) => {
        const names = ['e', 'a', 'd', 'b', 'c', 'f', 'g'];
        for (const n of names) await s.create(`/registry/t/${n}`, n);
        const all = await s.range('/registry/t/');
        assert.deepEqual(all.items.map((kv) => kv.value), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
        assert.equal(all.count, 7);
        assert.equal(all.more, false);

        const p1 = await s.range('/registry/t/', { limit: 3 });
        assert.deepEqual(p1.items.map((kv) => kv.value), ['a', 'b', 'c']);
        assert.equal(p1.more, true);
        assert.equal(p1.count, 7);

        const p2 = await s.range('/registry/t/', { limit: 3, startKey: '/registry/t/c\u0000', revision: p1.revision });
        assert.deepEqual(p2.items.map((kv) => kv.value), ['d', 'e', 'f']);
        assert.equal(p2.more, true);
        assert.equal(p2.count, 4, 'count covers the range from startKey');

        const p3 = await s.range('/registry/t/', { limit: 3, startKey: '/registry/t/f\u0000', revision: p1.revision });
        assert.deepEqual(p3.items.map((kv) => kv.value), ['g']);
        assert.equal(p3.more, false);
        assert.equal(p3.count, 1);

        const exact = await s.range('/registry/t/', { limit: 7 });
        assert.equal(exact.items.length, 7);
        assert.equal(exact.more, false, 'no more when the limit is exactly the number of keys');

        const fromKey = await s.range('/registry/t/', { startKey: '/registry/t/e' });
        assert.deepEqual(fromKey.items.map((kv) => kv.value), ['e', 'f', 'g'], 'startKey is inclusive');

        const counted = await s.range('/registry/t/', { countOnly: true });
        assert.deepEqual(counted.items, []);
        assert.equal(counted.count, 7);
      }));

      test('a startKey outside the prefix does not escape it', withStore(async (s) => {
        await s.create('/registry/t/a', 'a');
        await s.create('/registry/u/a', 'u');
        const r = await s.range('/registry/t/', { startKey: '/registry/' });
        assert.deepEqual(r.items.map((kv) => kv.value), ['a']);
        const past = await s.range('/registry/t/', { startKey: '/registry/u/' });
        assert.deepEqual(past.items, []);
        assert.equal(past.count, 0);
        assert.equal(past.more, false);
      }));

      test('pages read at one revision form a consistent snapshot despite writes in between', withStore(async (s) => {
        for (let i = 0; i < 10; i++) await s.create(`/registry/t/k${i}`, `v${i}`);
        const p1 = await s.range('/registry/t/', { limit: 4 });
        const last = p1.items[p1.items.length - 1]!;
        // Writes after the first page: delete one not yet listed, add one, change one.
        const k7 = (await s.get('/registry/t/k7'))!;
        await s.delete('/registry/t/k7', k7.modRevision);
        await s.create('/registry/t/k55', 'new');
        const k8 = (await s.get('/registry/t/k8'))!;
        await s.update('/registry/t/k8', 'changed', k8.modRevision);
        const p2 = await s.range('/registry/t/', { startKey: last.key + '\u0000', revision: p1.revision });
        assert.deepEqual(
          [...p1.items, ...p2.items].map((kv) => `${kv.key}=${kv.value}`),
          Array.from({ length: 10 }, (_, i) => `/registry/t/k${i}=v${i}`),
        );
      }));

      test('a prefix matches only keys under it (/registry/a/ is not /registry/ab/)', withStore(async (s) => {
        await s.create('/registry/a/x', 'a-x');
        await s.create('/registry/ab/x', 'ab-x');
        await s.create('/registry/a', 'bare');
        await s.create('/registry/a/y/z', 'a-y-z');
        const r = await s.range('/registry/a/');
        assert.deepEqual(r.items.map((kv) => kv.value), ['a-x', 'a-y-z']);
        assert.equal(r.count, 2);
        assert.equal((await s.range('/registry/ab/')).count, 1);
        assert.equal((await s.range('/registry/')).count, 4);
      }));
    });

    describe('watch', () => {
      test('delivers PUT and DELETE events in revision order with previous values', withStore(async (s) => {
        const start = await s.currentRevision();
        const got = collect(s, '/registry/t/', start);
        const a1 = await s.create('/registry/t/a', 'A1');
        const a2 = await s.update('/registry/t/a', 'A2', a1.modRevision);
        const d = await s.delete('/registry/t/a', a2.modRevision);
        const events = await got.until(3);
        got.watch.cancel();
        assert.deepEqual(events[0], { type: 'PUT', kv: a1 });
        assert.deepEqual(events[1], { type: 'PUT', kv: a2, prev: a1 });
        assert.equal(events[2]!.type, 'DELETE');
        assert.deepEqual(events[2]!.kv, d);
        assert.deepEqual(events[2]!.prev, a2);
      }));

      test('only keys under the prefix are delivered', withStore(async (s) => {
        const start = await s.currentRevision();
        const got = collect(s, '/registry/a/', start);
        await s.create('/registry/ab/x', 'no');
        await s.create('/registry/a', 'no');
        const yes = await s.create('/registry/a/x', 'yes');
        await s.create('/registry/b/x', 'no');
        const yes2 = await s.create('/registry/a/y', 'yes2');
        await got.until(2);
        await settle();
        got.watch.cancel();
        assert.deepEqual(got.events.map((e) => e.kv), [yes, yes2]);
      }));

      test('a watch from an old revision replays history, then goes live with no gap or duplicate', withStore(async (s) => {
        const a1 = await s.create('/registry/t/a', 'A1');
        const a2 = await s.update('/registry/t/a', 'A2', a1.modRevision);
        const b1 = await s.create('/registry/t/b', 'B1');
        const got = collect(s, '/registry/t/', a1.modRevision);
        const b2 = await s.update('/registry/t/b', 'B2', b1.modRevision);
        const c1 = await s.create('/registry/t/c', 'C1');
        await got.until(4);
        await settle();
        got.watch.cancel();
        assert.deepEqual(got.events.map((e) => e.kv), [a2, b1, b2, c1]);
        assert.deepEqual(got.events[0]!.prev, a1);
        assert.equal(got.events[1]!.prev, undefined);
      }));

      test('a watch from the current revision sees only later changes', withStore(async (s) => {
        await s.create('/registry/t/old', 'old');
        const got = collect(s, '/registry/t/', await s.currentRevision());
        const n = await s.create('/registry/t/new', 'new');
        await got.until(1);
        await settle();
        got.watch.cancel();
        assert.deepEqual(got.events.map((e) => e.kv), [n]);
      }));

      test('a watch from a future revision waits for it', withStore(async (s) => {
        const cur = await s.currentRevision();
        const got = collect(s, '/registry/t/', cur + 2);
        await s.create('/registry/t/1', '1');
        await s.create('/registry/t/2', '2');
        const third = await s.create('/registry/t/3', '3');
        await got.until(1);
        await settle();
        got.watch.cancel();
        assert.deepEqual(got.events.map((e) => e.kv), [third]);
      }));

      test('cancel stops delivery and is idempotent', withStore(async (s) => {
        const got = collect(s, '/registry/t/', await s.currentRevision());
        await s.create('/registry/t/a', 'A');
        await got.until(1);
        got.watch.cancel();
        got.watch.cancel();
        await s.create('/registry/t/b', 'B');
        await settle();
        assert.equal(got.events.length, 1);
        assert.equal(got.errors.length, 0);
      }));

      test('cancel right after watch() delivers nothing, not even replayed history', withStore(async (s) => {
        const a = await s.create('/registry/t/a', 'A');
        const got = collect(s, '/registry/t/', a.modRevision - 1);
        got.watch.cancel();
        await s.create('/registry/t/b', 'B');
        await settle();
        assert.equal(got.events.length, 0);
      }));

      test('many watchers each see every matching event once, in order', withStore(async (s) => {
        const start = await s.currentRevision();
        const watchers = [collect(s, '/registry/t/', start), collect(s, '/registry/', start), collect(s, '/registry/t/', start)];
        const writes = await Promise.all(Array.from({ length: 50 }, (_, i) => s.create(`/registry/t/k${i}`, `${i}`)));
        const expected = writes.map((w) => w.modRevision).sort((x, y) => x - y);
        for (const w of watchers) {
          await w.until(50);
          await settle();
          w.watch.cancel();
          assert.deepEqual(w.events.map((e) => e.kv.modRevision), expected);
        }
      }));

      test('watches started while writes are in flight see every later change exactly once', withStore(async (s) => {
        const base = await s.currentRevision();
        const watchers: { after: number; got: Collected }[] = [];
        let writes = 0;
        // Four writers create and update keys; between their writes, watches start from a revision
        // behind the current one (history, then live) or at it (live only).
        await Promise.all(
          Array.from({ length: 4 }, async (_, w) => {
            for (let i = 0; i < 25; i++) {
              const kv = await s.create(`/registry/t/w${w}-${i}`, 'v');
              await s.update(kv.key, 'v2', kv.modRevision);
              writes += 2;
              if (i % 5 === w % 5) {
                const cur = await s.currentRevision();
                const after = Math.max(base, cur - 3 * (w + 1));
                watchers.push({ after, got: collect(s, '/registry/t/', after) });
              }
            }
          }),
        );
        const last = await s.currentRevision();
        assert.equal(last - base, writes);
        assert.ok(watchers.length >= 16);
        for (const { after, got } of watchers) {
          await got.until(last - after);
          await settle();
          got.watch.cancel();
          assert.deepEqual(
            got.events.map((e) => e.kv.modRevision),
            Array.from({ length: last - after }, (_, i) => after + 1 + i),
            `watch from ${after}`,
          );
        }
      }));
    });

    describe('compaction', () => {
      test('reads before the compacted revision fail; the state at it and later stays readable', withStore(async (s) => {
        const a1 = await s.create('/registry/t/a', 'A1');
        const a2 = await s.update('/registry/t/a', 'A2', a1.modRevision);
        const b1 = await s.create('/registry/t/b', 'B1');
        const bd = await s.delete('/registry/t/b', b1.modRevision);
        const c1 = await s.create('/registry/t/c', 'C1');
        const at = await s.currentRevision();
        const a3 = await s.update('/registry/t/a', 'A3', a2.modRevision);

        await s.compact(at);
        assert.equal(await s.compactedRevision(), at);

        await assert.rejects(s.range('/registry/t/', { revision: at - 1 }), (err: unknown) => {
          assert.ok(err instanceof CompactedError);
          assert.equal(err.requested, at - 1);
          assert.equal(err.compacted, at);
          return true;
        });
        await assert.rejects(s.get('/registry/t/a', a1.modRevision), CompactedError);

        const atRev = await s.range('/registry/t/', { revision: at });
        assert.deepEqual(atRev.items, [a2, c1]);
        const now = await s.range('/registry/t/');
        assert.deepEqual(now.items, [a3, c1]);
        assert.equal(await s.get('/registry/t/b'), undefined);
        assert.ok(bd.modRevision < at);

        // Writes continue normally after compaction, deleted keys can come back.
        const b2 = await s.create('/registry/t/b', 'B2');
        assert.equal(b2.createRevision, b2.modRevision);
        const c2 = await s.update('/registry/t/c', 'C2', c1.modRevision);
        assert.equal(c2.createRevision, c1.createRevision);
      }));

      test('compacting an old or a future revision fails', withStore(async (s) => {
        await s.create('/registry/t/a', '1');
        await s.create('/registry/t/b', '2');
        const cur = await s.currentRevision();
        await assert.rejects(s.compact(cur + 1), FutureRevisionError);
        await s.compact(cur);
        await assert.rejects(s.compact(cur - 1), CompactedError);
      }));

      test('a watch from before the compacted revision fails with CompactedError; from it, it replays', withStore(async (s) => {
        const a1 = await s.create('/registry/t/a', 'A1');
        const a2 = await s.update('/registry/t/a', 'A2', a1.modRevision);
        const a3 = await s.update('/registry/t/a', 'A3', a2.modRevision);
        const b1 = await s.create('/registry/t/b', 'B1');
        await s.compact(a3.modRevision);

        const err = await watchError(s, '/registry/t/', a2.modRevision - 1);
        assert.ok(err instanceof CompactedError, `expected CompactedError, got ${err}`);

        const got = collect(s, '/registry/t/', a3.modRevision);
        const b2 = await s.update('/registry/t/b', 'B2', b1.modRevision);
        await got.until(2);
        await settle();
        got.watch.cancel();
        assert.deepEqual(got.events.map((e) => e.kv), [b1, b2]);
        assert.deepEqual(got.events[1]!.prev, b1);
      }));

      test('history after the compacted revision keeps its deletions and previous values', withStore(async (s) => {
        const a1 = await s.create('/registry/t/a', 'A1');
        const keep = await s.currentRevision();
        await s.create('/registry/t/x', 'X');
        const d = await s.delete('/registry/t/a', a1.modRevision);
        await s.compact(keep);
        const got = collect(s, '/registry/t/', keep);
        const events = await got.until(2);
        got.watch.cancel();
        assert.equal(events[1]!.type, 'DELETE');
        assert.deepEqual(events[1]!.kv, d);
        assert.deepEqual(events[1]!.prev, a1);
      }));
    });

    describe('concurrency', () => {
      test('parallel creates of distinct keys all succeed with distinct revisions, one per write', withStore(async (s) => {
        const before = await s.currentRevision();
        const n = 200;
        const kvs = await Promise.all(Array.from({ length: n }, (_, i) => s.create(`/registry/t/k${String(i).padStart(4, '0')}`, `${i}`)));
        const revs = kvs.map((kv) => kv.modRevision);
        assert.equal(new Set(revs).size, n);
        const after = await s.currentRevision();
        assert.equal(after - before, n);
        for (const r of revs) assert.ok(r > before && r <= after);
        const listed = await s.range('/registry/t/');
        assert.equal(listed.count, n);
        assert.deepEqual(listed.items, [...kvs].sort((x, y) => (x.key < y.key ? -1 : 1)));
      }));

      test('parallel updates of one key with the same expected revision: exactly one wins', withStore(async (s) => {
        const kv = await s.create('/registry/t/a', 'v0');
        const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => s.update('/registry/t/a', `v${i + 1}`, kv.modRevision)));
        const won = results.filter((r): r is PromiseFulfilledResult<KeyValue> => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        assert.equal(won.length, 1);
        assert.equal(lost.length, 19);
        for (const l of lost) {
          assert.ok(l.reason instanceof ConflictError);
          assert.equal(l.reason.reason, 'modified');
        }
        assert.deepEqual(await s.get('/registry/t/a'), won[0]!.value);
        assert.equal(await s.currentRevision(), kv.modRevision + 1);
      }));

      test('parallel creates of one key: exactly one wins', withStore(async (s) => {
        const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => s.create('/registry/t/a', `v${i}`)));
        const won = results.filter((r) => r.status === 'fulfilled');
        assert.equal(won.length, 1);
        for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as ConflictError).reason, 'exists');
      }));

      test('parallel deletes with the same expected revision: exactly one wins', withStore(async (s) => {
        const kv = await s.create('/registry/t/a', 'v0');
        const results = await Promise.allSettled(Array.from({ length: 10 }, () => s.delete('/registry/t/a', kv.modRevision)));
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
        for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof ConflictError);
        assert.equal(await s.get('/registry/t/a'), undefined);
      }));
    });
  });
}

/** Wait for pending deliveries: a few turns of the event loop. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

interface Collected {
  events: WatchEvent[];
  errors: Error[];
  watch: { cancel(): void };
  /** Resolves with the events once at least `n` have arrived (fails after 5 s). */
  until(n: number): Promise<WatchEvent[]>;
}

function collect(s: Store, prefix: string, afterRevision: number): Collected {
  const events: WatchEvent[] = [];
  const errors: Error[] = [];
  let wake = () => {};
  const watch = s.watch(prefix, {
    afterRevision,
    onEvent: (ev) => {
      events.push(ev);
      wake();
    },
    onError: (err) => {
      errors.push(err);
      wake();
    },
  });
  return {
    events,
    errors,
    watch,
    async until(n) {
      const deadline = Date.now() + 5000;
      while (events.length < n) {
        if (errors.length > 0) throw errors[0];
        if (Date.now() > deadline) throw new Error(`timed out with ${events.length} of ${n} events`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
      return events;
    },
  };
}

/** The error a watch fails with, whether thrown by watch() or passed to onError. */
async function watchError(s: Store, prefix: string, afterRevision: number): Promise<unknown> {
  try {
    let timer: NodeJS.Timeout | undefined;
    const result = await new Promise<unknown>((resolve) => {
      const w = s.watch(prefix, { afterRevision, onEvent: () => resolve(new Error('unexpected event')), onError: resolve });
      timer = setTimeout(() => {
        w.cancel();
        resolve(new Error('no error reported'));
      }, 2000);
    });
    clearTimeout(timer);
    return result;
  } catch (err) {
    return err;
  }
}
