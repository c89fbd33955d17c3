/**
 * autoscaling/v1 HorizontalPodAutoscaler over the autoscaling/v2 storage, with upstream's
 * conversion (`pkg/apis/autoscaling/v1/conversion.go`): v1's targetCPUUtilizationPercentage is
 * the v2 Resource metric of cpu with an averageUtilization target (and 80 when no metric is
 * given, the default autoscaling/v1 always had), currentCPUUtilizationPercentage the cpu
 * Resource status. What v1 cannot express travels in annotations, so that a v1 client's read,
 * change and write keeps it: the other metrics and every current metric (JSON of autoscaling/v1's
 * metric types, the v2beta1 shape), the behavior (JSON of the internal type, which has no JSON
 * tags: Go's field names) and the conditions. Annotations that do not parse are ignored, and
 * every round-trip annotation is dropped on the way into storage.
 */
import type { Obj } from '../rest.ts';
import type { VersionConversion } from './converted-store.ts';

export const metricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
export const metricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
export const behaviorAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';
const roundTrip = [metricSpecsAnnotation, behaviorAnnotation, metricStatusesAnnotation, conditionsAnnotation];
/** autoscaling.DefaultCPUUtilization */
const defaultCPUUtilization = 80;

type J = Record<string, unknown>;
const rec = (v: unknown): J | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as J) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** An object of the given entries in order, without the undefined ones (Go's omitempty of pointers). */
function obj(...entries: [string, unknown][]): J {
  const out: J = {};
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return out;
}

/** A Quantity as Go marshals it (a string); a zero Quantity is "0". */
const quantity = (v: unknown): string => (v === undefined || v === null ? '0' : String(v));
const optQuantity = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));
const ref = (r: unknown) => {
  const o = rec(r) ?? {};
  return obj(['kind', o.kind ?? ''], ['name', o.name ?? ''], ['apiVersion', o.apiVersion]);
};

const isCPUResource = (m: J): boolean => m.type === 'Resource' && rec(m.resource)?.name === 'cpu';

// ---- v2 metrics -> v1 metric types (the annotations' JSON) ----

function metricSpecToV1(m: J): J {
  const o = rec(m.object);
  const p = rec(m.pods);
  const r = rec(m.resource);
  const c = rec(m.containerResource);
  const e = rec(m.external);
  const target = (x: J | undefined) => rec(x?.target) ?? {};
  const metric = (x: J | undefined) => rec(x?.metric) ?? {};
  return obj(
    ['type', m.type ?? ''],
    ['object', o && obj(['target', ref(o.describedObject)], ['metricName', metric(o).name ?? ''], ['targetValue', quantity(target(o).value)], ['selector', metric(o).selector], ['averageValue', optQuantity(target(o).averageValue)])],
    ['pods', p && obj(['metricName', metric(p).name ?? ''], ['targetAverageValue', quantity(target(p).averageValue)], ['selector', metric(p).selector])],
    ['resource', r && obj(['name', r.name ?? ''], ['targetAverageUtilization', target(r).averageUtilization], ['targetAverageValue', optQuantity(target(r).averageValue)])],
    ['containerResource', c && obj(['name', c.name ?? ''], ['targetAverageUtilization', target(c).averageUtilization], ['targetAverageValue', optQuantity(target(c).averageValue)], ['container', c.container ?? ''])],
    ['external', e && obj(['metricName', metric(e).name ?? ''], ['metricSelector', metric(e).selector], ['targetValue', optQuantity(target(e).value)], ['targetAverageValue', optQuantity(target(e).averageValue)])],
  );
}

