/**
 * The SQLite store against real database files in a temporary directory: the Store contract suite,
 * then what only this backend promises (reopening keeps data and revision, group commit, the
 * compactor's retention, index use of the range query).
 */

import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreContract } from '../contract.ts';
import { openSqliteStore } from './store.ts';
import { SqliteDriver, translateError } from './driver.ts';
import { compactionTarget, Compactor } from './compactor.ts';
import { CompactedError, ConflictError, type WatchEvent } from '../store.ts';

const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(dir, `store-${++n}.db`);

runStoreContract('sqlite', async () => {
  const store = await openSqliteStore({ path: freshPath(), compactIntervalMs: 0 });
  return { store, cleanup: () => store.close() };
});

describe('sqlite store', () => {
  test('an empty store is at revision 1 and its first write is revision 2, as in etcd', async () => {
    const s = await openSqliteStore({ path: freshPath(), compactIntervalMs: 0 });
    try {
      assert.equal(await s.currentRevision(), 1);
      assert.equal(await s.compactedRevision(), 0);
      assert.equal((await s.create('/registry/a/x', '1')).modRevision, 2);
    } finally {
      await s.close();
    }
  });

  test('reopening keeps data, revision and the compacted revision', async () => {
    const path = freshPath();
    const s1 = await openSqliteStore({ path, compactIntervalMs: 0 });
    const a = await s1.create('/registry/a/x', 'A');
    const b = await s1.create('/registry/a/y', 'B');
    const a2 = await s1.update('/registry/a/x', 'A2', a.modRevision);
    const bd = await s1.delete('/registry/a/y', b.modRevision);
    await s1.compact(a2.modRevision);
    await s1.close();

    const s2 = await openSqliteStore({ path, compactIntervalMs: 0 });
    try {
      assert.equal(await s2.currentRevision(), bd.modRevision);
      assert.equal(await s2.compactedRevision(), a2.modRevision);
      assert.deepEqual((await s2.range('/registry/a/')).items, [a2]);
      await assert.rejects(s2.get('/registry/a/x', a.modRevision), CompactedError);
      const c = await s2.create('/registry/a/z', 'C');
      assert.equal(c.modRevision, bd.modRevision + 1);
    } finally {
      await s2.close();
    }
  });

  test('revisions are never reused, even when compaction removed the newest rows', async () => {
    const path = freshPath();
    const s1 = await openSqliteStore({ path, compactIntervalMs: 0 });
    const a = await s1.create('/registry/a/x', 'A');
    const d = await s1.delete('/registry/a/x', a.modRevision);
    await s1.compact(d.modRevision); // removes every row of the log
    await s1.close();
    const s2 = await openSqliteStore({ path, compactIntervalMs: 0 });
    try {
      assert.equal(await s2.currentRevision(), d.modRevision);
      assert.equal((await s2.create('/registry/a/x', 'again')).modRevision, d.modRevision + 1);
    } finally {
      await s2.close();
    }
  });

  test('compaction deletes superseded rows and deletions, keeping the latest live version', async () => {
    const path = freshPath();
    const s = await openSqliteStore({ path, compactIntervalMs: 0 });
    let kv = await s.create('/registry/a/x', '0');
    for (let i = 1; i <= 10; i++) kv = await s.update('/registry/a/x', String(i), kv.modRevision);
    const y = await s.create('/registry/a/y', 'y');
    await s.delete('/registry/a/y', y.modRevision);
    const z = await s.create('/registry/a/z', 'z');
    await s.compact(await s.currentRevision());
    await s.close();
    const d = SqliteDriver.open(path);
    try {
      const rows = d.db.prepare('SELECT name, value FROM kine ORDER BY id').all();
      assert.deepEqual(rows, [
        { name: '/registry/a/x', value: '10' },
        { name: '/registry/a/z', value: z.value },
      ]);
    } finally {
      d.close();
    }
  });

  test('a second opener of a live store fails instead of writing behind its back', async () => {
    const path = freshPath();
    const s = await openSqliteStore({ path, compactIntervalMs: 0 });
    try {
      await s.create('/registry/a/x', '1');
      assert.throws(() => SqliteDriver.open(path, { busyTimeoutMs: 0 }), /locked|busy/i);
    } finally {
      await s.close();
    }
  });

  test('the unique (name, prev_revision) index turns a lost race into ConflictError', () => {
    const d = SqliteDriver.open(freshPath());
    try {
      const row = { name: '/registry/a/x', created: 0, deleted: 0, create_revision: 2, prev_revision: 2, value: 'v' };
      d.insert(row);
      // A second writer that read the same row (as a second process on the file would) loses.
      const err = (() => {
        try {
          d.insert({ ...row, value: 'other' });
        } catch (e) {
          return e;
        }
      })();
      assert.equal((err as { code?: string }).code, 'SQLITE_CONSTRAINT_UNIQUE');
      const translated = translateError(err, row.name, 'update');
      assert.ok(translated instanceof ConflictError);
      assert.equal(translated.reason, 'modified');
      const created = translateError(err, row.name, 'create');
      assert.equal((created as ConflictError).reason, 'exists');
      const other = new Error('disk I/O error');
      assert.equal(translateError(other, row.name, 'update'), other);
    } finally {
      d.close();
    }
  });

  test('writes issued together commit in one transaction; a failing one fails alone', async () => {
    const s = await openSqliteStore({ path: freshPath(), compactIntervalMs: 0 });
    try {
      const a = await s.create('/registry/a/x', '1');
      const before = await s.currentRevision();
      const results = await Promise.allSettled([
        s.create('/registry/a/p', 'p'),
        s.update('/registry/a/x', 'stale', a.modRevision - 1),
        s.create('/registry/a/x', 'dup'),
        s.update('/registry/a/x', '2', a.modRevision),
        s.create('/registry/a/q', 'q'),
      ]);
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
      const revs = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.modRevision] : []));
      assert.deepEqual(revs, [before + 1, before + 2, before + 3], 'revisions follow issue order without gaps');
    } finally {
      await s.close();
    }
  });

  test('a write SQLite itself refuses fails alone: its statement is undone, the batch commits without a gap', async () => {
    const path = freshPath();
    const s = await openSqliteStore({ path, compactIntervalMs: 0 });
    let revs: number[];
    try {
      const before = await s.currentRevision();
      const results = await Promise.allSettled([
        s.create('/registry/a/p', 'p'),
        // A value the table's NOT NULL refuses: the INSERT fails inside the batch's transaction.
        s.create('/registry/a/n', null as unknown as string),
        s.create('/registry/a/q', 'q'),
      ]);
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
      assert.match(String((results[1] as PromiseRejectedResult).reason), /NOT NULL/);
      revs = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.modRevision] : []));
      assert.deepEqual(revs, [before + 1, before + 2]);
      assert.equal(await s.get('/registry/a/n'), undefined);
    } finally {
      await s.close();
    }
    const again = await openSqliteStore({ path, compactIntervalMs: 0 });
    try {
      assert.equal((await again.get('/registry/a/q'))?.modRevision, revs[1], 'committed and durable');
      assert.equal(await again.currentRevision(), revs[1]);
    } finally {
      await again.close();
    }
  });

  test('writes queued before close are committed; writes after close are refused', async () => {
    const path = freshPath();
    const s = await openSqliteStore({ path, compactIntervalMs: 0 });
    const pending = Array.from({ length: 20 }, (_, i) => s.create(`/registry/a/k${i}`, `${i}`));
    await s.close();
    assert.equal((await Promise.all(pending)).length, 20);
    await assert.rejects(s.create('/registry/a/late', 'x'), /closed/);
    const s2 = await openSqliteStore({ path, compactIntervalMs: 0 });
    try {
      assert.equal((await s2.range('/registry/a/', { countOnly: true })).count, 20);
    } finally {
      await s2.close();
    }
  });

  test('closing the store ends live watches with an error', async () => {
    const s = await openSqliteStore({ path: freshPath(), compactIntervalMs: 0 });
    const errors: Error[] = [];
    s.watch('/registry/', { afterRevision: 1, onEvent: () => {}, onError: (e) => errors.push(e) });
    await s.close();
    await new Promise((r) => setImmediate(r));
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /closed/);
  });

  test('the range query walks the (name) index in key order: no table scan, no sort', async () => {
    const d = SqliteDriver.open(freshPath());
    try {
      for (const bounded of [true, false]) {
        const plan = d.explainList(bounded).join('\n');
        assert.match(plan, /SEARCH k USING INDEX \w+ \(name>\?/);
        assert.match(plan, /SEARCH m USING COVERING INDEX kine_name_id_index \(name=\? AND id<\?\)/);
        assert.doesNotMatch(plan, /SCAN|TEMP B-TREE/);
      }
    } finally {
      d.close();
    }
  });

  test('watch replay reads recent history by revision, a long span through the name index', () => {
    const d = SqliteDriver.open(freshPath());
    try {
      const recent = d.explainHistory(d.currentRevision()).join('\n');
      assert.match(recent, /SEARCH k USING INTEGER PRIMARY KEY \(rowid>\?\)/);
      assert.doesNotMatch(recent, /TEMP B-TREE/);
      const long = d.explainHistory(-1_000_000).join('\n');
      assert.match(long, /SEARCH k USING (COVERING )?INDEX \w+ \(name>\? AND name<\?\)/);
    } finally {
      d.close();
    }
  });

  test('listing 10,000 keys in pages of 500 is fast and complete', async () => {
    const s = await openSqliteStore({ path: freshPath(), compactIntervalMs: 0 });
    try {
      const total = 10_000;
      await Promise.all(Array.from({ length: total }, (_, i) => s.create(`/registry/g/r/ns/obj-${String(i).padStart(5, '0')}`, '{"spec":{}}')));
      const rev = await s.currentRevision();
      const started = performance.now();
      let startKey: string | undefined;
      let seen = 0;
      for (;;) {
        const page = await s.range('/registry/g/r/', { limit: 500, startKey, revision: rev });
        assert.equal(page.count, total - seen);
        seen += page.items.length;
        if (!page.more) break;
        startKey = page.items[page.items.length - 1]!.key + '\u0000';
      }
      const ms = performance.now() - started;
      assert.equal(seen, total);
      assert.ok(ms < 2000, `paging took ${ms.toFixed(0)} ms`);
    } finally {
      await s.close();
    }
  });
});

