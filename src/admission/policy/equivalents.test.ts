/**
 * Equivalent built-in resources: the resources sharing a storage, and objects converted between
 * their versions through it (autoscaling/v1 <-> v2 HorizontalPodAutoscalers, core <->
 * events.k8s.io Events); other kinds only change apiVersion.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinEquivalents, objectAtVersion } from './equivalents.ts';

const hpaV1 = { resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' }, kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' } };
const hpaV2 = { resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' }, kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' } };

test('resources sharing a storage are equivalent; others have none', () => {
  assert.deepEqual(builtinEquivalents(hpaV1.resource, ''), [hpaV2, hpaV1]);
  assert.deepEqual(builtinEquivalents(hpaV2.resource, ''), [hpaV2, hpaV1]);
  assert.deepEqual(
    builtinEquivalents({ group: 'events.k8s.io', version: 'v1', resource: 'events' }, '').map((e) => `${e.kind.group}/${e.kind.version}/${e.kind.kind}`),
    ['/v1/Event', 'events.k8s.io/v1/Event'],
  );
  assert.deepEqual(builtinEquivalents({ group: 'apps', version: 'v1', resource: 'deployments' }, ''), []);
});

test('an object converts through the storage version, and back', () => {
  const v1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 5, targetCPUUtilizationPercentage: 70 } };
  const v2 = objectAtVersion(v1, hpaV1, hpaV2)!;
  assert.equal(v2.apiVersion, 'autoscaling/v2');
  assert.deepEqual((v2.spec as Record<string, unknown>).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
  assert.equal((v1.spec as Record<string, unknown>).targetCPUUtilizationPercentage, 70, 'the input is not changed');
  const back = objectAtVersion(v2, hpaV2, hpaV1)!;
  assert.equal((back.spec as Record<string, unknown>).targetCPUUtilizationPercentage, 70);
  const crd = { resource: { group: 'x.io', version: 'v1', resource: 'ts' }, kind: { group: 'x.io', version: 'v1', kind: 'T' } };
  const crd2 = { resource: { group: 'x.io', version: 'v2', resource: 'ts' }, kind: { group: 'x.io', version: 'v2', kind: 'T' } };
  assert.deepEqual(objectAtVersion({ apiVersion: 'x.io/v1', kind: 'T', spec: { a: 1 } }, crd, crd2), { apiVersion: 'x.io/v2', kind: 'T', spec: { a: 1 } });
});
