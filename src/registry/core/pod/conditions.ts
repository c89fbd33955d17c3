/**
 * Pod status conditions as podutil.UpdatePodCondition writes them: a condition of the type is
 * added or replaced, lastTransitionTime moving only when the status changes, lastProbeTime kept
 * (null, Go's zero time, for a new one).
 */
import { formatRFC3339 } from '../../../apimachinery/index.ts';
import type { Obj } from '../../rest.ts';

export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

const isRec = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** UpdatePodCondition (MUTATES pod): true when the pod's conditions changed. */
export function updatePodCondition(pod: Obj, c: PodCondition, now = new Date()): boolean {
  if (!isRec(pod.status)) pod.status = {};
  const status = pod.status as Record<string, unknown>;
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Array<Record<string, unknown>>) : [];
  const i = conditions.findIndex((x) => isRec(x) && x.type === c.type);
  const next: Record<string, unknown> = { type: c.type, status: c.status, lastProbeTime: null, lastTransitionTime: formatRFC3339(now) };
  if (c.reason) next.reason = c.reason;
  if (c.message) next.message = c.message;
  if (i < 0) {
    status.conditions = [...conditions, next];
    return true;
  }
  const old = conditions[i]!;
  if (old.status === c.status) next.lastTransitionTime = old.lastTransitionTime;
  next.lastProbeTime = old.lastProbeTime ?? null;
  const same = old.status === c.status && (old.reason ?? '') === (c.reason ?? '') && (old.message ?? '') === (c.message ?? '');
  if (same) return false;
  conditions[i] = next;
  status.conditions = conditions;
  return true;
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Obj): boolean {
  const status = pod.status;
  const conditions = isRec(status) && Array.isArray(status.conditions) ? status.conditions : [];
  return conditions.some((c) => isRec(c) && c.type === 'Ready' && c.status === 'True');
}
