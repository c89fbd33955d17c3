import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../apimachinery/index.ts';
import { NamespaceStore, type Obj } from '../registry/index.ts';
import { openTempStore, widget, widgetStore, type TempStore } from '../registry/testing.ts';
import { admissionChain } from './chain.ts';
import { cachedNamespaceLifecycle, namespaceLifecycle } from './namespace-lifecycle.ts';

const ns = (name: string): Obj => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

async function rejectsStatus(p: Promise<unknown>, code: number, message: string): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof StatusError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.message, message);
    return true;
  });
}

describe('namespace lifecycle from the namespace cache', () => {
  let t: TempStore;
  before(async () => {
    t = await openTempStore();
  });
  after(() => t.close());

  test('answers as the live gate does, reading live only for namespaces the cache lacks', async () => {
    const namespaces = new NamespaceStore(t.store);
    await namespaces.create(undefined, ns('early'), {});
    const live: string[] = [];
    const gate = cachedNamespaceLifecycle(t.store, (name) => {
      live.push(name);
      return namespaces.get(undefined, name);
    });
    await gate.synced;
    const widgets = widgetStore(t.store, { admission: admissionChain([gate]) });

    // Listed at start: no live read.
    await widgets.create('early', widget('a'), {});
    assert.deepEqual(live, []);

    // Missing: read live, then 404 as upstream words it.
    await rejectsStatus(widgets.create('nowhere', widget('a'), {}), 404, 'namespaces "nowhere" not found');
    assert.deepEqual(live, ['nowhere']);

    // Created after the cache started: seen through the watch by the time the create returns.
    await namespaces.create(undefined, ns('later'), {});
    await widgets.create('later', widget('a'), {});
    assert.deepEqual(live, ['nowhere']);

    // Terminating: creates refused with the NamespaceTerminating cause, updates allowed.
    await namespaces.delete(undefined, 'later', {});
    await assert.rejects(widgets.create('later', widget('b'), {}), (e: unknown) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 403);
      assert.equal(e.message, 'widgets.example.com "b" is forbidden: unable to create new content in namespace later because it is being terminated');
      assert.deepEqual(e.status.details?.causes, [{ reason: 'NamespaceTerminating', message: 'namespace later is being terminated', field: 'metadata.namespace' }]);
      return true;
    });
    await widgets.update('later', 'a', (cur) => ({ ...cur!, spec: { color: 'red' } }), {});
    assert.deepEqual(live, ['nowhere']);

    // Gone from storage: dropped from the cache, so the next write reads live and gets 404.
    await widgets.delete('later', 'a', {});
    // Emptying spec.finalizers of a terminating namespace removes it.
    await namespaces.update(undefined, 'later', (cur) => ({ ...cur!, spec: { finalizers: [] } }), { subresource: 'finalize' });
    await assert.rejects(namespaces.get(undefined, 'later'));
    live.length = 0;
    await rejectsStatus(widgets.create('later', widget('c'), {}), 404, 'namespaces "later" not found');
    assert.deepEqual(live, ['later']);

    // Stopped: every check reads live.
    gate.stop();
    live.length = 0;
    await widgets.create('early', widget('d'), {});
    assert.deepEqual(live, ['early']);
  });

  test('a failed watch falls back to live reads, then relists', async () => {
    const namespaces = new NamespaceStore(t.store);
    await namespaces.create(undefined, ns('relist'), {});
    const live: string[] = [];
    let failWatch: ((e: Error) => void) | undefined;
    const store = Object.create(t.store, {
      watch: {
        value: (prefix: string, opts: Parameters<typeof t.store.watch>[1]) => {
          failWatch = opts.onError;
          return t.store.watch(prefix, opts);
        },
      },
    }) as typeof t.store;
    const gate = cachedNamespaceLifecycle(
      store,
      (name) => {
        live.push(name);
        return namespaces.get(undefined, name);
      },
      { relistDelayMs: 10 },
    );
    await gate.synced;
    const gr = { group: 'example.com', resource: 'widgets' };
    await gate.check('create', 'relist', gr, 'x');
    assert.deepEqual(live, []);
    failWatch!(new Error('watch ended'));
    await gate.check('create', 'relist', gr, 'x');
    assert.deepEqual(live, ['relist']);
    await new Promise((r) => setTimeout(r, 50));
    await gate.check('create', 'relist', gr, 'x');
    assert.deepEqual(live, ['relist']);
    gate.stop();
  });
});

describe('namespace lifecycle read live', () => {
  let t: TempStore;
  before(async () => {
    t = await openTempStore();
  });
  after(() => t.close());

  test('writes into missing or terminating namespaces are refused; system namespaces stay', async () => {
    const admission = admissionChain([namespaceLifecycle((n) => lookup.get(undefined, n))]);
    const lookup = new NamespaceStore(t.store);
    const namespaces = new NamespaceStore(t.store, { admission });
    const widgets = widgetStore(t.store, { admission });
    await rejectsStatus(widgets.create('nowhere', widget('a'), {}), 404, 'namespaces "nowhere" not found');
    await namespaces.create(undefined, ns('live'), {});
    await widgets.create('live', widget('a'), {});
    await namespaces.delete(undefined, 'live', {});
    await assert.rejects(widgets.create('live', widget('b'), {}), (e: unknown) => {
      assert.ok(e instanceof StatusError);
      assert.equal(e.code, 403);
      assert.equal(e.message, 'widgets.example.com "b" is forbidden: unable to create new content in namespace live because it is being terminated');
      assert.deepEqual(e.status.details?.causes, [{ reason: 'NamespaceTerminating', message: 'namespace live is being terminated', field: 'metadata.namespace' }]);
      return true;
    });
    // updates in a terminating namespace are still allowed (finalizers must be removable)
    await widgets.update('live', 'a', (cur) => ({ ...cur!, spec: { color: 'red' } }), {});
    await namespaces.create(undefined, ns('default'), {});
    await rejectsStatus(namespaces.delete(undefined, 'default', {}), 403, 'namespaces "default" is forbidden: this namespace may not be deleted');
  });
});
