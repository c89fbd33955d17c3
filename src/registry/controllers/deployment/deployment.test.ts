/**
 * The deployment controller's arithmetic and annotations, case by case: fenceposts, the rolling
 * update's scale-up step, the revision annotations (a rollback's revision-history), the hash's
 * alphabet and collision count, and the Progressing/Available conditions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Obj } from '../../rest.ts';
import { computeHash, safeEncodeString } from './hash.ts';
import { maxSurge, maxUnavailable, newRSNewReplicas, resolveFenceposts } from './replicas.ts';
import { setNewReplicaSetAnnotations } from './revisions.ts';
import { calculateStatus, rolloutStatus, setCondition, newCondition } from './status.ts';
import { equalIgnoreHash } from './sync.ts';

const deployment = (replicas: number, rollingUpdate?: Record<string, unknown>, type = 'RollingUpdate', annotations?: Record<string, string>): Obj => ({
  metadata: { name: 'web', namespace: 'default', generation: 3, ...(annotations ? { annotations } : {}) },
  spec: { replicas, progressDeadlineSeconds: 600, strategy: { type, ...(rollingUpdate ? { rollingUpdate } : {}) }, template: { metadata: { labels: { app: 'web' } } } },
});
const rs = (name: string, replicas: number, annotations: Record<string, string> = {}, status: Record<string, number> = {}): Obj => ({
  metadata: { name, annotations },
  spec: { replicas },
  status,
});

test('fenceposts: surge rounds up, unavailable down, never both 0', () => {
  const cases: [number, unknown, unknown, number, number][] = [
    [10, '25%', '25%', 3, 2],
    [3, '25%', '25%', 1, 0],
    [1, '25%', '25%', 1, 0],
    [4, 0, 0, 0, 1],
    [5, 2, '50%', 2, 2],
  ];
  for (const [replicas, surge, unavailable, wantSurge, wantUnavailable] of cases) {
    const d = deployment(replicas, { maxSurge: surge, maxUnavailable: unavailable });
    assert.deepEqual(resolveFenceposts(d), { surge: wantSurge, unavailable: wantUnavailable }, JSON.stringify([replicas, surge, unavailable]));
  }
  assert.equal(maxUnavailable(deployment(0, { maxSurge: 1, maxUnavailable: 1 })), 0);
  assert.equal(maxUnavailable(deployment(2, { maxSurge: 0, maxUnavailable: 5 })), 2);
  assert.equal(maxSurge(deployment(4, undefined, 'Recreate')), 0);
});

test('a rolling update scales the new ReplicaSet up to the surge allowance', () => {
  const d = deployment(3, { maxSurge: 1, maxUnavailable: 0 });
  const newRS = rs('new', 0);
  assert.equal(newRSNewReplicas(d, [rs('old', 3), newRS], newRS), 1);
  assert.equal(newRSNewReplicas(d, [rs('old', 4), newRS], newRS), 0, 'at the maximum already');
  assert.equal(newRSNewReplicas(d, [rs('old', 0), newRS], newRS), 3, 'never past the desired count');
  assert.equal(newRSNewReplicas(deployment(3, undefined, 'Recreate'), [rs('old', 3), newRS], newRS), 3);
});

test('revision annotations: copied annotations, new revision, revision-history on rollback', () => {
  const d = deployment(2, { maxSurge: 1, maxUnavailable: 0 }, 'RollingUpdate', {
    team: 'a',
    'kubectl.kubernetes.io/last-applied-configuration': '{}',
    'deployment.kubernetes.io/revision': '2',
  });
  const fresh = rs('web-1', 0);
  assert.equal(setNewReplicaSetAnnotations(d, fresh, 1, false), true);
  assert.deepEqual((fresh.metadata as Obj).annotations, {
    team: 'a',
    'deployment.kubernetes.io/revision': '1',
    'deployment.kubernetes.io/desired-replicas': '2',
    'deployment.kubernetes.io/max-replicas': '3',
  });
  const back = rs('web-1', 2, { 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/revision-history': '' });
  setNewReplicaSetAnnotations(d, back, 3, true);
  assert.equal(((back.metadata as Obj).annotations as Record<string, string>)['deployment.kubernetes.io/revision'], '3');
  assert.equal(((back.metadata as Obj).annotations as Record<string, string>)['deployment.kubernetes.io/revision-history'], '1');
  setNewReplicaSetAnnotations(d, back, 5, true);
  assert.equal(((back.metadata as Obj).annotations as Record<string, string>)['deployment.kubernetes.io/revision-history'], '1,3');
  const same = rs('web-1', 2, { 'deployment.kubernetes.io/revision': '5', team: 'a' });
  assert.equal(setNewReplicaSetAnnotations(d, same, 5, true), false, 'nothing to change');
});

test('pod-template-hash: the safe alphabet, and a collision count changes it', () => {
  assert.equal(safeEncodeString('a'), 'v');
  assert.match(computeHash({ metadata: { labels: { app: 'web' } } }), /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  const t = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
  assert.equal(computeHash(t), computeHash(JSON.parse(JSON.stringify({ spec: t.spec, metadata: t.metadata }))), 'key order does not matter');
  assert.notEqual(computeHash(t), computeHash(t, 1));
  assert.notEqual(computeHash(t, 1), computeHash(t, 2));
  assert.ok(equalIgnoreHash({ metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } } }, { metadata: { labels: { app: 'web' } } }));
  assert.ok(!equalIgnoreHash({ metadata: { labels: { app: 'web' } }, spec: { a: 1 } }, { metadata: { labels: { app: 'web' } } }));
});

test('status: counts from the ReplicaSets, Available and Progressing as upstream words them', () => {
  const d = deployment(2, { maxSurge: 1, maxUnavailable: 0 });
  const newRS = rs('web-abc', 2, {}, { replicas: 2, readyReplicas: 1, availableReplicas: 1 });
  const s = calculateStatus([newRS], newRS, d);
  assert.deepEqual(
    { ...s, conditions: (s.conditions as Obj[]).map((c) => [c.type, c.status, c.reason, c.message]) },
    {
      observedGeneration: 3,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      unavailableReplicas: 1,
      conditions: [['Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.']],
    },
  );
  const done = rs('web-abc', 2, {}, { replicas: 2, readyReplicas: 2, availableReplicas: 2 });
  const r = rolloutStatus([done], done, d);
  assert.deepEqual(
    (r.conditions as Obj[]).map((c) => [c.type, c.status, c.reason, c.message]),
    [
      ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
      ['Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-abc" has successfully progressed.'],
    ],
  );
  // A condition whose status and reason hold keeps its times; a new reason moves it to the end.
  const st: Record<string, unknown> = {};
  setCondition(st, { ...newCondition('Progressing', 'True', 'NewReplicaSetCreated', 'x'), lastTransitionTime: 'T0', lastUpdateTime: 'T0' });
  setCondition(st, newCondition('Available', 'False', 'MinimumReplicasUnavailable', 'y'));
  setCondition(st, newCondition('Progressing', 'True', 'NewReplicaSetCreated', 'x'));
  assert.equal((st.conditions as Obj[])[0]!.lastUpdateTime, 'T0');
  setCondition(st, newCondition('Progressing', 'True', 'ReplicaSetUpdated', 'z'));
  assert.deepEqual((st.conditions as Obj[]).map((c) => [c.type, c.lastTransitionTime === 'T0']), [['Available', false], ['Progressing', true]]);
});
