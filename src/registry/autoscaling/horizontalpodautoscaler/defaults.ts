/**
 * autoscaling HorizontalPodAutoscaler's defaulting: minReplicas 1 (v1 and v2); in v2 also the 80%
 * cpu Utilization metric when none is given (SetDefaults_HorizontalPodAutoscaler) and, where a
 * behavior is given, each direction's missing rules (SetDefaults_HorizontalPodAutoscalerBehavior:
 * GenerateHPAScaleUpRules / GenerateHPAScaleDownRules).
 */
import type { Obj } from '../../rest.ts';
import { asObject, child, onSpec, setDefault, type Fields } from '../../defaulting/fields.ts';

/** autoscaling/v1 SetDefaults_HorizontalPodAutoscaler. MUTATES obj. */
export const defaultHPAv1 = onSpec((spec) => setDefault(spec, 'minReplicas', 1));

const scaleUpPolicies = () => [
  { type: 'Pods', value: 4, periodSeconds: 15 },
  { type: 'Percent', value: 100, periodSeconds: 15 },
];
const scaleDownPolicies = () => [{ type: 'Percent', value: 100, periodSeconds: 15 }];

/** The given rules (or new ones) with their missing parts defaulted. */
function scalingRules(rules: unknown, window: number, policies: () => object[]): Fields {
  const r = asObject(rules) ?? {};
  setDefault(r, 'selectPolicy', 'Max');
  setDefault(r, 'policies', policies());
  setDefault(r, 'stabilizationWindowSeconds', window);
  return r;
}

/** autoscaling/v2 SetDefaults_HorizontalPodAutoscaler and SetDefaults_HorizontalPodAutoscalerBehavior. MUTATES obj. */
export const defaultHPAv2 = onSpec((spec) => {
  setDefault(spec, 'minReplicas', 1);
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  const behavior = child(spec, 'behavior');
  if (!behavior) return;
  behavior.scaleUp = scalingRules(behavior.scaleUp, 0, scaleUpPolicies);
  behavior.scaleDown = scalingRules(behavior.scaleDown, 300, scaleDownPolicies);
});

export const hpaDefaulters: Record<string, (obj: Obj) => void> = {
  'autoscaling/v1/horizontalpodautoscalers': defaultHPAv1,
  'autoscaling/v2/horizontalpodautoscalers': defaultHPAv2,
};
