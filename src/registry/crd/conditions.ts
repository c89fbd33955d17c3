/**
 * CustomResourceDefinition status conditions (apiextensions helpers SetCRDCondition,
 * FindCRDCondition, IsCRDConditionTrue): a condition's lastTransitionTime changes only when its
 * status does.
 */
import { formatRFC3339 } from '../../apimachinery/index.ts';
import type { Obj } from '../rest.ts';
import { isObject, type CRDCondition } from './internal.ts';

export function conditionsOf(crd: Obj): CRDCondition[] {
  const status = isObject(crd.status) ? crd.status : {};
  return Array.isArray(status.conditions) ? (status.conditions as CRDCondition[]) : [];
}

export function findCondition(crd: Obj, type: string): CRDCondition | undefined {
  return conditionsOf(crd).find((c) => c.type === type);
}

export function isConditionTrue(crd: Obj, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/** SetCRDCondition (mutates crd). */
export function setCondition(crd: Obj, cond: { type: string; status: string; reason: string; message: string }, now = new Date()): void {
  if (!isObject(crd.status)) crd.status = {};
  const status = crd.status as Record<string, unknown>;
  const list = Array.isArray(status.conditions) ? (status.conditions as CRDCondition[]) : [];
  status.conditions = list;
  const existing = list.find((c) => c.type === cond.type);
  const ltt = formatRFC3339(now);
  if (!existing) {
    list.push({ type: cond.type, status: cond.status, lastTransitionTime: ltt, reason: cond.reason, message: cond.message });
    return;
  }
  if (existing.status !== cond.status || !existing.lastTransitionTime) existing.lastTransitionTime = ltt;
  existing.status = cond.status;
  existing.reason = cond.reason;
  existing.message = cond.message;
}
