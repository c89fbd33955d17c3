// The garbage collector's workers wait until every monitor has applied its first list: an owner
// in foreground deletion, listed before its blocking dependents' resource, must not look unblocked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CustomResourceStrategy } from '../../customresource/strategy.ts';
import { GenericStore } from '../../generic-store.ts';
import type { KindDefinition } from '../../kind.ts';
import type { Obj, RESTStore } from '../../rest.ts';
import { openTempStore, widget, widgetInfo, widgetStore } from '../../testing.ts';
import { startGarbageCollector } from './collector.ts';

function kindOf(store: RESTStore, info: { resource: string; kind: string }): KindDefinition {
  return {
    group: 'example.com',
    version: 'v1',
    storageVersion: 'v1',
    resource: info.resource,
    kind: info.kind,
    namespaced: true,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    store,
  } as unknown as KindDefinition;
}

async function exists(store: RESTStore, name: string): Promise<boolean> {
  try {
    await store.get('default', name);
    return true;
  } catch {
    return false;
  }
}

test('an owner in foreground deletion waits for its dependents even when their resource is listed last', async () => {
  const t = await openTempStore();
  const widgets = widgetStore(t.store);
  const gadgetInfo = { ...widgetInfo, resource: 'gadgets', kind: 'Gadget', listKind: 'GadgetList', singular: 'gadget' };
  const gadgets = new GenericStore({
    store: t.store,
    info: gadgetInfo,
    strategy: new CustomResourceStrategy({ group: 'example.com', version: 'v1', kind: 'Gadget', namespaced: true, subresources: {} }),
  });
  const owner = (await widgets.create('default', widget('owner', { metadata: { name: 'owner', finalizers: ['foregroundDeletion'] } } as Partial<Obj>), {})).object;
  const uid = (owner.metadata as { uid: string }).uid;
  const ref = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'owner', uid, blockOwnerDeletion: true };
  await gadgets.create('default', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'dep', ownerReferences: [ref] } }, {});
  await widgets.delete('default', 'owner', {});

  // The dependents' resource answers its first list only when let go.
  let release!: () => void;
  const listed = new Promise<void>((r) => (release = r));
  const slowGadgets = Object.create(gadgets) as RESTStore;
  slowGadgets.list = async (ns, opts) => {
    await listed;
    return gadgets.list(ns, opts);
  };
  const kinds = [kindOf(widgets, widgetInfo), kindOf(slowGadgets, gadgetInfo)];
  const gc = startGarbageCollector({ all: () => kinds, onChange: () => () => {} });
  try {
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(await exists(widgets, 'owner'), true, 'the owner was deleted before its dependents were known');
    assert.equal(await exists(gadgets, 'dep'), true);
    release();
    const deadline = Date.now() + 5000;
    while ((await exists(widgets, 'owner')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await exists(gadgets, 'dep'), false, 'the dependent goes first');
    assert.equal(await exists(widgets, 'owner'), false, 'then the owner');
  } finally {
    gc.stop();
    await t.close();
  }
});
