/**
 * HorizontalPodAutoscaler's native rules (pkg/apis/autoscaling/validation, on the stored v2
 * form): minReplicas at least 1 (0 only if the stored object already had it: HPAScaleToZero is
 * off), maxReplicas positive and not below minReplicas, a scale target, metrics of a known type
 * each filling exactly its own source with a valid target, and scaling behavior within its
 * windows and periods; status replicas never negative.
 */
import { type FieldError, forbidden, invalid, isDNS1123Label, IsNegativeErrorMsg, notSupported, Path, required } from '../../../apimachinery/index.ts';
import { isQualifiedName, isValidPathSegmentName } from '../../../apimachinery/index.ts';
import { parseQuantity, Quantity } from '../../../cel/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { list, num, ptr, rec, str } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

const specPath = Path.of('spec');
/** MaxPeriodSeconds, MaxStabilizationWindowSeconds */
const maxPeriodSeconds = 1800;
const maxStabilizationWindowSeconds = 3600;
const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const selectPolicies = ['Disabled', 'Max', 'Min'];
const policyTypes = ['Percent', 'Pods'];
/** The source field of each metric type, in the order upstream looks at them. */
const sources = [
  ['object', 'Object'],
  ['external', 'External'],
  ['pods', 'Pods'],
  ['resource', 'Resource'],
  ['containerResource', 'ContainerResource'],
] as const;

/** ValidateCrossVersionObjectReference */
export function validateCrossVersionObjectReference(ref: Record<string, unknown>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name']) {
    const v = str(ref[f]);
    if (v === '') errs.push(required(fldPath.child(f), ''));
    else for (const msg of isValidPathSegmentName(v)) errs.push(invalid(fldPath.child(f), v, msg));
  }
  return errs;
}

/** A quantity field: the parsed value (the codec has already refused unparseable ones), or undefined. */
function quantity(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const q = parseQuantity(String(v));
  return q instanceof Quantity ? q : undefined;
}

