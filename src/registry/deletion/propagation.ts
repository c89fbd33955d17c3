/**
 * The apiserver's side of garbage collection (k8s.io/apiserver's generic registry store,
 * `deletionFinalizersForGarbageCollection`, `shouldOrphanDependents`, `shouldDeleteDependents`):
 * a delete's propagation policy becomes finalizers on the object — `orphan` (the collector takes
 * the owner's references out of its dependents first) or `foregroundDeletion` (the collector
 * deletes the dependents first) — which keep the object, with its deletionTimestamp, until the
 * collector removes them. Background leaves neither: the object goes at once and its dependents
 * after it.
 */
import type { DeleteOptions, Obj } from '../rest.ts';

export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';

/**
 * A kind's DefaultGarbageCollectionPolicy: DeleteDependents for most, OrphanDependents where
 * upstream keeps its pre-collector behaviour (core/v1 ReplicationControllers, batch/v1 Jobs),
 * Unsupported where propagation does not apply (Events).
 */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

function finalizersOf(obj: Obj): string[] {
  const m = obj.metadata as Record<string, unknown> | undefined;
  const f = m?.finalizers;
  return Array.isArray(f) ? (f.filter((x) => typeof x === 'string') as string[]) : [];
}

/** shouldOrphanDependents: the options, else the object's own finalizers, else the kind's default. */
function shouldOrphan(finalizers: readonly string[], opts: DeleteOptions, policy: GarbageCollectionPolicy): boolean {
  if (policy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy === 'Orphan') return true;
  if (opts.propagationPolicy === 'Background' || opts.propagationPolicy === 'Foreground') return false;
  for (const f of finalizers) {
    if (f === orphanFinalizer) return true;
    if (f === foregroundFinalizer) return false;
  }
  return policy === 'OrphanDependents';
}

/** shouldDeleteDependents: Foreground by the options or the object's finalizers; never by default. */
function shouldDeleteInForeground(finalizers: readonly string[], opts: DeleteOptions, policy: GarbageCollectionPolicy): boolean {
  if (policy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy === 'Foreground') return true;
  if (opts.propagationPolicy === 'Background' || opts.propagationPolicy === 'Orphan') return false;
  for (const f of finalizers) {
    if (f === foregroundFinalizer) return true;
    if (f === orphanFinalizer) return false;
  }
  return false;
}

/**
 * The object's finalizers as this delete leaves them (both garbage-collection finalizers taken
 * out, then the one the policy asks for appended), or undefined when they do not change.
 */
export function deletionFinalizers(obj: Obj, opts: DeleteOptions, policy: GarbageCollectionPolicy): string[] | undefined {
  const current = finalizersOf(obj);
  const next = current.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (shouldOrphan(current, opts, policy)) next.push(orphanFinalizer);
  if (shouldDeleteInForeground(current, opts, policy)) next.push(foregroundFinalizer);
  const a = new Set(current);
  const b = new Set(next);
  if (a.size === b.size && [...a].every((f) => b.has(f))) return undefined;
  return next;
}
