/**
 * Replica arithmetic of the deployment controller (pkg/controller/deployment/util): maxSurge and
 * maxUnavailable resolved against the desired count, the counts summed over ReplicaSets (spec
 * and status), how far a rolling update may scale the new ReplicaSet up, and the ReplicaSet
 * orderings the controller sorts by.
 */
import type { Obj } from '../../rest.ts';

export type Rec = Record<string, unknown>;

export const rec = (v: unknown): Rec => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

export const specOf = (o: Obj): Rec => rec(o.spec);
export const statusOf = (o: Obj): Rec => rec(o.status);
export const metaOf = (o: Obj): Rec => rec(o.metadata);
/** spec.replicas (a stored object always has it: defaulted to 1). */
export const replicasOf = (o: Obj): number => int(specOf(o).replicas);

/** intstr.GetScaledValueFromIntOrPercent */
export function scaledValue(v: unknown, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.endsWith('%')) {
    const p = Number(v.slice(0, -1));
    if (!Number.isInteger(p)) return 0;
    const x = (p * total) / 100;
    return roundUp ? Math.ceil(x) : Math.floor(x);
  }
  return 0;
}

export const isRollingUpdate = (d: Obj): boolean => rec(specOf(d).strategy).type === 'RollingUpdate';

/** ResolveFenceposts: surge rounded up, unavailable down, never both 0. */
export function resolveFenceposts(d: Obj): { surge: number; unavailable: number } {
  const ru = rec(rec(specOf(d).strategy).rollingUpdate);
  const desired = replicasOf(d);
  const surge = scaledValue(ru.maxSurge ?? '25%', desired, true);
  let unavailable = scaledValue(ru.maxUnavailable ?? '25%', desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** MaxSurge */
export const maxSurge = (d: Obj): number => (isRollingUpdate(d) ? resolveFenceposts(d).surge : 0);

/** MaxUnavailable */
export function maxUnavailable(d: Obj): number {
  const n = replicasOf(d);
  if (!isRollingUpdate(d) || n === 0) return 0;
  return Math.min(resolveFenceposts(d).unavailable, n);
}

const sum = (rss: (Obj | undefined)[], f: (rs: Obj) => number): number => rss.reduce((a, rs) => a + (rs ? f(rs) : 0), 0);
/** GetReplicaCountForReplicaSets: the ReplicaSets' spec.replicas. */
export const specReplicas = (rss: (Obj | undefined)[]): number => sum(rss, replicasOf);
/** GetActualReplicaCountForReplicaSets: status.replicas. */
export const actualReplicas = (rss: (Obj | undefined)[]): number => sum(rss, (rs) => int(statusOf(rs).replicas));
export const readyReplicas = (rss: (Obj | undefined)[]): number => sum(rss, (rs) => int(statusOf(rs).readyReplicas));
export const availableReplicas = (rss: (Obj | undefined)[]): number => sum(rss, (rs) => int(statusOf(rs).availableReplicas));

/** FilterActiveReplicaSets: those with spec.replicas > 0. */
export const active = (rss: (Obj | undefined)[]): Obj[] => rss.filter((rs): rs is Obj => rs !== undefined && replicasOf(rs) > 0);

/** NewRSNewReplicas: the new ReplicaSet's size in this step of the rollout. */
export function newRSNewReplicas(d: Obj, all: (Obj | undefined)[], newRS: Obj): number {
  if (!isRollingUpdate(d)) return replicasOf(d);
  const current = specReplicas(all);
  const maxTotal = replicasOf(d) + resolveFenceposts(d).surge;
  if (current >= maxTotal) return replicasOf(newRS);
  const up = Math.min(maxTotal - current, replicasOf(d) - replicasOf(newRS));
  return replicasOf(newRS) + up;
}

/** IsSaturated: the new ReplicaSet has the full count, all of it available. */
export function isSaturated(d: Obj, rs: Obj | undefined): boolean {
  if (!rs) return false;
  const desired = Number(rec(metaOf(rs).annotations)[desiredReplicasAnnotation]);
  return replicasOf(rs) === replicasOf(d) && desired === replicasOf(d) && int(statusOf(rs).availableReplicas) === replicasOf(d);
}

export const desiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const maxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';

const created = (o: Obj): string => String(metaOf(o).creationTimestamp ?? '');
const name = (o: Obj): string => String(metaOf(o).name ?? '');

/** ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: Obj, b: Obj): number {
  const ca = created(a);
  const cb = created(b);
  if (ca === cb) return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
  return ca < cb ? -1 : 1;
}

/** ReplicaSetsBySizeNewer: largest first, then newer first. */
export const bySizeNewer = (a: Obj, b: Obj): number => (replicasOf(a) === replicasOf(b) ? byCreation(b, a) : replicasOf(b) - replicasOf(a));
/** ReplicaSetsBySizeOlder: largest first, then older first. */
export const bySizeOlder = (a: Obj, b: Obj): number => (replicasOf(a) === replicasOf(b) ? byCreation(a, b) : replicasOf(b) - replicasOf(a));