function metricStatusToV1(m: J): J {
  const o = rec(m.object);
  const p = rec(m.pods);
  const r = rec(m.resource);
  const c = rec(m.containerResource);
  const e = rec(m.external);
  const current = (x: J | undefined) => rec(x?.current) ?? {};
  const metric = (x: J | undefined) => rec(x?.metric) ?? {};
  return obj(
    ['type', m.type ?? ''],
    ['object', o && obj(['target', ref(o.describedObject)], ['metricName', metric(o).name ?? ''], ['currentValue', quantity(current(o).value)], ['selector', metric(o).selector], ['averageValue', optQuantity(current(o).averageValue)])],
    ['pods', p && obj(['metricName', metric(p).name ?? ''], ['currentAverageValue', quantity(current(p).averageValue)], ['selector', metric(p).selector])],
    ['resource', r && obj(['name', r.name ?? ''], ['currentAverageUtilization', current(r).averageUtilization], ['currentAverageValue', quantity(current(r).averageValue)])],
    ['containerResource', c && obj(['name', c.name ?? ''], ['currentAverageUtilization', current(c).averageUtilization], ['currentAverageValue', quantity(current(c).averageValue)], ['container', c.container ?? ''])],
    ['external', e && obj(['metricName', metric(e).name ?? ''], ['metricSelector', metric(e).selector], ['currentValue', quantity(current(e).value)], ['currentAverageValue', optQuantity(current(e).averageValue)])],
  );
}

// ---- v1 metric types -> v2 metrics ----

const identifier = (name: unknown, selector: unknown) => obj(['name', name ?? ''], ['selector', selector ?? undefined]);

function metricSpecFromV1(m: J): J {
  const o = rec(m.object);
  const p = rec(m.pods);
  const r = rec(m.resource);
  const c = rec(m.containerResource);
  const e = rec(m.external);
  const resourceTarget = (x: J) =>
    obj(['type', x.targetAverageUtilization === undefined || x.targetAverageUtilization === null ? 'AverageValue' : 'Utilization'], ['averageValue', x.targetAverageValue ?? undefined], ['averageUtilization', x.targetAverageUtilization ?? undefined]);
  return obj(
    ['type', m.type ?? ''],
    ['object', o && obj(['describedObject', ref(o.target)], ['target', obj(['type', o.averageValue === undefined || o.averageValue === null ? 'Value' : 'AverageValue'], ['value', quantity(o.targetValue)], ['averageValue', o.averageValue ?? undefined])], ['metric', identifier(o.metricName, o.selector)])],
    ['pods', p && obj(['metric', identifier(p.metricName, p.selector)], ['target', obj(['type', 'AverageValue'], ['averageValue', quantity(p.targetAverageValue)])])],
    ['resource', r && obj(['name', r.name ?? ''], ['target', resourceTarget(r)])],
    ['containerResource', c && obj(['name', c.name ?? ''], ['target', resourceTarget(c)], ['container', c.container ?? ''])],
    ['external', e && obj(['metric', identifier(e.metricName, e.metricSelector)], ['target', obj(['type', e.targetValue === undefined || e.targetValue === null ? 'AverageValue' : 'Value'], ['value', e.targetValue ?? undefined], ['averageValue', e.targetAverageValue ?? undefined])])],
  );
}

function metricStatusFromV1(m: J): J {
  const o = rec(m.object);
  const p = rec(m.pods);
  const r = rec(m.resource);
  const c = rec(m.containerResource);
  const e = rec(m.external);
  const resourceCurrent = (x: J) => obj(['averageValue', quantity(x.currentAverageValue)], ['averageUtilization', x.currentAverageUtilization ?? undefined]);
  return obj(
    ['type', m.type ?? ''],
    ['object', o && obj(['metric', identifier(o.metricName, o.selector)], ['current', obj(['value', quantity(o.currentValue)], ['averageValue', o.averageValue ?? undefined])], ['describedObject', ref(o.target)])],
    ['pods', p && obj(['metric', identifier(p.metricName, p.selector)], ['current', obj(['averageValue', quantity(p.currentAverageValue)])])],
    ['resource', r && obj(['name', r.name ?? ''], ['current', resourceCurrent(r)])],
    ['containerResource', c && obj(['name', c.name ?? ''], ['current', resourceCurrent(c)], ['container', c.container ?? ''])],
    ['external', e && obj(['metric', identifier(e.metricName, e.metricSelector)], ['current', obj(['value', quantity(e.currentValue)], ['averageValue', e.currentAverageValue ?? undefined])])],
  );
}

// ---- behavior: the internal type's JSON (Go field names, every field written) ----

const policyFields = [['type', 'Type'], ['value', 'Value'], ['periodSeconds', 'PeriodSeconds']] as const;
const rulesFields = [['stabilizationWindowSeconds', 'StabilizationWindowSeconds'], ['selectPolicy', 'SelectPolicy'], ['policies', 'Policies'], ['tolerance', 'Tolerance']] as const;

