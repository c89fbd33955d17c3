import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../../storage/index.ts';
import { openTempStore } from '../testing.ts';
import { builtinKinds } from './definition.ts';
import { eventsV1Conversion } from './events.ts';

test('events.k8s.io/v1 <-> core/v1 Event conversion (pkg/apis/events/v1 conversion_test.go)', () => {
  // Test_convert_v1_Event_To_core_Event and Test_convert_core_Event_To_v1_Event, as JSON.
  const v1 = {
    metadata: { name: 'foo', namespace: 'default' },
    regarding: { kind: 'Pod', namespace: 'default', name: 'foo' },
    deprecatedSource: { component: 'controller-manager', host: 'master1' },
    note: 'convert v1 event to core event',
  };
  const core = {
    metadata: { name: 'foo', namespace: 'default' },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'foo' },
    source: { component: 'controller-manager', host: 'master1' },
    message: 'convert v1 event to core event',
  };
  assert.deepEqual(eventsV1Conversion.toStorage(structuredClone(v1)), core);
  assert.deepEqual(eventsV1Conversion.fromStorage(structuredClone(core)), v1);
  const all = { reportingController: 'c', deprecatedFirstTimestamp: 'a', deprecatedLastTimestamp: 'b', deprecatedCount: 2, eventTime: 't', series: { count: 1 }, action: 'x' };
  assert.deepEqual(eventsV1Conversion.toStorage(structuredClone(all)), { reportingComponent: 'c', firstTimestamp: 'a', lastTimestamp: 'b', count: 2, eventTime: 't', series: { count: 1 }, action: 'x', involvedObject: {} });
});

test('an events.k8s.io/v1 Event is written under /registry/events as core/v1, on the hour lease', async () => {
  const t = await openTempStore();
  const writes: { key: string; value: string; opts: unknown }[] = [];
  const recording = new Proxy(t.store, {
    get(target, p, recv) {
      const v = Reflect.get(target, p, recv);
      if (p !== 'create' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
      return (key: string, value: string, opts: unknown) => {
        writes.push({ key, value, opts });
        return v.call(target, key, value, opts);
      };
    },
  }) as Store;
  try {
    const kinds = builtinKinds({ store: recording }, new Set());
    const events = kinds.find((k) => k.group === 'events.k8s.io' && k.resource === 'events')!.store;
    const r = await events.create('default', { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e' }, eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'example.com/c', reportingInstance: 'c-1', action: 'Test', reason: 'Tested', type: 'Normal', note: 'n' }, {});
    assert.equal(r.object.apiVersion, 'events.k8s.io/v1');
    assert.equal(r.object.note, 'n');
    const w = writes.find((x) => x.key.endsWith('/events/default/e'))!;
    assert.equal(w.key, '/registry/events/default/e');
    assert.deepEqual(w.opts, { ttlSeconds: 3600 });
    const stored = JSON.parse(w.value);
    assert.deepEqual([stored.apiVersion, stored.kind, stored.message, stored.note], ['v1', 'Event', 'n', undefined]);
  } finally {
    await t.close();
  }
});

test('a watch of events.k8s.io/v1 sees core/v1 writes converted, and lists and deletes go through the one storage', async () => {
  const t = await openTempStore();
  try {
    const kinds = builtinKinds({ store: t.store }, new Set());
    const find = (g: string) => kinds.find((k) => k.group === g && k.resource === 'events')!.store;
    const core = find('');
    const events = find('events.k8s.io');
    const seen: { type: string; object: Record<string, unknown> }[] = [];
    const w = await events.watch('default', {}, (ev) => seen.push(ev));
    try {
      await core.create('default', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'c' }, involvedObject: { kind: 'Pod', name: 'p' }, message: 'm', count: 2 }, {});
      for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(seen[0]?.type, 'ADDED');
      const o = seen[0]!.object;
      assert.deepEqual([o.apiVersion, o.kind, o.note, o.deprecatedCount, o.regarding], ['events.k8s.io/v1', 'Event', 'm', 2, { kind: 'Pod', name: 'p' }]);
    } finally {
      w.stop();
    }
    const list = await events.list('default', {});
    assert.deepEqual([list.apiVersion, list.kind, list.items.map((i) => i.note)], ['events.k8s.io/v1', 'EventList', ['m']]);
    const deleted = await events.deleteCollection('default', {}, {});
    assert.equal(deleted.items[0]!.note, 'm');
    assert.equal((await core.list('default', {})).items.length, 0);
  } finally {
    await t.close();
  }
});
