import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../apimachinery/index.ts';
import { openTempStore, widget, widgetStore } from './testing.ts';
import type { Obj, WatchEvent } from './rest.ts';

/** A small deterministic PRNG so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

test('concurrent writes: a watch from the start replays to exactly what a paged list returns', async () => {
  const t = await openTempStore();
  try {
    const s = widgetStore(t.store);
    const events: WatchEvent[] = [];
    const w = await s.watch('c', { resourceVersion: String(await t.store.currentRevision()) }, (ev) => events.push(ev));
    const rand = rng(7);
    const names = Array.from({ length: 12 }, (_, i) => `o${i}`);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 40; i++) {
          const name = names[Math.floor(rand() * names.length)]!;
          const op = rand();
          try {
            if (op < 0.4) await s.create('c', widget(name, { labels: { n: String(i) } }), {});
            else if (op < 0.8) await s.update('c', name, (cur) => ({ ...cur!, spec: { color: 'c' + i } }), {});
            else {
              await s.delete('c', name, {});
            }
          } catch (e) {
            // collisions are expected: exists, missing
            if (!(e instanceof StatusError) || (e.code !== 409 && e.code !== 404)) throw e;
          }
        }
      }),
    );
    const final = await t.store.currentRevision();
    const deadline = Date.now() + 3000;
    const rvOf = (o: Obj) => Number((o.metadata as { resourceVersion: string }).resourceVersion);
    while ((events.length === 0 || rvOf(events[events.length - 1]!.object) < final) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    w.stop();
    // events are in strictly increasing revision order
    for (let i = 1; i < events.length; i++) assert.ok(rvOf(events[i]!.object) > rvOf(events[i - 1]!.object));
    const state = new Map<string, Obj>();
    for (const ev of events) {
      const name = (ev.object.metadata as { name: string }).name;
      if (ev.type === 'DELETED') {
        assert.ok(state.has(name), `DELETED for unknown ${name}`);
        state.delete(name);
      } else if (ev.type === 'ADDED') {
        assert.ok(!state.has(name), `ADDED for existing ${name}`);
        state.set(name, ev.object);
      } else {
        assert.ok(state.has(name), `MODIFIED for unknown ${name}`);
        state.set(name, ev.object);
      }
    }
    const listed: Obj[] = [];
    let cont: string | undefined;
    do {
      const page = await s.list('c', { limit: 3, continue: cont });
      listed.push(...page.items);
      cont = page.metadata.continue;
    } while (cont);
    assert.deepEqual(
      listed,
      [...state.keys()].sort().map((k) => state.get(k)),
    );
  } finally {
    await t.close();
  }
});