describe('compactor', () => {
  test('compactionTarget keeps one interval of history and the retention window', () => {
    // [previousTick, current, compacted, retention] -> target
    const cases: [number, number, number, number, number | undefined][] = [
      [0, 500, 0, 100, undefined], // first tick: nothing seen yet
      [400, 2000, 0, 100, 400], // the revision seen one interval ago
      [1950, 2000, 0, 100, 1900], // held back by the retention window
      [400, 2000, 400, 100, undefined], // already compacted there
      [400, 450, 0, 1000, undefined], // fewer revisions than the window
    ];
    for (const [prev, cur, compacted, retention, want] of cases) {
      assert.equal(compactionTarget(prev, cur, compacted, retention), want, `${prev},${cur},${compacted},${retention}`);
    }
  });

  test('the store runs its compactor on the configured interval', async () => {
    const s = await openSqliteStore({ path: freshPath(), compactIntervalMs: 20, retentionRevisions: 1 });
    try {
      let kv = await s.create('/registry/a/x', '0');
      for (let i = 1; i < 5; i++) kv = await s.update('/registry/a/x', String(i), kv.modRevision);
      const seen = await s.currentRevision();
      // The first tick records `seen`; a later one compacts to it (held back by one revision).
      const deadline = Date.now() + 3000;
      while ((await s.compactedRevision()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const compacted = await s.compactedRevision();
      assert.ok(compacted > 0 && compacted <= seen - 1, `compacted to ${compacted}, current ${seen}`);
      await assert.rejects(s.get('/registry/a/x', compacted - 1), CompactedError);
      assert.equal((await s.get('/registry/a/x'))?.value, '4');
    } finally {
      await s.close();
    }
  });

  test('periodic ticks compact to the previous tick, and watches before it get CompactedError', async () => {
    const s = await openSqliteStore({ path: freshPath(), compactIntervalMs: 0 });
    try {
      const c = new Compactor(s, { compactIntervalMs: 0, retentionRevisions: 2 });
      let kv = await s.create('/registry/a/x', '0');
      for (let i = 1; i < 5; i++) kv = await s.update('/registry/a/x', String(i), kv.modRevision);
      const firstTick = await s.currentRevision();
      await c.tick();
      assert.equal(await s.compactedRevision(), 0, 'the first tick only records the revision');
      for (let i = 5; i < 10; i++) kv = await s.update('/registry/a/x', String(i), kv.modRevision);
      await c.tick();
      assert.equal(await s.compactedRevision(), firstTick);
      assert.throws(
        () => s.watch('/registry/', { afterRevision: firstTick - 1, onEvent: () => {} }),
        CompactedError,
      );
      const events: WatchEvent[] = [];
      const w = s.watch('/registry/', { afterRevision: firstTick, onEvent: (e) => events.push(e) });
      await new Promise((r) => setImmediate(r));
      w.cancel();
      assert.equal(events.length, 5);
    } finally {
      await s.close();
    }
  });
});
