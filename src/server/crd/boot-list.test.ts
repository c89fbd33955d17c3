/**
 * fromBootList over a real CRD store (in-memory SQLite): a controller's first watch is the boot
 * list's CRDs (those it accepts) followed by every change after that list, a CRD created after the
 * list included; its later watches, and watches with options, go to the store itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRDStore, type Obj, type WatchEvent } from '../../registry/index.ts';
import { openSqliteStore } from '../../storage/index.ts';
import { fromBootList } from './serving.ts';

function crd(plural: string): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.boot.example.com` },
    spec: {
      group: 'boot.example.com',
      scope: 'Namespaced',
      names: { plural, kind: plural[0]!.toUpperCase() + plural.slice(1, -1) },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
    },
  };
}

async function collect(watch: (on: (e: WatchEvent) => void) => Promise<{ stop(): void }>, n: number): Promise<string[]> {
  const seen: string[] = [];
  let done!: () => void;
  const enough = new Promise<void>((r) => (done = r));
  const w = await watch((e) => {
    seen.push(`${e.type} ${String((e.object.metadata as { name?: string }).name)}`);
    if (seen.length >= n) done();
  });
  await Promise.race([enough, new Promise((r) => setTimeout(r, 2000))]);
  w.stop();
  return seen;
}

test('a first watch starts from the boot list, then follows storage; later watches list afresh', async () => {
  const store = await openSqliteStore({ path: ':memory:', compactIntervalMs: 0 });
  try {
    const crds = new CRDStore(store);
    await crds.create(undefined, crd('apples'), {});
    await crds.create(undefined, crd('pears'), {});
    const list = await crds.list(undefined, {});
    const boot = { items: list.items, resourceVersion: list.metadata.resourceVersion! };
    await crds.create(undefined, crd('plums'), {});

    const view = fromBootList(crds, boot, (c) => (c.metadata as { name: string }).name !== 'pears.boot.example.com');
    // The boot list's accepted CRDs, then the create that came after the list, from the watch.
    assert.deepEqual(await collect((on) => view.watch(undefined, {}, on), 2), ['ADDED apples.boot.example.com', 'ADDED plums.boot.example.com']);
    // Its next watch is the store's: every CRD as it is now.
    assert.deepEqual((await collect((on) => view.watch(undefined, {}, on), 3)).sort(), [
      'ADDED apples.boot.example.com',
      'ADDED pears.boot.example.com',
      'ADDED plums.boot.example.com',
    ]);
    // A watch with a resourceVersion never uses the boot list.
    const fresh = fromBootList(crds, boot);
    const rv = (await crds.list(undefined, {})).metadata.resourceVersion!;
    await crds.delete(undefined, 'plums.boot.example.com', {});
    assert.deepEqual(await collect((on) => fresh.watch(undefined, { resourceVersion: rv }, on), 1), ['MODIFIED plums.boot.example.com']);
  } finally {
    await store.close();
  }
});
