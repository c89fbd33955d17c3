/**
 * The defaults of built-in kinds that the served behaviour depends on, from their Go defaulters
 * (`pkg/apis/<group>/<version>/defaults.go`), applied after decoding requests and stored objects
 * (the workloads' are in their kinds' folders): a HorizontalPodAutoscaler has
 * minReplicas 1 and, in v2, the 80% cpu metric when it names none and the scaling rules' defaults
 * where it gives a behavior; a Secret's stringData becomes data and its empty type Opaque.
 */
import type { Obj } from '../rest.ts';

const specOf = (obj: Obj): Record<string, unknown> | undefined => {
  const s = obj.spec;
  return s !== null && typeof s === 'object' && !Array.isArray(s) ? (s as Record<string, unknown>) : undefined;
};

/** autoscaling/v1 SetDefaults_HorizontalPodAutoscaler. */
function defaultHPAv1(obj: Obj): void {
  const spec = specOf(obj);
  if (spec && (spec.minReplicas === undefined || spec.minReplicas === null)) spec.minReplicas = 1;
}

const scaleUpPolicies = () => [
  { type: 'Pods', value: 4, periodSeconds: 15 },
  { type: 'Percent', value: 100, periodSeconds: 15 },
];
const scaleDownPolicies = () => [{ type: 'Percent', value: 100, periodSeconds: 15 }];

/** GenerateHPAScaleUpRules / GenerateHPAScaleDownRules: the given rules with their missing parts defaulted. */
function scalingRules(rules: unknown, window: number, policies: () => object[]): Record<string, unknown> {
  const r = rules !== null && typeof rules === 'object' && !Array.isArray(rules) ? (rules as Record<string, unknown>) : {};
  if (r.selectPolicy === undefined || r.selectPolicy === null) r.selectPolicy = 'Max';
  if (r.policies === undefined || r.policies === null) r.policies = policies();
  if (r.stabilizationWindowSeconds === undefined || r.stabilizationWindowSeconds === null) r.stabilizationWindowSeconds = window;
  return r;
}

/** autoscaling/v2 SetDefaults_HorizontalPodAutoscaler and SetDefaults_HorizontalPodAutoscalerBehavior. */
function defaultHPAv2(obj: Obj): void {
  const spec = specOf(obj);
  if (!spec) return;
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  const b = spec.behavior;
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return;
  const behavior = b as Record<string, unknown>;
  behavior.scaleUp = scalingRules(behavior.scaleUp, 0, scaleUpPolicies);
  behavior.scaleDown = scalingRules(behavior.scaleDown, 300, scaleDownPolicies);
}

/**
 * core/v1 Secret: Convert_v1_Secret_To_core_Secret writes stringData over data (each value's
 * UTF-8 bytes, so base64 here) and stringData is never stored; SetDefaults_Secret makes an empty
 * type Opaque.
 */
function secretFromRequest(obj: Obj): void {
  const sd = obj.stringData;
  if (sd !== null && typeof sd === 'object' && !Array.isArray(sd)) {
    const entries = Object.entries(sd as Record<string, unknown>);
    if (entries.length > 0) {
      const d = obj.data;
      const data = d !== null && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : {};
      for (const [k, v] of entries) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
      obj.data = data;
    }
  }
  delete obj.stringData;
  if (obj.type === undefined || obj.type === null || obj.type === '') obj.type = 'Opaque';
}

/** By `group/version/resource` (listed in `native-index.ts` with the kind folders' defaulters). */
export const legacyDefaulters: Readonly<Record<string, (obj: Obj) => void>> = {
  'autoscaling/v1/horizontalpodautoscalers': defaultHPAv1,
  'autoscaling/v2/horizontalpodautoscalers': defaultHPAv2,
  '/v1/secrets': secretFromRequest,
};