function rulesToInternal(r: J | undefined): J | null {
  if (!r) return null;
  const out: J = {};
  for (const [json, go] of rulesFields) {
    const v = r[json];
    if (json === 'policies') out[go] = Array.isArray(v) ? v.map((p) => Object.fromEntries(policyFields.map(([pj, pg]) => [pg, rec(p)?.[pj] ?? (pj === 'type' ? '' : 0)]))) : null;
    else out[go] = v === undefined ? null : json === 'tolerance' ? String(v) : v;
  }
  return out;
}

/** encoding/json matches field names case-insensitively when decoding. */
function field(o: J, name: string): unknown {
  if (name in o) return o[name];
  const k = Object.keys(o).find((x) => x.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : o[k];
}

function rulesFromInternal(r: unknown): J | undefined {
  const o = rec(r);
  if (!o) return undefined;
  const out: J = {};
  for (const [json, go] of rulesFields) {
    const v = field(o, go);
    if (v === undefined || v === null) continue;
    out[json] = json === 'policies' ? arr(v).map((p) => obj(...policyFields.map(([pj, pg]) => [pj, field(rec(p) ?? {}, pg)] as [string, unknown]))) : v;
  }
  return out;
}

/** JSON.parse that answers undefined for text that does not parse (upstream ignores such annotations). */
function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function annotationsOf(o: Obj): Record<string, string> {
  return (rec(rec(o.metadata)?.annotations) ?? {}) as Record<string, string>;
}

/** MUTATES o: the annotations without the round-trip ones (none left: no annotations). */
function dropRoundTrip(o: Obj, keep: Record<string, string> = {}): void {
  const m = rec(o.metadata);
  if (!m) return;
  const a = { ...annotationsOf(o) };
  for (const k of roundTrip) delete a[k];
  Object.assign(a, keep);
  if (Object.keys(a).length === 0) delete m.annotations;
  else m.annotations = a;
}

const cpuUtilization = (kind: 'target' | 'current', value: unknown): J => ({
  type: 'Resource',
  resource: { name: 'cpu', [kind]: kind === 'target' ? { type: 'Utilization', averageUtilization: value } : { averageUtilization: value } },
});

/** v1 spec -> v2 spec: the cpu target, the other metrics and the behavior from the annotations. */
function specToV2(spec: J, ann: Record<string, string>): J {
  let metrics: J[] = typeof spec.targetCPUUtilizationPercentage === 'number' ? [cpuUtilization('target', spec.targetCPUUtilizationPercentage)] : [];
  const others = parse(ann[metricSpecsAnnotation]);
  if (Array.isArray(others)) metrics = [...others.map((m) => metricSpecFromV1(rec(m) ?? {})), ...metrics];
  const behaviorIn = rec(parse(ann[behaviorAnnotation]));
  let behavior: J | undefined;
  if (behaviorIn) {
    const b = obj(['scaleUp', rulesFromInternal(field(behaviorIn, 'ScaleUp'))], ['scaleDown', rulesFromInternal(field(behaviorIn, 'ScaleDown'))]);
    if (Object.keys(b).length > 0) behavior = b;
  }
  // autoscaling/v1 always had 80% cpu utilization as its implicit default.
  if (metrics.length === 0) metrics = [cpuUtilization('target', defaultCPUUtilization)];
  return obj(['scaleTargetRef', spec.scaleTargetRef], ['minReplicas', spec.minReplicas], ['maxReplicas', spec.maxReplicas], ['metrics', metrics], ['behavior', behavior]);
}

/** v1 status -> v2 status: the cpu utilization, or every current metric and the conditions from the annotations. */
function statusToV2(status: J, ann: Record<string, string>): J {
  let currentMetrics: J[] | undefined = typeof status.currentCPUUtilizationPercentage === 'number' ? [cpuUtilization('current', status.currentCPUUtilizationPercentage)] : undefined;
  const current = parse(ann[metricStatusesAnnotation]);
  if (Array.isArray(current)) currentMetrics = current.map((m) => metricStatusFromV1(rec(m) ?? {}));
  const conditions = parse(ann[conditionsAnnotation]);
  return obj(
    ['observedGeneration', status.observedGeneration],
    ['lastScaleTime', status.lastScaleTime],
    ['currentReplicas', status.currentReplicas],
    ['desiredReplicas', status.desiredReplicas],
    ['currentMetrics', currentMetrics],
    ['conditions', Array.isArray(conditions) ? conditions : undefined],
  );
}

/** What v1 cannot express of a v2 object, as the round-trip annotations. */
function roundTripAnnotations(spec: J, status: J | undefined): Record<string, string> {
  const metrics = arr(spec.metrics).map((m) => rec(m) ?? {});
  const others = metrics.filter((m) => !(isCPUResource(m) && rec(rec(m.resource)?.target)?.averageUtilization !== undefined));
  const keep: Record<string, string> = {};
  if (others.length > 0) keep[metricSpecsAnnotation] = JSON.stringify(others.map(metricSpecToV1));
  const currentMetrics = arr(status?.currentMetrics).map((m) => rec(m) ?? {});
  if (currentMetrics.length > 0) keep[metricStatusesAnnotation] = JSON.stringify(currentMetrics.map(metricStatusToV1));
  const behavior = rec(spec.behavior);
  if (behavior) keep[behaviorAnnotation] = JSON.stringify({ ScaleUp: rulesToInternal(rec(behavior.scaleUp)), ScaleDown: rulesToInternal(rec(behavior.scaleDown)) });
  const conditions = arr(status?.conditions);
  if (conditions.length > 0) {
    keep[conditionsAnnotation] = JSON.stringify(
      conditions.map((c) => {
        const x = rec(c) ?? {};
        return obj(['type', x.type ?? ''], ['status', x.status ?? ''], ['lastTransitionTime', x.lastTransitionTime ?? null], ['reason', x.reason || undefined], ['message', x.message || undefined]);
      }),
    );
  }
  return keep;
}

/** v2 spec -> v1 spec: the first cpu Resource metric with a utilization target (kubernetes#101370). */
function specToV1(spec: J): J {
  const utilization = (m: J) => rec(rec(m.resource)?.target)?.averageUtilization;
  const cpu = arr(spec.metrics).map((m) => rec(m) ?? {}).find((m) => isCPUResource(m) && typeof utilization(m) === 'number');
  const target = cpu && utilization(cpu);
  return obj(['scaleTargetRef', spec.scaleTargetRef], ['minReplicas', spec.minReplicas], ['maxReplicas', spec.maxReplicas], ['targetCPUUtilizationPercentage', typeof target === 'number' ? target : undefined]);
}

/** v2 status -> v1 status: the (last) cpu Resource metric's current utilization. */
function statusToV1(status: J): J {
  let currentCPU: unknown;
  for (const m of arr(status.currentMetrics).map((x) => rec(x) ?? {})) if (isCPUResource(m)) currentCPU = rec(rec(m.resource)?.current)?.averageUtilization ?? currentCPU;
  return obj(
    ['observedGeneration', status.observedGeneration],
    ['lastScaleTime', status.lastScaleTime],
    ['currentReplicas', status.currentReplicas],
    ['desiredReplicas', status.desiredReplicas],
    ['currentCPUUtilizationPercentage', currentCPU],
  );
}

/**
 * An object without a spec (or status) keeps none: Go's struct would be there, zero (the cpu
 * default in it), and fail the native validation that is not served yet; the schema reports it.
 */
export const hpaV1Conversion: VersionConversion = {
  /** v1 -> v2 (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler). */
  toStorage(o) {
    const ann = annotationsOf(o);
    const spec = rec(o.spec);
    const status = rec(o.status);
    if (spec) o.spec = specToV2(spec, ann);
    if (status) o.status = statusToV2(status, ann);
    dropRoundTrip(o);
    return o;
  },
  /** v2 -> v1 (Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler). */
  fromStorage(o) {
    const spec = rec(o.spec);
    const status = rec(o.status);
    dropRoundTrip(o, roundTripAnnotations(spec ?? {}, status));
    if (spec) o.spec = specToV1(spec);
    if (status) o.status = statusToV1(status);
    return o;
  },
};
