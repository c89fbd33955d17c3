/**
 * The registry over the watch cache (a real SQLite store behind it): continue tokens that move
 * between the cache and the store, the watch window's 410 as a client sees it, and the decoded
 * objects the cache shares (read-only views, their JSON text reused).
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCacher, openSqliteStore, type CacherOptions, type Store } from '../storage/index.ts';
import { widget, widgetStore } from './testing.ts';
import { sharedItemJSON } from './shared-objects.ts';
import type { Codec } from './codec.ts';
import type { Obj, ObjList, WatchEvent } from './rest.ts';

const names = (items: Obj[]) => items.map((o) => (o.metadata as { name: string }).name);
/** Whether a list's first item came from the cache (before anything decodes it: its text is the stored one). */
const fromCache = (list: ObjList) => sharedItemJSON(list)(list.items[0], 0) !== undefined;

async function withStores(opts: CacherOptions, fn: (raw: Store, cached: Store) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'registry-cache-'));
  const raw = await openSqliteStore({ path: join(dir, 'db.sqlite'), compactIntervalMs: 0 });
  const cached = await openCacher(raw, { progress: () => raw.currentRevision(), ...opts });
  try {
    await fn(raw, cached);
  } finally {
    await cached.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('registry over the watch cache', () => {
  test('continue tokens: the same pages and tokens as the store, from the cache inside the window and from the store past it', async () => {
    // A window of four events: enough for the first continuation, not for the second.
    await withStores({ ring: { initialCapacity: 4, maxCapacity: 4, freshMs: 0 } }, async (raw, cached) => {
      const s = widgetStore(cached);
      const direct = widgetStore(raw);
      for (let i = 0; i < 9; i++) await s.create('a', widget(`w${i}`, { labels: { odd: String(i % 2 === 1) } }), {});
      const p1 = await s.list('a', { limit: 3 });
      const d1 = await direct.list('a', { limit: 3 });
      assert.deepEqual(names(p1.items), ['w0', 'w1', 'w2']);
      assert.equal(p1.metadata.continue, d1.metadata.continue);
      assert.equal(p1.metadata.remainingItemCount, 6);
      // Changed after the first page: the following pages still show the first page's snapshot.
      await s.delete('a', 'w4', {});
      await s.create('a', widget('w35'), {});
      const p2 = await s.list('a', { limit: 3, continue: p1.metadata.continue });
      assert.ok(fromCache(p2), 'served from the cache');
      assert.deepEqual(names(p2.items), ['w3', 'w4', 'w5']);
      assert.equal(p2.metadata.resourceVersion, p1.metadata.resourceVersion);
      assert.deepEqual(p2, await direct.list('a', { limit: 3, continue: p1.metadata.continue }));
      // Four more changes push the snapshot out of the window: the store serves the rest, the same.
      for (let i = 0; i < 4; i++) await s.create('b', widget(`x${i}`), {});
      const p3 = await s.list('a', { limit: 3, continue: p2.metadata.continue });
      assert.ok(!fromCache(p3), 'served by the store');
      assert.deepEqual(names(p3.items), ['w6', 'w7', 'w8']);
      assert.equal(p3.metadata.continue, undefined);
      // With a selector, pages fill up across fetches the same way.
      const odd = await s.list('a', { limit: 2, labelSelector: 'odd=true' });
      assert.deepEqual(names(odd.items), ['w1', 'w3']);
      assert.deepEqual(odd, await direct.list('a', { limit: 2, labelSelector: 'odd=true' }));
    });
  });

  test('resourceVersion=N with Exact inside the window is the state at N; NotOlderThan the latest', async () => {
    await withStores({}, async (_raw, cached) => {
      const s = widgetStore(cached);
      const a = await s.create('a', widget('a'), {});
      const rv = (a.object.metadata as { resourceVersion: string }).resourceVersion;
      await s.create('a', widget('b'), {});
      const exact = await s.list('a', { resourceVersion: rv, resourceVersionMatch: 'Exact' });
      assert.deepEqual(names(exact.items), ['a']);
      assert.equal(exact.metadata.resourceVersion, rv);
      const newer = await s.list('a', { resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' });
      assert.deepEqual(names(newer.items), ['a', 'b']);
    });
  });

  test('a watch from before the window gets the 410 ERROR event with the watch cache’s text', async () => {
    await withStores({ ring: { initialCapacity: 2, maxCapacity: 2, freshMs: 0 } }, async (_raw, cached) => {
      const s = widgetStore(cached);
      const first = await s.create('a', widget('a'), {});
      const rv = Number((first.object.metadata as { resourceVersion: string }).resourceVersion);
      let last = rv;
      for (let i = 0; i < 4; i++) last = Number(((await s.create('a', widget(`n${i}`), {})).object.metadata as { resourceVersion: string }).resourceVersion);
      const events: WatchEvent[] = [];
      const ended = new Promise<Error | undefined>((resolve) => {
        void s.watch('a', { resourceVersion: String(rv) }, (ev) => events.push(ev), resolve);
      });
      await ended;
      assert.equal(events.length, 1);
      assert.equal(events[0]!.type, 'ERROR');
      const status = events[0]!.object as unknown as { code: number; reason: string; message: string };
      assert.equal(status.code, 410);
      assert.equal(status.reason, 'Expired');
      assert.equal(status.message, `too old resource version: ${rv} (${last - 2})`);
    });
  });

  test('a listed object is decoded only when used; until then a list response takes its stored text with the metadata re-encoded in Go order', async () => {
    await withStores({}, async (raw, cached) => {
      const s = widgetStore(cached);
      await s.create('a', widget('a', { labels: { x: 'y' } }), {});
      await s.create('a', widget('b'), {});
      // What the store itself serves, decoded by the registry and serialized.
      const want = (await widgetStore(raw).list('a', {})).items.map((o) => JSON.stringify(o));
      const l1 = await s.list('a', {});
      const l2 = await s.list('a', {});
      const text1 = sharedItemJSON(l1);
      assert.deepEqual([text1(l1.items[0], 0), text1(l1.items[1], 1)], want);
      // The handlers' request-version step (a same-value apiVersion) keeps the text.
      const [one, two] = [l1.items[0]!, l2.items[0]!];
      assert.equal(one.kind, 'Widget');
      one.apiVersion = 'example.com/v1';
      assert.equal(text1(one, 0), want[0]);
      // Used, it is decoded: the same object, the caller's own; the response serializes it.
      assert.deepEqual(one.metadata, JSON.parse(want[0]!).metadata);
      assert.equal(JSON.stringify(one), want[0]);
      assert.equal(text1(one, 0), undefined);
      (one.spec as Record<string, unknown>).color = 'red';
      one.apiVersion = 'example.com/v2';
      assert.equal(sharedItemJSON(l2)(two, 0), want[0], 'another list is untouched');
      assert.equal((two.spec as Record<string, unknown>).color, 'blue');
      assert.equal(text1('not the item', 1), undefined, 'an item replaced in the list has no text');
      // A list served by the store has nothing shared.
      const direct = await widgetStore(raw).list('a', {});
      assert.equal(sharedItemJSON(direct)(direct.items[0], 0), undefined);
    });
  });

  test('an object whose read decoding changes it is decoded once and shared as a read-only view, with its text', async () => {
    await withStores({}, async (raw, cached) => {
      await widgetStore(cached).create('a', widget('a'), {});
      // Defaults added on read (a schema default added later appears on read).
      const codec = { decodeStored: (o: Obj) => void ((o.spec as Record<string, unknown>).size ??= 'M') } as unknown as Codec;
      const s = widgetStore(cached, { codec });
      const want = JSON.stringify((await widgetStore(raw, { codec }).list('a', {})).items[0]);
      assert.match(want, /"size":"M"/);
      const [l1, l2] = [await s.list('a', {}), await s.list('a', {})];
      assert.equal(sharedItemJSON(l1)(l1.items[0], 0), want);
      const [one, two] = [l1.items[0]!, l2.items[0]!];
      assert.notEqual(one, two);
      assert.equal(one.spec, two.spec, 'decoded once');
      assert.throws(() => {
        (one.spec as Record<string, unknown>).color = 'red';
      }, TypeError);
      // A view's own top level and metadata may change; then its text is its own again.
      (one.metadata as Record<string, unknown>).resourceVersion = '1';
      assert.equal(sharedItemJSON(l1)(one, 0), undefined);
      assert.equal(sharedItemJSON(l2)(two, 0), want);
    });
  });
});
