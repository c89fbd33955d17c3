/**
 * pods/eviction and pods/binding over the real registry (a SQLite store, the served pod and
 * PodDisruptionBudget stores), driven by upstream's eviction tables
 * (testdata/k8s-native/pod-subresources/eviction.json): whether the pod is gone, the answer's
 * code, message and causes, and the budget's disruptionsAllowed afterwards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isStatusError, type Status } from '../../../apimachinery/index.ts';
import { builtinRegistry } from '../../kinds.ts';
import type { KindDefinition, SubresourceAction } from '../../kind.ts';
import type { Obj } from '../../rest.ts';
import { openTempStore } from '../../testing.ts';

interface Case {
  name: string;
  pod: { name: string; phase: string; ready: boolean; labels: Record<string, string> };
  pdbs: Obj[];
  badNameInURL: boolean;
  expect: { deleted: boolean; code: number; message?: string; causes?: unknown[]; retryAfterSeconds?: number; pdbDisruptionsAllowed?: number };
}
const doc = JSON.parse(readFileSync(new URL('../../../../testdata/k8s-native/pod-subresources/eviction.json', import.meta.url), 'utf8')) as { cases: Case[] };

const kindOf = (kinds: KindDefinition[], group: string, resource: string) => kinds.find((k) => k.group === group && k.resource === resource)!;
const podObj = (name: string, labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

async function answer(action: SubresourceAction, req: Parameters<SubresourceAction['serve']>[0]): Promise<{ code: number; body: Obj }> {
  try {
    const out = await action.serve(req);
    return { code: out.code, body: 'object' in out ? out.object : {} };
  } catch (e) {
    if (isStatusError(e)) return { code: e.status.code, body: e.status as unknown as Obj };
    throw e;
  }
}

test('TestEviction vectors', async () => {
  assert.ok(doc.cases.length >= 16);
  for (const c of doc.cases) {
    const t = await openTempStore();
    try {
      const { kinds } = builtinRegistry({ store: t.store });
      const pods = kindOf(kinds, '', 'pods');
      const pdbs = kindOf(kinds, 'policy', 'poddisruptionbudgets').store;
      await pods.store.create('default', podObj(c.pod.name, c.pod.labels), {});
      const conditions = c.pod.ready ? [{ type: 'Ready', status: 'True' }] : [];
      await pods.store.update('default', c.pod.name, (cur) => ({ ...cur!, status: { phase: c.pod.phase, conditions } }), { subresource: 'status' });
      for (const p of c.pdbs) {
        const { status, ...rest } = structuredClone(p);
        const name = (rest.metadata as { name: string }).name;
        await pdbs.create('default', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', ...rest }, {});
        if ((status as { disruptionsAllowed?: number }).disruptionsAllowed! >= 0) {
          await pdbs.update('default', name, (cur) => ({ ...cur!, status }), { subresource: 'status' });
        } else {
          // Upstream's table holds its budgets in a fake clientset, unvalidated: a status the
          // status rules refuse (a negative disruptionsAllowed) is written straight into storage.
          const key = `/registry/policy/poddisruptionbudgets/default/${name}`;
          const kv = (await t.store.get(key))!;
          await t.store.update(key, JSON.stringify({ ...JSON.parse(kv.value), status }), kv.modRevision);
        }
      }
      const name = c.badNameInURL ? 'badName' : c.pod.name;
      const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: c.pod.name, namespace: 'default' }, deleteOptions: { gracePeriodSeconds: 0 } };
      const got = await answer(pods.actions!.eviction!, { verb: 'create', namespace: 'default', name, body: eviction, query: new URLSearchParams(), path: '', dryRun: false });
      assert.equal(got.code, c.expect.code, `${c.name}: ${JSON.stringify(got.body)}`);
      if (c.expect.message) assert.equal((got.body as unknown as Status).message, c.expect.message, c.name);
      if (c.expect.causes) assert.deepEqual((got.body as { details?: { causes?: unknown } }).details?.causes, c.expect.causes, c.name);
      if (c.expect.retryAfterSeconds) assert.equal((got.body as { details?: { retryAfterSeconds?: number } }).details?.retryAfterSeconds, c.expect.retryAfterSeconds);
      const left = (await pods.store.list('default', {})).items.length;
      assert.equal(left === 0, c.expect.deleted, `${c.name}: pod deleted`);
      if (c.expect.pdbDisruptionsAllowed !== undefined) {
        const after = await pdbs.get('default', 'foo');
        const st = after.status as { disruptionsAllowed?: number; disruptedPods?: Record<string, string>; conditions?: Array<{ type: string; status: string }> };
        assert.equal(st.disruptionsAllowed ?? 0, c.expect.pdbDisruptionsAllowed);
        assert.ok(st.disruptedPods?.[c.pod.name], 'the evicted pod is recorded as disrupted');
        assert.deepEqual(st.conditions?.map((x) => [x.type, x.status]), [['DisruptionAllowed', 'False']]);
      }
    } finally {
      await t.close();
    }
  }
});

test('pods/binding: the node, annotations and PodScheduled; a bound pod is a Conflict; a bad Binding the aggregate error', async () => {
  const t = await openTempStore();
  try {
    const { kinds } = builtinRegistry({ store: t.store });
    const pods = kindOf(kinds, '', 'pods');
    await pods.store.create('default', podObj('p', {}), {});
    const bind = (target: Obj, name = 'p') =>
      answer(pods.actions!.binding!, { verb: 'create', namespace: 'default', name, body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p', annotations: { k: 'v' } }, target }, query: new URLSearchParams(), path: '', dryRun: false });
    assert.deepEqual(await bind({ name: 'node1' }), { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } });
    const p = await pods.store.get('default', 'p');
    assert.equal((p.spec as { nodeName: string }).nodeName, 'node1');
    assert.deepEqual((p.metadata as { annotations: unknown }).annotations, { k: 'v' });
    assert.deepEqual(((p.status as { conditions: Array<{ type: string; status: string }> }).conditions ?? []).map((c) => [c.type, c.status]), [['PodScheduled', 'True']]);
    const again = await bind({ name: 'node2' });
    assert.equal(again.code, 409);
    assert.equal((again.body as unknown as Status).message, 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node1"');
    assert.equal((await bind({ name: 'node1' }, 'q')).code, 400);
    await assert.rejects(
      pods.actions!.binding!.serve({ verb: 'create', namespace: 'default', name: 'p', body: { metadata: { name: 'p' }, target: { kind: 'Pod' } }, query: new URLSearchParams(), path: '', dryRun: false }),
      { message: '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]' },
    );
    const missing = await answer(pods.actions!.binding!, { verb: 'create', namespace: 'default', name: 'nope', body: { metadata: { name: 'nope' }, target: { name: 'n' } }, query: new URLSearchParams(), path: '', dryRun: false });
    assert.equal((missing.body as unknown as Status).message, 'pods "nope" not found');
  } finally {
    await t.close();
  }
});
