/**
 * Test fixtures for the registry's own tests: a real SQLite store in a temporary directory and a
 * custom-resource store for a `Widget` kind (widgets.example.com/v1), with status and scale
 * subresources and a selectable field.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCacher, openSqliteStore } from '../storage/index.ts';
import type { Store } from '../storage/index.ts';
import { CustomResourceStrategy, type CustomResourceHooks } from './customresource/strategy.ts';
import { GenericStore, type GenericStoreConfig } from './generic-store.ts';
import type { Obj, ResourceInfo } from './rest.ts';
import { StatusError } from '../apimachinery/index.ts';

/** Set to `1`, openTempStore puts the watch cache in front of the store. */
export const watchCacheEnv = 'CRD_APISERVER_TEST_WATCH_CACHE';

export interface TempStore {
  store: Store;
  dir: string;
  close(): Promise<void>;
}

export async function openTempStore(): Promise<TempStore> {
  const dir = mkdtempSync(join(tmpdir(), 'registry-test-'));
  // The compactor is off: tests compact explicitly.
  const raw = await openSqliteStore({ path: join(dir, 'db.sqlite'), compactIntervalMs: 0 });
  // The suites run again with the watch cache in front (watch-cache-suites.test.ts sets this).
  const store = process.env[watchCacheEnv] === '1' ? await openCacher(raw, { progress: () => raw.currentRevision() }) : raw;
  return {
    store,
    dir,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const widgetInfo: ResourceInfo = {
  group: 'example.com',
  version: 'v1',
  resource: 'widgets',
  kind: 'Widget',
  listKind: 'WidgetList',
  namespaced: true,
  singular: 'widget',
};

export function widgetStore(
  store: Store,
  opts: { hooks?: CustomResourceHooks; status?: boolean; scale?: boolean } & Partial<GenericStoreConfig> = {},
): GenericStore {
  const strategy = new CustomResourceStrategy({
    group: 'example.com',
    version: 'v1',
    kind: 'Widget',
    namespaced: true,
    subresources: {
      ...(opts.status === false ? {} : { status: {} }),
      ...(opts.scale === false
        ? {}
        : { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } }),
    },
    selectableFields: [{ jsonPath: '.spec.color' }],
    hooks: opts.hooks,
  });
  return new GenericStore({ freshnessTimeoutMs: 200, ...opts, store, info: widgetInfo, strategy });
}

/** A Widget manifest. */
export function widget(name: string, extra: Partial<Obj> & { labels?: Record<string, string>; spec?: unknown } = {}): Obj {
  const { labels, ...rest } = extra;
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: { color: 'blue', replicas: 1 },
    ...rest,
  };
}

/** Asserts that p rejects with a StatusError of this code and reason (and message, if given); returns it. */
export async function rejectsStatus(p: Promise<unknown>, code: number, reason: string, message?: string | RegExp): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, `expected StatusError, got ${e}`);
    assert.equal(e.code, code, e.message);
    assert.equal(e.reason, reason, e.message);
    if (typeof message === 'string') assert.equal(e.message, message);
    else if (message) assert.match(e.message, message);
    return e;
  }
  assert.fail('expected a rejection');
}
