import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Obj, RESTStore, WatchEvent } from '../../registry/index.ts';
import { ServedTable } from '../served.ts';
import { CRDServing } from './serving.ts';
import type { Store } from '../../storage/index.ts';

function crd(name: string, plural: string, established: boolean, extra: Obj = {}): Obj {
  return {
    metadata: { name },
    spec: {
      group: 'g.io',
      scope: 'Namespaced',
      names: { plural, singular: plural.slice(0, -1), kind: 'Thing', shortNames: ['th'] },
      versions: [
        { name: 'v1', served: true, storage: true, subresources: { status: {}, scale: { specReplicasPath: '.spec.n', statusReplicasPath: '.status.n' } } },
        { name: 'v1beta1', served: true, storage: false, deprecated: true },
        { name: 'v1alpha1', served: false, storage: false },
      ],
      ...extra,
    },
    status: { conditions: [{ type: 'Established', status: established ? 'True' : 'False' }] },
  };
}

/** A CRD store with a settable list and a watch that the test drives (only what CRDServing uses). */
function fakeCRDStore() {
  let items: Obj[] = [];
  let rv = 1;
  const watches: Array<{ onEvent: (e: WatchEvent) => void; onEnd?: (err?: Error) => void; stopped: boolean }> = [];
  const store = {
    async list() {
      return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinitionList', metadata: { resourceVersion: String(rv) }, items };
    },
    async watch(_ns: unknown, _opts: unknown, onEvent: (e: WatchEvent) => void, onEnd?: (err?: Error) => void) {
      const w = { onEvent, onEnd, stopped: false };
      watches.push(w);
      return { stop: () => void (w.stopped = true) };
    },
  } as unknown as RESTStore;
  return {
    store,
    set(list: Obj[]) {
      items = list;
      rv++;
    },
    live: () => watches.filter((w) => !w.stopped),
  };
}

// CRD serving builds the registry's definitions over this store; nothing here reads or writes it.
const deps = { store: {} as Store };

test('CRDServing follows established CRDs and resyncs when its watch ends', async () => {
  const fake = fakeCRDStore();
  const table = new ServedTable();
  fake.set([crd('things.g.io', 'things', true), crd('others.g.io', 'others', false)]);
  const serving = new CRDServing(table, fake.store, deps);
  await serving.start();
  assert.ok(table.get('g.io', 'v1', 'things'));
  assert.equal(table.get('g.io', 'v1', 'others'), undefined);

  // A CRD that stops being Established stops being served.
  fake.live()[0]!.onEvent({ type: 'MODIFIED', object: crd('things.g.io', 'things', false) });
  assert.equal(table.get('g.io', 'v1', 'things'), undefined);
  fake.live()[0]!.onEvent({ type: 'MODIFIED', object: crd('things.g.io', 'things', true) });
  assert.ok(table.get('g.io', 'v1', 'things'));

  // The CRD is deleted while no watch is open: the resync after the watch ends drops it.
  fake.set([]);
  fake.live()[0]!.onEnd?.();
  fake.live()[0]?.onEnd?.(); // a second end of the same watch starts nothing more
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(table.get('g.io', 'v1', 'things'), undefined);
  assert.equal(fake.live().length, 1);
  serving.stop();
  assert.equal(fake.live().length, 0);
});
