/**
 * The revision annotations of a Deployment and its ReplicaSets
 * (pkg/controller/deployment/util): `deployment.kubernetes.io/revision` on both,
 * `revision-history` on a ReplicaSet brought back by a rollback, the Deployment's own
 * annotations copied onto its ReplicaSets (but the controller's and kubectl's), and the replica
 * annotations a proportional scale reads.
 */
import type { Obj } from '../../rest.ts';
import { desiredReplicasAnnotation, maxReplicasAnnotation, maxSurge, metaOf, rec, replicasOf } from './replicas.ts';

export const revisionAnnotation = 'deployment.kubernetes.io/revision';
export const revisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
/** Upstream's maxRevHistoryLengthInChars. */
const maxHistoryChars = 2000;

/** annotationsToSkip: never copied from a Deployment to its ReplicaSets. */
const skipped = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  revisionAnnotation,
  revisionHistoryAnnotation,
  desiredReplicasAnnotation,
  maxReplicasAnnotation,
  'deprecated.deployment.rollback.to',
]);

export const annotationsOf = (o: Obj): Record<string, string> => rec(metaOf(o).annotations) as Record<string, string>;

/** Sets one annotation (MUTATES o); true when it changed. */
export function setAnnotation(o: Obj, key: string, value: string): boolean {
  const m = metaOf(o);
  const a = annotationsOf(o);
  if (a[key] === value) return false;
  m.annotations = { ...a, [key]: value };
  return true;
}

/** Revision: the ReplicaSet's revision number (0 without one, undefined when unparsable). */
export function revisionOf(o: Obj): number | undefined {
  const v = annotationsOf(o)[revisionAnnotation];
  if (v === undefined) return 0;
  return /^-?\d+$/.test(v) ? Number(v) : undefined;
}

/** MaxRevision */
export const maxRevision = (rss: Obj[]): number => rss.reduce((m, rs) => Math.max(m, revisionOf(rs) ?? 0), 0);

/** SetReplicasAnnotations (MUTATES rs): desired-replicas and max-replicas; true when changed. */
export function setReplicasAnnotations(rs: Obj, desired: number, max: number): boolean {
  const a = setAnnotation(rs, desiredReplicasAnnotation, String(desired));
  const b = setAnnotation(rs, maxReplicasAnnotation, String(max));
  return a || b;
}

/** copyDeploymentAnnotationsToReplicaSet (MUTATES rs). */
function copyAnnotations(d: Obj, rs: Obj): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(annotationsOf(d))) {
    if (skipped.has(k)) continue;
    if (setAnnotation(rs, k, v)) changed = true;
  }
  return changed;
}

/**
 * SetNewReplicaSetAnnotations (MUTATES rs): the Deployment's annotations, the new revision (the
 * old one appended to the revision history when a rollback brings the ReplicaSet back), and the
 * replica annotations for a ReplicaSet about to be created. True when anything changed.
 */
export function setNewReplicaSetAnnotations(d: Obj, rs: Obj, newRevision: number, exists: boolean): boolean {
  let changed = copyAnnotations(d, rs);
  const had = annotationsOf(rs)[revisionAnnotation];
  const oldRevision = revisionOf(rs);
  if (oldRevision === undefined) return false;
  if (oldRevision < newRevision) {
    setAnnotation(rs, revisionAnnotation, String(newRevision));
    changed = true;
  }
  if (had !== undefined && oldRevision < newRevision) {
    const history = annotationsOf(rs)[revisionHistoryAnnotation] ?? '';
    const old = history.split(',');
    if (old[0]!.length === 0) setAnnotation(rs, revisionHistoryAnnotation, had);
    else {
      let total = history.length + had.length + 1;
      let start = 0;
      while (total > maxHistoryChars && start < old.length) {
        total -= old[start]!.length + 1;
        start++;
      }
      if (total <= maxHistoryChars) setAnnotation(rs, revisionHistoryAnnotation, [...old.slice(start), had].join(','));
    }
  }
  if (!exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d) + maxSurge(d))) changed = true;
  return changed;
}
