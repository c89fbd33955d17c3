/**
 * The HorizontalPodAutoscaler printer (autoscaling/v2): REFERENCE `Kind/name`, TARGETS as
 * `current/target` per metric (at most two, then `+ N more...`), MINPODS, MAXPODS, REPLICAS.
 */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, int, isSet, nameOf, obj, objs, quantity, spec, status, str, type Obj } from './cells.ts';

/** The current metric status of source `key` at index i, when reported. */
function current(statuses: Obj[], i: number, key: string): Obj | undefined {
  const st = statuses[i];
  return st && isSet(st[key]) ? obj(st[key]) : undefined;
}

function metricText(m: Obj, statuses: Obj[], i: number): string {
  switch (m.type) {
    case 'External':
    case 'Object': {
      const key = m.type === 'External' ? 'external' : 'object';
      const target = obj(obj(m[key]).target);
      const cur = current(statuses, i, key);
      if (isSet(target.averageValue)) {
        const c = cur && isSet(obj(cur.current).averageValue) ? quantity(obj(cur.current).averageValue) : '<unknown>';
        return `${c}/${quantity(target.averageValue)} (avg)`;
      }
      const c = cur ? quantity(obj(cur.current).value) : '<unknown>';
      return `${c}/${quantity(target.value)}`;
    }
    case 'Pods': {
      const cur = current(statuses, i, 'pods');
      const c = cur ? quantity(obj(cur.current).averageValue) : '<unknown>';
      return `${c}/${quantity(obj(obj(m.pods).target).averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = m.type === 'Resource' ? 'resource' : 'containerResource';
      const src = obj(m[key]);
      const target = obj(src.target);
      const cur = current(statuses, i, key);
      if (isSet(target.averageValue)) {
        const c = cur ? quantity(obj(cur.current).averageValue) : '<unknown>';
        return `${str(src.name)}: ${c}/${quantity(target.averageValue)}`;
      }
      const c = cur && isSet(obj(cur.current).averageUtilization) ? `${int(obj(cur.current).averageUtilization)}%` : '<unknown>';
      const t = isSet(target.averageUtilization) ? `${int(target.averageUtilization)}%` : '<auto>';
      return `${str(src.name)}: ${c}/${t}`;
    }
  }
  return '<unknown type>';
}

/** formatHPAMetrics. */
export function formatHPAMetrics(specs: unknown, statuses: unknown): string {
  const ms = objs(specs);
  if (ms.length === 0) return '<none>';
  const sts = objs(statuses);
  const list = ms.map((m, i) => metricText(m, sts, i));
  const max = 2;
  if (list.length > max) return `${list.slice(0, max).join(', ')} + ${list.length - max} more...`;
  return list.join(', ');
}

export const horizontalPodAutoscalerPrinter = printer(
  [
    nameColumn,
    col('Reference', 'string', 'autoscalingv2beta1.HorizontalPodAutoscalerSpec.scaleTargetRef'),
    col('Targets', 'string', 'autoscalingv2beta1.HorizontalPodAutoscalerSpec.metrics'),
    col('MinPods', 'string', 'autoscalingv2beta1.HorizontalPodAutoscalerSpec.minReplicas'),
    col('MaxPods', 'string', 'autoscalingv2beta1.HorizontalPodAutoscalerSpec.maxReplicas'),
    col('Replicas', 'string', 'autoscalingv2beta1.HorizontalPodAutoscalerStatus.currentReplicas'),
    ageColumn,
  ],
  (o, now) => {
    const s = spec(o);
    const ref = obj(s.scaleTargetRef);
    const minPods = isSet(s.minReplicas) ? String(int(s.minReplicas)) : '<unset>';
    return [nameOf(o), `${str(ref.kind)}/${str(ref.name)}`, formatHPAMetrics(s.metrics, status(o).currentMetrics), minPods, int(s.maxReplicas), int(status(o).currentReplicas), age(o, now)];
  },
);
