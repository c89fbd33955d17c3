/**
 * The watch fan-out on its own, over an in-memory event log: replay then live with no gap or
 * duplicate, asynchronous delivery, failure of a throwing consumer, compaction, close.
 */

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Broadcaster, WatchClosedError, type EventLog } from './broadcaster.ts';
import { CompactedError, type WatchEvent } from './store.ts';
import { hasPrefix, prefixEnd } from './prefix.ts';

/** A log that stores published events, standing in for a backend. */
class MemoryLog implements EventLog {
  events: WatchEvent[] = [];
  compacted = 0;
  rev = 1;
  currentRevision(): number {
    return this.rev;
  }
  compactedRevision(): number {
    return this.compacted;
  }
  history(prefix: string, after: number): WatchEvent[] {
    return this.events.filter((e) => e.kv.modRevision > after && hasPrefix(e.kv.key, prefix));
  }
  /** Commit one write and return its event (the caller publishes). */
  write(key: string): WatchEvent {
    const rev = ++this.rev;
    const ev: WatchEvent = { type: 'PUT', kv: { key, value: String(rev), createRevision: rev, modRevision: rev } };
    this.events.push(ev);
    return ev;
  }
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('Broadcaster', () => {
  test('replays history from the log, then live events, without gap or duplicate', async () => {
    const log = new MemoryLog();
    const b = new Broadcaster(log);
    log.write('/a/1');
    log.write('/a/2');
    const got: number[] = [];
    b.watch('/a/', { afterRevision: 2, onEvent: (e) => got.push(e.kv.modRevision) });
    b.publish([log.write('/a/4')]);
    b.publish([log.write('/b/5'), log.write('/a/6')]);
    await tick();
    assert.deepEqual(got, [3, 4, 6]);
  });

  test('events are delivered asynchronously, never from inside watch() or publish()', async () => {
    const log = new MemoryLog();
    log.write('/a/1');
    const b = new Broadcaster(log);
    const got: number[] = [];
    b.watch('/a/', { afterRevision: 0, onEvent: (e) => got.push(e.kv.modRevision) });
    assert.deepEqual(got, []);
    b.publish([log.write('/a/x')]);
    assert.deepEqual(got, []);
    await tick();
    assert.deepEqual(got, [2, 3]);
  });

  test('an event published twice (or already replayed) is delivered once', async () => {
    const log = new MemoryLog();
    const b = new Broadcaster(log);
    const got: number[] = [];
    b.watch('/', { afterRevision: 1, onEvent: (e) => got.push(e.kv.modRevision) });
    const ev = log.write('/x');
    b.publish([ev]);
    b.publish([ev]);
    await tick();
    assert.deepEqual(got, [2]);
  });

  test('a consumer that throws is failed with its error and detached; others continue', async () => {
    const log = new MemoryLog();
    const b = new Broadcaster(log);
    const errors: Error[] = [];
    const good: number[] = [];
    b.watch('/', { afterRevision: 1, onEvent: () => { throw new Error('boom'); }, onError: (e) => errors.push(e) });
    b.watch('/', { afterRevision: 1, onEvent: (e) => good.push(e.kv.modRevision) });
    b.publish([log.write('/x')]);
    await tick();
    b.publish([log.write('/y')]);
    await tick();
    assert.deepEqual(errors.map((e) => e.message), ['boom']);
    assert.deepEqual(good, [2, 3]);
    assert.equal(b.size, 1);
  });

  test('a watch before the compacted revision fails: thrown without onError, reported with it', async () => {
    const log = new MemoryLog();
    const b = new Broadcaster(log);
    for (let i = 0; i < 5; i++) log.write(`/k${i}`);
    log.compacted = 4;
    assert.throws(() => b.watch('/', { afterRevision: 3, onEvent: () => {} }), CompactedError);
    const errors: Error[] = [];
    b.watch('/', { afterRevision: 3, onEvent: () => {}, onError: (e) => errors.push(e) });
    await tick();
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof CompactedError);
    assert.equal(b.size, 0);
    const got: number[] = [];
    b.watch('/', { afterRevision: 4, onEvent: (e) => got.push(e.kv.modRevision) });
    await tick();
    assert.deepEqual(got, [5, 6]);
  });

  test('close fails live watchers once and refuses new ones', async () => {
    const log = new MemoryLog();
    const b = new Broadcaster(log);
    const errors: Error[] = [];
    b.watch('/', { afterRevision: 1, onEvent: () => {}, onError: (e) => errors.push(e) });
    b.close();
    b.close();
    await tick();
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof WatchClosedError);
    assert.throws(() => b.watch('/', { afterRevision: 1, onEvent: () => {} }), WatchClosedError);
  });
});

describe('prefixEnd', () => {
  const cases: [string, string | undefined][] = [
    ['/registry/a/', '/registry/a0'],
    ['a', 'b'],
    ['a\uffff', 'b'],
    ['\uffff\uffff', undefined],
    ['', undefined],
  ];
  for (const [prefix, want] of cases) {
    test(JSON.stringify(prefix), () => assert.equal(prefixEnd(prefix), want));
  }
});
