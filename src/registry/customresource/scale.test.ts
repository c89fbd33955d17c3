import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../apimachinery/index.ts';
import { openTempStore, widget, widgetStore, type TempStore } from '../testing.ts';
import type { GenericStore } from '../generic-store.ts';
import { applyScale, scaleFromCustomResource } from './scale.ts';

const spec = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };

describe('scale subresource', () => {
  let t: TempStore;
  let s: GenericStore;
  before(async () => {
    t = await openTempStore();
    s = widgetStore(t.store);
  });
  after(() => t.close());

  test('reads an autoscaling/v1 Scale from the CRD paths', async () => {
    await s.create('default', widget('sc', { spec: { replicas: 3 } }), {});
    const cr = (await s.update('default', 'sc', (cur) => ({ ...cur!, status: { replicas: 2, selector: 'app=x' } }), { subresource: 'status' })).object;
    const scale = scaleFromCustomResource(cr, spec);
    const m = cr.metadata as Record<string, unknown>;
    assert.deepEqual(scale, {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'sc', namespace: 'default', uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'app=x' },
    });
  });

  test('writing a Scale sets replicas and bumps generation; a stale resourceVersion conflicts', async () => {
    const before = await s.get('default', 'sc');
    const scale = scaleFromCustomResource(before, spec);
    (scale.spec as { replicas: number }).replicas = 5;
    const { object } = await s.update('default', 'sc', (cur) => applyScale(cur!, scale, spec), { subresource: 'scale' });
    assert.equal((object.spec as { replicas: number }).replicas, 5);
    assert.equal((object.metadata as { generation: number }).generation, 2);
    await assert.rejects(
      s.update('default', 'sc', (cur) => applyScale(cur!, scale, spec), { subresource: 'scale' }),
      (e: unknown) => e instanceof StatusError && e.code === 409 && e.reason === 'Conflict',
    );
  });

  test('negative replicas are refused by the resource validation', async () => {
    const scale = { spec: { replicas: -2 } };
    await assert.rejects(
      s.update('default', 'sc', (cur) => applyScale(cur!, scale, spec), { subresource: 'scale' }),
      (e: unknown) =>
        e instanceof StatusError &&
        e.message === 'Widget.example.com "sc" is invalid: .spec.replicas: Invalid value: -2: should be a non-negative integer',
    );
  });

  test('a non-integer replica count in the resource is an accessor error', () => {
    assert.throws(() => scaleFromCustomResource(widget('x', { spec: { replicas: 'two' } }), spec), {
      message: '.spec.replicas accessor error: two is of the type string, expected int64',
    });
  });
});
