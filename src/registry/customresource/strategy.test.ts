import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { invalid } from '../../apimachinery/index.ts';
import { StatusError } from '../../apimachinery/index.ts';
import { openTempStore, widget, widgetStore, type TempStore } from '../testing.ts';
import type { GenericStore } from '../generic-store.ts';
import type { Obj } from '../rest.ts';
import type { CustomResourceHooks } from './strategy.ts';
import type { Codec } from '../codec.ts';

/** A codec standing in for a compiled schema's: spec.color and spec.replicas are declared, color defaults to grey. */
const codec: Codec = {
  decode(obj, trackUnknown) {
    const pruned: string[] = [];
    const spec = obj.spec as Record<string, unknown> | undefined;
    if (spec) {
      for (const k of Object.keys(spec).sort()) {
        if (k !== 'color' && k !== 'replicas') {
          delete spec[k];
          pruned.push(`unknown field "spec.${k}"`);
        }
      }
    }
    const s = (obj.spec ??= {}) as Record<string, unknown>;
    s.color ??= 'grey';
    return { strictErrors: trackUnknown ? pruned : [] };
  },
  decodeStored(obj) {
    codec.decode(obj, false);
  },
};

/** Hooks standing in for a compiled schema's checks. */
function hooks(seenOld: Obj[]): CustomResourceHooks {
  return {
    validate(obj, old) {
      const c = (obj.spec as { color?: unknown }).color;
      if (old === undefined) return { schema: c === 'black' ? [invalid('spec.color', c, 'black is not a colour')] : [], structure: [] };
      seenOld.push(old);
      const o = (old.spec as { color?: unknown }).color;
      return { schema: c !== o && o === 'gold' ? [invalid('spec.color', c, 'gold is forever')] : [], structure: [] };
    },
    warnings: () => ['example.com/v1 Widget is deprecated'],
  };
}

describe('custom resource strategy with schema hooks', () => {
  let t: TempStore;
  let s: GenericStore;
  const seenOld: Obj[] = [];
  before(async () => {
    t = await openTempStore();
    s = widgetStore(t.store, { hooks: hooks(seenOld), codec });
  });
  after(() => t.close());

  test('prune then default; unknown fields warned under Warn, dropped silently under Ignore', async () => {
    const r = await s.create('default', widget('p', { spec: { size: 3, replicas: 1 } }), { fieldValidation: 'Warn' });
    assert.deepEqual(r.object.spec, { color: 'grey', replicas: 1 });
    assert.deepEqual(r.warnings, ['unknown field "spec.size"', 'example.com/v1 Widget is deprecated']);
    const r2 = await s.create('default', widget('q', { spec: { size: 3 } }), { fieldValidation: 'Ignore' });
    assert.deepEqual(r2.warnings, ['example.com/v1 Widget is deprecated']);
  });

  test('Strict refuses unknown fields with the strict decoding error, writing nothing', async () => {
    const rev = await t.store.currentRevision();
    await assert.rejects(
      s.create('default', widget('s', { spec: { size: 3, weight: 1 } }), { fieldValidation: 'Strict' }),
      (e: unknown) =>
        e instanceof StatusError && e.code === 400 && e.message === 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.size", unknown field "spec.weight"',
    );
    assert.equal(await t.store.currentRevision(), rev);
  });

  test('schema validation errors are 422 Invalid; update validation sees the old object', async () => {
    await assert.rejects(
      s.create('default', widget('b', { spec: { color: 'black' } }), {}),
      (e: unknown) => e instanceof StatusError && e.message === 'Widget.example.com "b" is invalid: spec.color: Invalid value: "black": black is not a colour',
    );
    await s.create('default', widget('g', { spec: { color: 'gold' } }), {});
    await assert.rejects(
      s.update('default', 'g', (cur) => ({ ...cur!, spec: { color: 'red' } }), {}),
      (e: unknown) => e instanceof StatusError && e.message === 'Widget.example.com "g" is invalid: spec.color: Invalid value: "red": gold is forever',
    );
    assert.equal((seenOld[seenOld.length - 1]!.spec as { color: string }).color, 'gold');
  });

  test('generation: +1 for a non-metadata change only (with a status subresource, status changes do not count)', async () => {
    await s.create('default', widget('gen'), {});
    const a = await s.update('default', 'gen', (cur) => ({ ...cur!, metadata: { ...(cur!.metadata as object), annotations: { x: 'y' } } }), {});
    assert.equal((a.object.metadata as { generation: number }).generation, 1);
    const b = await s.update('default', 'gen', (cur) => ({ ...cur!, status: { replicas: 1 } }), { subresource: 'status' });
    assert.equal((b.object.metadata as { generation: number }).generation, 1);
    const c = await s.update('default', 'gen', (cur) => ({ ...cur!, spec: { color: 'red', replicas: 1 } }), {});
    assert.equal((c.object.metadata as { generation: number }).generation, 2);
  });

  test('without a status subresource, status is written by the main resource and bumps generation', async () => {
    const t2 = await openTempStore();
    try {
      const plain = widgetStore(t2.store, { status: false, scale: false });
      const { object } = await plain.create('default', widget('n', { status: { ok: true } }), {});
      assert.deepEqual(object.status, { ok: true });
      const u = await plain.update('default', 'n', (cur) => ({ ...cur!, status: { ok: false } }), {});
      assert.deepEqual(u.object.status, { ok: false });
      assert.equal((u.object.metadata as { generation: number }).generation, 2);
      // the status subresource is not served: writes go through the main strategy
      const st = await plain.update('default', 'n', (cur) => ({ ...cur!, spec: { color: 'x' } }), { subresource: 'status' });
      assert.deepEqual(st.object.spec, { color: 'x' });
    } finally {
      await t2.close();
    }
  });
});

describe('read-time pruning and defaulting', () => {
  test('objects stored before a schema change are pruned and defaulted on read', async () => {
    const t = await openTempStore();
    try {
      const before = widgetStore(t.store);
      await before.create('default', widget('old', { spec: { size: 3, replicas: 1 } }), {});
      const after = widgetStore(t.store, { hooks: hooks([]), codec });
      const got = await after.get('default', 'old');
      assert.deepEqual(got.spec, { color: 'grey', replicas: 1 });
      const listed = await after.list('default', {});
      assert.deepEqual(listed.items[0]!.spec, { color: 'grey', replicas: 1 });
    } finally {
      await t.close();
    }
  });
});

test('custom resource validate refuses every name the store check refuses, so the store skips its own', async () => {
  const { CustomResourceStrategy } = await import('./strategy.ts');
  const { validateObjectMetaForCreate } = await import('../objectmeta-checks.ts');
  const s = new CustomResourceStrategy({ group: 'example.com', version: 'v1', kind: 'Widget', namespaced: true });
  assert.equal(s.validatesObjectMeta, true);
  const ctx = { warnings: [], fieldValidation: 'Strict' as const, dryRun: false };
  const metas = [{ name: '.' }, { name: '..' }, { name: 'a%b' }, { name: 'a/b' }, { name: 'ok', generateName: 'a/' }, { name: 'ok', generateName: 'a%' }, { name: 'ok', labels: { 'a b': 'x' } }];
  for (const metadata of metas) {
    const obj: Obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { namespace: 'default', ...metadata } };
    const store = validateObjectMetaForCreate(obj, true);
    assert.ok(store.length > 0, JSON.stringify(metadata));
    assert.ok(s.validate(ctx, obj).length > 0, `strategy passes what the store refuses: ${JSON.stringify(metadata)}`);
  }
});
