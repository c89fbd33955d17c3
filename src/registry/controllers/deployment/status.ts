/**
 * A Deployment's status as the deployment controller computes it (calculateStatus,
 * syncRolloutStatus and the condition helpers of pkg/controller/deployment): counts from its
 * ReplicaSets' status, the Available condition from maxUnavailable, and the Progressing
 * condition's reasons and messages as upstream words them. Without kubelets no ReplicaSet here
 * has pods, so the counts are what the ReplicaSets' status says (0 unless something writes it).
 */
import { nowRFC3339 } from '../../../apimachinery/index.ts';
import type { Obj } from '../../rest.ts';
import {
  actualReplicas, availableReplicas, maxUnavailable, metaOf, readyReplicas, replicasOf, specOf, specReplicas, statusOf, type Rec,
} from './replicas.ts';

export interface Condition {
  type: string;
  status: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export const reasons = {
  newRSCreated: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  rsUpdated: 'ReplicaSetUpdated',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumAvailable: 'MinimumReplicasAvailable',
  minimumUnavailable: 'MinimumReplicasUnavailable',
} as const;


/** NewDeploymentCondition */
export const newCondition = (type: string, status: string, reason: string, message: string): Condition => {
  const t = nowRFC3339();
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
};

export const conditionsOf = (status: Rec): Condition[] => (Array.isArray(status.conditions) ? (status.conditions as Condition[]) : []);
export const getCondition = (status: Rec, type: string): Condition | undefined => conditionsOf(status).find((c) => c.type === type);

/** RemoveDeploymentCondition (MUTATES status). */
export function removeCondition(status: Rec, type: string): void {
  status.conditions = conditionsOf(status).filter((c) => c.type !== type);
  if ((status.conditions as Condition[]).length === 0) delete status.conditions;
}

/**
 * SetDeploymentCondition (MUTATES status): nothing when status and reason are unchanged; the
 * transition time kept when only the reason changes; the condition moved to the end.
 */
export function setCondition(status: Rec, c: Condition): void {
  const cur = getCondition(status, c.type);
  if (cur && cur.status === c.status && cur.reason === c.reason) return;
  const next = cur && cur.status === c.status ? { ...c, lastTransitionTime: cur.lastTransitionTime } : c;
  status.conditions = [...conditionsOf(status).filter((x) => x.type !== c.type), next];
}

export const hasProgressDeadline = (d: Obj): boolean => {
  const p = specOf(d).progressDeadlineSeconds;
  return typeof p === 'number' && p !== 2147483647;
};

/** calculateStatus */
export function calculateStatus(all: (Obj | undefined)[], newRS: Obj | undefined, d: Obj): Rec {
  const available = availableReplicas(all);
  const unavailable = Math.max(specReplicas(all) - available, 0);
  const old = statusOf(d);
  const status: Rec = {
    observedGeneration: metaOf(d).generation,
    replicas: actualReplicas(all),
    updatedReplicas: actualReplicas([newRS]),
    readyReplicas: readyReplicas(all),
    availableReplicas: available,
    unavailableReplicas: unavailable,
  };
  if (old.collisionCount !== undefined) status.collisionCount = old.collisionCount;
  if (conditionsOf(old).length > 0) status.conditions = conditionsOf(old).map((c) => ({ ...c }));
  if (available >= replicasOf(d) - maxUnavailable(d)) {
    setCondition(status, newCondition('Available', 'True', reasons.minimumAvailable, 'Deployment has minimum availability.'));
  } else {
    setCondition(status, newCondition('Available', 'False', reasons.minimumUnavailable, 'Deployment does not have minimum availability.'));
  }
  return status;
}

/** DeploymentComplete */
export function deploymentComplete(d: Obj, s: Rec): boolean {
  const n = replicasOf(d);
  return s.updatedReplicas === n && s.replicas === n && s.availableReplicas === n && Number(s.observedGeneration) >= Number(metaOf(d).generation);
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available replicas. */
export function deploymentProgressing(d: Obj, s: Rec): boolean {
  const o = statusOf(d);
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  return (
    n(s.updatedReplicas) > n(o.updatedReplicas) ||
    n(s.replicas) - n(s.updatedReplicas) < n(o.replicas) - n(o.updatedReplicas) ||
    n(s.readyReplicas) > n(o.readyReplicas) ||
    n(s.availableReplicas) > n(o.availableReplicas)
  );
}

/** Milliseconds until the Progressing condition's deadline passes (negative: passed; undefined: none). */
export function untilDeadline(d: Obj): number | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const c = getCondition(statusOf(d), 'Progressing');
  if (!c || c.reason === reasons.newRSAvailable || c.reason === reasons.timedOut) return undefined;
  return Date.parse(c.lastUpdateTime) + Number(specOf(d).progressDeadlineSeconds) * 1000 - Date.now();
}

/** DeploymentTimedOut */
export function deploymentTimedOut(d: Obj): boolean {
  const c = getCondition(statusOf(d), 'Progressing');
  if (c?.reason === reasons.timedOut) return hasProgressDeadline(d);
  const left = untilDeadline(d);
  return left !== undefined && left < 0;
}

/** syncRolloutStatus's new status: calculateStatus and the Progressing condition. */
export function rolloutStatus(all: (Obj | undefined)[], newRS: Obj | undefined, d: Obj): Rec {
  const s = calculateStatus(all, newRS, d);
  if (!hasProgressDeadline(d)) removeCondition(s, 'Progressing');
  const cur = getCondition(statusOf(d), 'Progressing');
  const complete = s.replicas === s.updatedReplicas && cur?.reason === reasons.newRSAvailable;
  const rsName = newRS ? String(metaOf(newRS).name) : undefined;
  const subject = rsName !== undefined ? `ReplicaSet ${JSON.stringify(rsName)}` : `Deployment ${JSON.stringify(String(metaOf(d).name))}`;
  if (hasProgressDeadline(d) && !complete) {
    if (deploymentComplete(d, s)) {
      setCondition(s, newCondition('Progressing', 'True', reasons.newRSAvailable, `${subject} has successfully progressed.`));
    } else if (deploymentProgressing(d, s)) {
      const c = newCondition('Progressing', 'True', reasons.rsUpdated, `${subject} is progressing.`);
      if (cur) {
        if (cur.status === 'True') c.lastTransitionTime = cur.lastTransitionTime;
        removeCondition(s, 'Progressing');
      }
      setCondition(s, c);
    } else if (deploymentTimedOut(d)) {
      setCondition(s, newCondition('Progressing', 'False', reasons.timedOut, `${subject} has timed out progressing.`));
    }
  }
  return s;
}

/** Status equality as reflect.DeepEqual sees two DeploymentStatus values (absent conditions = none). */
export function sameStatus(a: Rec, b: Rec): boolean {
  const keys = ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount'];
  const n = (v: unknown) => (v === undefined ? 0 : v);
  if (keys.some((k) => n(a[k]) !== n(b[k]))) return false;
  const flat = (s: Rec) => JSON.stringify(conditionsOf(s).map((c) => [c.type, c.status, c.lastUpdateTime, c.lastTransitionTime, c.reason, c.message]));
  return flat(a) === flat(b);
}

