import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultsOf, loadAllKindSemantics } from './native-index.ts';

// The kind folders load on first use; these tables call the defaulters directly.
await loadAllKindSemantics();

test('HorizontalPodAutoscaler defaults: minReplicas in v1; minReplicas, the cpu metric and the scaling rules in v2', () => {
  const v1: Record<string, unknown> = { spec: { maxReplicas: 3 } };
  defaultsOf('autoscaling', 'v1', 'horizontalpodautoscalers')!(v1);
  assert.deepEqual(v1.spec, { maxReplicas: 3, minReplicas: 1 });
  const v2: Record<string, unknown> = { spec: { maxReplicas: 3, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } };
  defaultsOf('autoscaling', 'v2', 'horizontalpodautoscalers')!(v2);
  assert.deepEqual(v2.spec, {
    maxReplicas: 3,
    minReplicas: 1,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    behavior: {
      scaleUp: { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }], stabilizationWindowSeconds: 0 },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    },
  });
});
