import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../apimachinery/index.ts';
import { findCondition } from '../crd/conditions.ts';
import { CRDStore } from '../crd/store.ts';
import { NamespaceStore } from '../namespace/rest.ts';
import { openTempStore, widget, widgetStore, type TempStore } from '../testing.ts';
import type { Obj } from '../rest.ts';
import { bareInstanceStore, startCRDFinalizer } from './crd-finalizer.ts';
import { startCRDStatusController } from './crd-status.ts';
import { startNamespaceController } from './namespace.ts';

function crd(plural: string, kind: string, extra: { shortNames?: string[]; group?: string } = {}): Obj {
  const group = extra.group ?? 'stable.example.com';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase() + (plural.endsWith('2') ? '2' : ''), kind, ...(extra.shortNames ? { shortNames: extra.shortNames } : {}) },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
        },
      ],
    },
  };
}

async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const gone = async (p: Promise<unknown>) => {
  try {
    await p;
    return false;
  } catch (e) {
    return e instanceof StatusError && e.code === 404;
  }
};

describe('CRD status and finalizer controllers', () => {
  let t: TempStore;
  let crds: CRDStore;
  const stops: (() => void)[] = [];
  before(async () => {
    t = await openTempStore();
    crds = new CRDStore(t.store);
    stops.push(startCRDStatusController(crds).stop, startCRDFinalizer(crds, { recheckMs: 50 }).stop);
  });
  after(async () => {
    stops.forEach((s) => s());
    await t.close();
  });

  test('create: generation 1, storedVersions, then NamesAccepted and Established with the accepted names', async () => {
    const { object } = await crds.create(undefined, crd('crontabs', 'CronTab', { shortNames: ['ct'] }), {});
    assert.equal((object.metadata as { generation: number }).generation, 1);
    assert.deepEqual((object.status as { storedVersions: string[] }).storedVersions, ['v1']);
    await eventually(async () => findCondition(await crds.get(undefined, 'crontabs.stable.example.com'), 'Established')?.status === 'True');
    const got = await crds.get(undefined, 'crontabs.stable.example.com');
    const status = got.status as Record<string, any>;
    assert.deepEqual(status.acceptedNames, { plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList' });
    const na = findCondition(got, 'NamesAccepted')!;
    assert.deepEqual([na.status, na.reason, na.message], ['True', 'NoConflicts', 'no conflicts found']);
    const est = findCondition(got, 'Established')!;
    assert.deepEqual([est.status, est.reason, est.message], ['True', 'InitialNamesAccepted', 'the initial names have been accepted']);
  });

  test('names already accepted in the group conflict (the last conflict is reported) and it is never established', async () => {
    await crds.create(undefined, crd('crontabs2', 'CronTab'), {});
    await eventually(async () => findCondition(await crds.get(undefined, 'crontabs2.stable.example.com'), 'NamesAccepted') !== undefined);
    const got = await crds.get(undefined, 'crontabs2.stable.example.com');
    const na = findCondition(got, 'NamesAccepted')!;
    // kind and listKind both conflict; upstream reports the last one checked.
    assert.deepEqual([na.status, na.reason, na.message], ['False', 'ListKindConflict', '"CronTabList" is already in use']);
    assert.deepEqual((got.status as Record<string, any>).acceptedNames, { plural: 'crontabs2', singular: 'crontab2' });
    const est = findCondition(got, 'Established')!;
    assert.deepEqual([est.status, est.reason], ['False', 'NotAccepted']);
  });

  test('spec changes bump generation; invalid CRDs are refused', async () => {
    const { object } = await crds.update(undefined, 'crontabs.stable.example.com', (cur) => {
      const n = structuredClone(cur!);
      (n.spec as any).names.categories = ['all'];
      return n;
    }, {});
    assert.equal((object.metadata as { generation: number }).generation, 2);
    const bad = crd('things', 'Thing');
    (bad.metadata as { name: string }).name = 'wrong.stable.example.com';
    await assert.rejects(
      crds.create(undefined, bad, {}),
      (e: unknown) => e instanceof StatusError && e.code === 422 && /metadata\.name: Invalid value: "wrong\.stable\.example\.com": must be spec\.names\.plural\+"\."\+spec\.group/.test(e.message),
    );
  });

  test('delete: instances are deleted (waiting for their finalizers), then the CRD goes', async () => {
    const c = await crds.get(undefined, 'crontabs.stable.example.com');
    const instances = bareInstanceStore(t.store, c)!;
    const ct = (name: string, fins?: string[]): Obj => ({
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name, ...(fins ? { finalizers: fins } : {}) },
      spec: {},
    });
    await instances.create('default', ct('a'), {});
    await instances.create('other', ct('b', ['example.com/hold']), {});
    const r = await crds.delete(undefined, 'crontabs.stable.example.com', {});
    assert.equal(r.deleted, false);
    assert.ok((r.object.metadata as { finalizers: string[] }).finalizers.includes('customresourcecleanup.apiextensions.k8s.io'));
    await eventually(async () => (await instances.list(undefined, {})).items.length === 1);
    await eventually(async () => findCondition(await crds.get(undefined, 'crontabs.stable.example.com'), 'Terminating')?.reason === 'InstanceDeletionCheck');
    await instances.update('other', 'b', (cur) => ({ ...cur!, metadata: { ...(cur!.metadata as object), finalizers: [] } }), {});
    await eventually(() => gone(crds.get(undefined, 'crontabs.stable.example.com')));
    // The other CRD of the group may now take the names.
    await eventually(async () => findCondition(await crds.get(undefined, 'crontabs2.stable.example.com'), 'Established')?.status === 'True');
  });
});

describe('namespace controller', () => {
  let t: TempStore;
  before(async () => {
    t = await openTempStore();
  });
  after(() => t.close());

  test('a deleted namespace is emptied, finalized and removed', async () => {
    const namespaces = new NamespaceStore(t.store);
    const widgets = widgetStore(t.store);
    const ctl = startNamespaceController(namespaces, { contentStores: () => [widgets], recheckMs: 50 });
    try {
      await namespaces.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } }, {});
      await widgets.create('doomed', widget('w1'), {});
      const held = widget('w2');
      (held.metadata as { finalizers?: string[] }).finalizers = ['example.com/hold'];
      await widgets.create('doomed', held, {});
      await widgets.create('kept', widget('w3'), {});
      await namespaces.delete(undefined, 'doomed', {});
      await eventually(async () => (await widgets.list('doomed', {})).items.length === 1);
      const cond = (type: string) => async () => {
        const st = (await namespaces.get(undefined, 'doomed')).status as { conditions?: { type: string; status: string; reason: string; message: string }[] };
        return st.conditions?.find((c) => c.type === type);
      };
      await eventually(async () => (await cond('NamespaceContentRemaining')())?.status === 'True');
      const st = (await namespaces.get(undefined, 'doomed')).status as { phase: string };
      assert.equal(st.phase, 'Terminating');
      const remaining = (await cond('NamespaceContentRemaining')())!;
      assert.deepEqual([remaining.reason, remaining.message], ['SomeResourcesRemain', 'Some resources are remaining: widgets.example.com has 1 resource instances']);
      const fins = (await cond('NamespaceFinalizersRemaining')())!;
      assert.deepEqual([fins.status, fins.reason, fins.message], [
        'True',
        'SomeFinalizersRemain',
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      ]);
      await widgets.update('doomed', 'w2', (cur) => ({ ...cur!, metadata: { ...(cur!.metadata as object), finalizers: [] } }), {});
      await eventually(() => gone(namespaces.get(undefined, 'doomed')));
      assert.equal((await widgets.list('kept', {})).items.length, 1);
    } finally {
      ctl.stop();
    }
  });
});
