import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../apimachinery/index.ts';
import { openTempStore, widget, widgetStore, type TempStore } from './testing.ts';
import type { GenericStore } from './generic-store.ts';
import type { Obj, WatchEvent, WatchOptions } from './rest.ts';

const nameOf = (o: Obj) => (o.metadata as { name?: string }).name;
const rvOf = (o: Obj) => (o.metadata as { resourceVersion?: string }).resourceVersion;

/** Collects events; `until(n)` waits for n events (or fails after a timeout). */
function collector() {
  const events: WatchEvent[] = [];
  let ended: { err?: Error } | undefined;
  const waiters: (() => void)[] = [];
  const notify = () => waiters.splice(0).forEach((w) => w());
  return {
    events,
    get ended() {
      return ended;
    },
    onEvent: (ev: WatchEvent) => {
      events.push(ev);
      notify();
    },
    onEnd: (err?: Error) => {
      ended = { err };
      notify();
    },
    async until(pred: () => boolean, ms = 2000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!pred()) {
        if (Date.now() > deadline) assert.fail(`timed out; events: ${JSON.stringify(events.map((e) => [e.type, nameOf(e.object)]))}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 20);
        });
      }
    },
  };
}

const summary = (evs: WatchEvent[]) => evs.map((e) => `${e.type} ${nameOf(e.object) ?? ''}`.trim());

describe('watch', () => {
  let t: TempStore;
  let s: GenericStore;
  before(async () => {
    t = await openTempStore();
    s = widgetStore(t.store, { bookmarkIntervalMs: 50 });
  });
  after(() => t.close());

  async function watch(ns: string | undefined, opts: WatchOptions) {
    const c = collector();
    const w = await s.watch(ns, opts, c.onEvent, c.onEnd);
    return { c, w };
  }

  test('from a resourceVersion: ADDED/MODIFIED/DELETED in revision order', async () => {
    const start = String(await t.store.currentRevision());
    const { c, w } = await watch('w1', { resourceVersion: start });
    await s.create('w1', widget('a'), {});
    await s.update('w1', 'a', (cur) => ({ ...cur!, spec: { color: 'red' } }), {});
    await s.delete('w1', 'a', {});
    await c.until(() => c.events.length >= 3);
    assert.deepEqual(summary(c.events), ['ADDED a', 'MODIFIED a', 'DELETED a']);
    const rvs = c.events.map((e) => Number(rvOf(e.object)));
    assert.ok(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!);
    assert.equal(rvs[2], await t.store.currentRevision());
    w.stop();
  });

  test('metadataOnly: changes carry apiVersion, kind and the metadata (with its resourceVersion); a selector gets whole objects', async () => {
    const start = String(await t.store.currentRevision());
    const meta = await watch('wm', { resourceVersion: start, metadataOnly: true });
    const selected = await watch('wm', { resourceVersion: start, metadataOnly: true, labelSelector: 'app=x' });
    const created = (await s.create('wm', widget('a', { labels: { app: 'x' } }), {})).object;
    await s.update('wm', 'a', (cur) => ({ ...cur!, spec: { color: 'red' } }), {});
    await s.delete('wm', 'a', {});
    await meta.c.until(() => meta.c.events.length >= 3);
    await selected.c.until(() => selected.c.events.length >= 3);
    assert.deepEqual(summary(meta.c.events), ['ADDED a', 'MODIFIED a', 'DELETED a']);
    const first = meta.c.events[0]!.object;
    assert.deepEqual(Object.keys(first), ['apiVersion', 'kind', 'metadata']);
    assert.equal(first.apiVersion, 'example.com/v1');
    assert.equal(first.kind, 'Widget');
    const m = created.metadata as Record<string, unknown>;
    assert.deepEqual(first.metadata, { ...m });
    assert.equal(rvOf(meta.c.events[2]!.object), String(await t.store.currentRevision()));
    // A selector may match on more than metadata: the whole object, decoded as without the option.
    assert.deepEqual(selected.c.events[0]!.object.spec, { color: 'blue', replicas: 1 });
    meta.w.stop();
    selected.w.stop();
  });

  test('resourceVersion unset: ADDED for the current state, then changes', async () => {
    await s.create('w2', widget('x'), {});
    await s.create('w2', widget('y'), {});
    const { c, w } = await watch('w2', {});
    await c.until(() => c.events.length >= 2);
    await s.create('w2', widget('z'), {});
    await c.until(() => c.events.length >= 3);
    assert.deepEqual(summary(c.events), ['ADDED x', 'ADDED y', 'ADDED z']);
    w.stop();
  });

  test('sendInitialEvents: initial ADDED, then the initial-events-end bookmark', async () => {
    await s.create('w3', widget('p'), {});
    const rev = await t.store.currentRevision();
    const { c, w } = await watch('w3', { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    await c.until(() => c.events.some((e) => e.type === 'BOOKMARK'));
    assert.equal(c.events[0]!.type, 'ADDED');
    assert.equal(nameOf(c.events[0]!.object), 'p');
    const bm = c.events[1]!;
    assert.equal(bm.type, 'BOOKMARK');
    assert.deepEqual(bm.object, {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { annotations: { 'k8s.io/initial-events-end': 'true' }, resourceVersion: String(rev) },
    });
    w.stop();
  });

  test('sendInitialEvents requires resourceVersionMatch=NotOlderThan', async () => {
    await assert.rejects(
      s.watch('w3', { sendInitialEvents: true }, () => {}),
      (e: unknown) =>
        e instanceof StatusError &&
        e.code === 422 &&
        e.message ===
          'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
    await assert.rejects(
      s.watch('w3', { resourceVersionMatch: 'NotOlderThan' }, () => {}),
      (e: unknown) =>
        e instanceof StatusError &&
        e.message ===
          'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
  });

  test('selectors: an object that stops matching is DELETED, one that starts matching is ADDED', async () => {
    const start = String(await t.store.currentRevision());
    const { c, w } = await watch('w4', { resourceVersion: start, labelSelector: 'app=web' });
    await s.create('w4', widget('m', { labels: { app: 'web' } }), {});
    await s.create('w4', widget('n', { labels: { app: 'db' } }), {});
    await s.update('w4', 'm', (cur) => ({ ...cur!, metadata: { ...(cur!.metadata as object), labels: { app: 'db' } } }), {});
    await s.update('w4', 'n', (cur) => ({ ...cur!, metadata: { ...(cur!.metadata as object), labels: { app: 'web' } } }), {});
    await c.until(() => c.events.length >= 3);
    assert.deepEqual(summary(c.events), ['ADDED m', 'DELETED m', 'ADDED n']);
    // DELETED carries the previous (matching) content at the revision of the change.
    const del = c.events[1]!.object;
    assert.deepEqual((del.metadata as { labels: unknown }).labels, { app: 'web' });
    assert.equal(rvOf(del), rvOf((await s.list('w4', { fieldSelector: 'metadata.name=m' })).items[0]!));
    w.stop();
  });

  test('field selectors filter watch events', async () => {
    const start = String(await t.store.currentRevision());
    const { c, w } = await watch(undefined, { resourceVersion: start, fieldSelector: 'metadata.name=only' });
    await s.create('w5', widget('skip'), {});
    await s.create('w5', widget('only'), {});
    await c.until(() => c.events.length >= 1);
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(summary(c.events), ['ADDED only']);
    w.stop();
  });

  test('too old resourceVersion: 410 Expired as an ERROR event, then the end', async () => {
    const old = await t.store.currentRevision();
    await s.create('w6', widget('a'), {});
    await s.create('w6', widget('b'), {});
    const compacted = await t.store.currentRevision();
    await t.store.compact(compacted);
    const { c } = await watch('w6', { resourceVersion: String(old - 1) });
    await c.until(() => c.ended !== undefined);
    assert.equal(c.events.length, 1);
    assert.equal(c.events[0]!.type, 'ERROR');
    assert.deepEqual(c.events[0]!.object, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `too old resource version: ${old - 1} (${await t.store.compactedRevision()})`,
      reason: 'Expired',
      code: 410,
    });
  });

  test('periodic bookmarks carry the latest revision; timeoutSeconds ends the watch', async () => {
    const start = String(await t.store.currentRevision());
    const { c } = await watch('w7', { resourceVersion: start, allowWatchBookmarks: true, timeoutSeconds: 0.3 });
    await s.create('w7', widget('b1'), {});
    await c.until(() => c.events.filter((e) => e.type === 'BOOKMARK').length >= 2);
    const bookmarks = c.events.filter((e) => e.type === 'BOOKMARK');
    const last = bookmarks[bookmarks.length - 1]!;
    assert.equal(rvOf(last.object), rvOf(c.events.find((e) => e.type === 'ADDED')!.object));
    await c.until(() => c.ended !== undefined);
    assert.equal(c.ended!.err, undefined);
  });

  test('bad resourceVersion is 400; no bookmarks without allowWatchBookmarks', async () => {
    await assert.rejects(s.watch('w8', { resourceVersion: 'x1' }, () => {}), (e: unknown) => e instanceof StatusError && e.code === 400);
    const { c, w } = await watch('w8', { resourceVersion: String(await t.store.currentRevision()) });
    await new Promise((r) => setTimeout(r, 150));
    assert.deepEqual(c.events, []);
    w.stop();
  });

  test('one write reaches 100 watchers', async () => {
    const start = String(await t.store.currentRevision());
    const cs = await Promise.all(Array.from({ length: 100 }, () => watch('w9', { resourceVersion: start })));
    await s.create('w9', widget('fan'), {});
    await Promise.all(cs.map(({ c }) => c.until(() => c.events.length >= 1)));
    for (const { c, w } of cs) {
      assert.deepEqual(summary(c.events), ['ADDED fan']);
      w.stop();
    }
  });
});

test('a bookmark arrives 2 s before the timeoutSeconds deadline', async () => {
  const t = await openTempStore();
  try {
    const s = widgetStore(t.store, { bookmarkIntervalMs: 60_000 });
    const events: WatchEvent[] = [];
    let ended = false;
    const started = Date.now();
    await s.watch('x', { resourceVersion: String(await t.store.currentRevision()), allowWatchBookmarks: true, timeoutSeconds: 2.3 }, (ev) => events.push(ev), () => (ended = true));
    while (!ended && Date.now() - started < 4000) await new Promise((r) => setTimeout(r, 20));
    assert.ok(ended);
    assert.deepEqual(events.map((e) => e.type), ['BOOKMARK']);
  } finally {
    await t.close();
  }
});
