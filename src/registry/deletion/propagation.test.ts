import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GenericStore } from '../generic-store.ts';
import { openTempStore, widget, widgetInfo, widgetStore } from '../testing.ts';
import type { DeleteOptions } from '../rest.ts';
import type { Strategy } from '../strategy.ts';

interface Case {
  name: string;
  finalizers: string[];
  options: DeleteOptions | null;
  strategy: 'default' | 'orphan';
  expectNotFound: boolean;
  expectedFinalizers: string[];
}

const vectors = JSON.parse(readFileSync(new URL('../../../testdata/k8s-gc/deletion-propagation.json', import.meta.url), 'utf8')) as { cases: Case[] };

test('a delete turns its propagation policy into finalizers as the generic store does (testdata/k8s-gc/deletion-propagation.json)', async () => {
  assert.ok(vectors.cases.length >= 48, `only ${vectors.cases.length} cases`);
  const t = await openTempStore();
  try {
    const plain = widgetStore(t.store);
    // A kind whose default policy orphans (as core/v1 ReplicationControllers and batch/v1 Jobs do).
    const orphaning = new GenericStore({
      store: t.store,
      info: { ...widgetInfo, resource: 'orphaningwidgets' },
      strategy: Object.create(plain.strategy, { garbageCollectionPolicy: { value: 'OrphanDependents' } }) as Strategy,
    });
    const failures: string[] = [];
    let i = 0;
    for (const c of vectors.cases) {
      const s = c.strategy === 'orphan' ? orphaning : plain;
      const name = `w${i++}`;
      const w = widget(name);
      (w.metadata as Record<string, unknown>).finalizers = c.finalizers;
      await s.create('default', w, {});
      const res = await s.delete('default', name, c.options ?? {});
      let got: Record<string, any> | undefined;
      try {
        got = (await s.get('default', name)).metadata as Record<string, any>;
      } catch {
        got = undefined;
      }
      if (c.expectNotFound) {
        if (got !== undefined || !res.deleted) failures.push(`${c.name}: kept with ${JSON.stringify(got?.finalizers)}`);
        continue;
      }
      if (!got) {
        failures.push(`${c.name}: deleted, want finalizers ${JSON.stringify(c.expectedFinalizers)}`);
        continue;
      }
      if (JSON.stringify(got.finalizers) !== JSON.stringify(c.expectedFinalizers)) failures.push(`${c.name}: finalizers ${JSON.stringify(got.finalizers)}`);
      if (!got.deletionTimestamp || got.deletionGracePeriodSeconds !== 0) failures.push(`${c.name}: not marked as deleting`);
      if (!(got.generation > 1)) failures.push(`${c.name}: generation not increased`);
    }
    assert.deepEqual(failures, []);
  } finally {
    await t.close();
  }
});