function validateMetricTarget(t: Record<string, unknown>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(t.type);
  if (type === '') errs.push(required(fldPath.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errs.push(invalid(fldPath.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  }
  for (const f of ['value', 'averageValue']) {
    const q = quantity(t[f]);
    if (q !== undefined && q.sign() !== 1) errs.push(invalid(fldPath.child(f), q.toString(), 'must be positive'));
  }
  const util = num(t.averageUtilization);
  if (util !== undefined && util < 1) errs.push(invalid(fldPath.child('averageUtilization'), util, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: Record<string, unknown>, fldPath: Path): FieldError[] {
  const name = str(id.name);
  if (name === '') return [required(fldPath.child('name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => invalid(fldPath.child('name'), name, msg));
}

const has = (o: Record<string, unknown>, k: string) => o[k] !== undefined && o[k] !== null;

function validateObjectSource(src: Record<string, unknown>, fldPath: Path): FieldError[] {
  const target = rec(src.target);
  const errs = [
    ...validateCrossVersionObjectReference(rec(src.describedObject), fldPath.child('describedObject')),
    ...validateMetricIdentifier(rec(src.metric), fldPath.child('metric')),
    ...validateMetricTarget(target, fldPath.child('target')),
  ];
  if (!has(target, 'value') && !has(target, 'averageValue')) errs.push(required(fldPath.child('target', 'averageValue'), 'must set either a target value or averageValue'));
  return errs;
}

function validateExternalSource(src: Record<string, unknown>, fldPath: Path): FieldError[] {
  const target = rec(src.target);
  const errs = [...validateMetricIdentifier(rec(src.metric), fldPath.child('metric')), ...validateMetricTarget(target, fldPath.child('target'))];
  if (!has(target, 'value') && !has(target, 'averageValue')) {
    errs.push(required(fldPath.child('target', 'averageValue'), 'must set either a target value for metric or a per-pod target'));
  }
  if (has(target, 'value') && has(target, 'averageValue')) {
    errs.push(forbidden(fldPath.child('target', 'value'), 'may not set both a target value for metric and a per-pod target'));
  }
  return errs;
}

function validatePodsSource(src: Record<string, unknown>, fldPath: Path): FieldError[] {
  const target = rec(src.target);
  const errs = [...validateMetricIdentifier(rec(src.metric), fldPath.child('metric')), ...validateMetricTarget(target, fldPath.child('target'))];
  if (!has(target, 'averageValue')) errs.push(required(fldPath.child('target', 'averageValue'), 'must specify a positive target averageValue'));
  return errs;
}

/** The utilization-or-value rule that resource and container-resource targets share. */
function utilizationOrValue(target: Record<string, unknown>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!has(target, 'averageUtilization') && !has(target, 'averageValue')) {
    errs.push(required(fldPath.child('target', 'averageUtilization'), 'must set either a target raw value or a target utilization'));
  }
  if (has(target, 'averageUtilization') && has(target, 'averageValue')) {
    errs.push(forbidden(fldPath.child('target', 'averageValue'), 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

function validateResourceSource(src: Record<string, unknown>, fldPath: Path): FieldError[] {
  const target = rec(src.target);
  const errs: FieldError[] = str(src.name) === '' ? [required(fldPath.child('name'), 'must specify a resource name')] : [];
  errs.push(...validateMetricTarget(target, fldPath.child('target')), ...utilizationOrValue(target, fldPath));
  return errs;
}

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** ValidateContainerResourceName, for the names without a domain (extended resources are not checked further). */
function validateContainerResourceName(name: string, fldPath: Path): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalid(fldPath, name, msg));
  if (!name.includes('/') && !standardContainerResources.has(name) && !name.startsWith('hugepages-')) {
    errs.push(invalid(fldPath, name, 'must be a standard resource for containers'));
  }
  return errs;
}

function validateContainerResourceSource(src: Record<string, unknown>, fldPath: Path): FieldError[] {
  const target = rec(src.target);
  const errs: FieldError[] = [];
  const name = str(src.name);
  if (name === '') errs.push(required(fldPath.child('name'), 'must specify a resource name'));
  else errs.push(...validateContainerResourceName(name, fldPath.child('name')));
  const container = str(src.container);
  if (container === '') errs.push(required(fldPath.child('container'), 'must specify a container'));
  else errs.push(...isDNS1123Label(container).map((msg) => invalid(fldPath.child('container'), container, msg)));
  errs.push(...validateMetricTarget(target, fldPath.child('target')), ...utilizationOrValue(target, fldPath));
  return errs;
}

const sourceValidators: Record<string, (src: Record<string, unknown>, p: Path) => FieldError[]> = {
  object: validateObjectSource,
  external: validateExternalSource,
  pods: validatePodsSource,
  resource: validateResourceSource,
  containerResource: validateContainerResourceSource,
};

/** validateMetricSpec: the type, then only the first source present is checked, then the type's own source is required and any other forbidden. */
function validateMetricSpec(spec: Record<string, unknown>, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec.type);
  if (type === '') errs.push(required(fldPath.child('type'), 'must specify a metric source type'));
  if (!metricSourceTypes.includes(type)) errs.push(notSupported(fldPath.child('type'), type, metricSourceTypes));
  const present: string[] = [];
  for (const [field] of sources) {
    const src = ptr(spec[field]);
    if (src === undefined) continue;
    present.push(field);
    if (present.length === 1) errs.push(...sourceValidators[field]!(src, fldPath.child(field)));
  }
  const expected = sources.find(([, t]) => t === type)?.[0];
  if (expected === undefined) errs.push(notSupported(fldPath.child('type'), type, metricSourceTypes));
  else if (!present.includes(expected)) errs.push(required(fldPath.child(expected), 'must populate information for the given metric source'));
  if (present.length !== 1) {
    // Go ranges over a set here: the order is Go's map order, sorted for a stable message.
    for (const f of present.filter((p) => p !== expected).sort()) errs.push(forbidden(fldPath.child(f), 'must populate the given metric source only'));
  }
  return errs;
}

function validateScalingRules(rules: Record<string, unknown> | undefined, fldPath: Path): FieldError[] {
  if (rules === undefined) return [];
  const errs: FieldError[] = [];
  const window = num(rules.stabilizationWindowSeconds);
  if (window !== undefined && window < 0) errs.push(invalid(fldPath.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > maxStabilizationWindowSeconds) {
    errs.push(invalid(fldPath.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${maxStabilizationWindowSeconds}`));
  }
  if (typeof rules.selectPolicy === 'string' && !selectPolicies.includes(rules.selectPolicy)) {
    errs.push(notSupported(fldPath.child('selectPolicy'), rules.selectPolicy, selectPolicies));
  }
  const policies = list(rules.policies);
  if (policies.length === 0) errs.push(required(fldPath.child('policies'), 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const policy = rec(p);
    const pp = fldPath.child('policies').index(i);
    const type = str(policy.type);
    if (!policyTypes.includes(type)) errs.push(notSupported(pp.child('type'), type, policyTypes));
    const value = num(policy.value) ?? 0;
    if (value <= 0) errs.push(invalid(pp.child('value'), value, 'must be greater than zero'));
    const period = num(policy.periodSeconds) ?? 0;
    if (period <= 0) errs.push(invalid(pp.child('periodSeconds'), period, 'must be greater than zero'));
    if (period > maxPeriodSeconds) errs.push(invalid(pp.child('periodSeconds'), period, `must be less than or equal to ${maxPeriodSeconds}`));
  });
  return errs;
}

export function validateHorizontalPodAutoscalerSpec(obj: Obj, minReplicasLowerBound: number): FieldError[] {
  const spec = rec(obj.spec);
  const errs: FieldError[] = [];
  const min = num(spec.minReplicas);
  const max = num(spec.maxReplicas) ?? 0;
  if (min !== undefined && min < minReplicasLowerBound) {
    errs.push(invalid(specPath.child('minReplicas'), min, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  if (max < 1) errs.push(invalid(specPath.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(invalid(specPath.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(rec(spec.scaleTargetRef), specPath.child('scaleTargetRef')));
  const metrics = list(spec.metrics);
  metrics.forEach((m, i) => errs.push(...validateMetricSpec(rec(m), specPath.child('metrics').index(i))));
  if (min === 0 && !metrics.some((m) => ['Object', 'External'].includes(str(rec(m).type)))) {
    errs.push(forbidden(specPath.child('metrics'), 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  const behavior = ptr(spec.behavior);
  if (behavior !== undefined) {
    errs.push(...validateScalingRules(ptr(behavior.scaleUp), specPath.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules(ptr(behavior.scaleDown), specPath.child('behavior', 'scaleDown')));
  }
  return errs;
}

export const horizontalPodAutoscalerRules: NativeRules = {
  validate: (_ctx, obj) => validateHorizontalPodAutoscalerSpec(obj, 1),
  validateUpdate: (_ctx, obj, old) => validateHorizontalPodAutoscalerSpec(obj, num(rec(old.spec).minReplicas) === 0 ? 0 : 1),
  status: {
    validateUpdate: (_ctx, obj) => {
      const status = rec(obj.status);
      const errs: FieldError[] = [];
      for (const f of ['currentReplicas', 'desiredReplicas']) {
        const v = num(status[f]) ?? 0;
        if (v < 0) errs.push(invalid(Path.of('status', f), v, IsNegativeErrorMsg));
      }
      return errs;
    },
  },
};
