/**
 * Managed fields as structured-merge-diff holds them (`fieldpath.ManagedFields`): per manager
 * identifier, the set of paths it owns, the API version those paths are in, and whether it got
 * them by applying (rather than by an update).
 */
import type { FieldSet } from './set.ts';

export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Manager identifier → its fields. */
export type ManagedFields = Map<string, VersionedSet>;

export function versionedSet(set: FieldSet, apiVersion: string, applied: boolean): VersionedSet {
  return { set, apiVersion, applied };
}

/** ManagedFields.Equals: same managers with the same versions, applied flags and sets. */
export function managedFieldsEqual(a: ManagedFields, b: ManagedFields): boolean {
  if (a.size !== b.size) return false;
  for (const [m, l] of a) {
    const r = b.get(m);
    if (r === undefined || l.apiVersion !== r.apiVersion || l.applied !== r.applied || !l.set.equals(r.set)) return false;
  }
  return true;
}

/**
 * ManagedFields.Difference: per manager, what differs between a and b (a manager whose version
 * changed counts whole). Empty when they agree on every set and version.
 */
export function managedFieldsDifference(a: ManagedFields, b: ManagedFields): ManagedFields {
  const diff: ManagedFields = new Map();
  for (const [m, l] of a) {
    const r = b.get(m);
    if (r === undefined) {
      if (!l.set.empty()) diff.set(m, l);
      continue;
    }
    if (l.apiVersion !== r.apiVersion) {
      diff.set(m, r);
      continue;
    }
    const s = l.set.difference(r.set).union(r.set.difference(l.set));
    if (!s.empty()) diff.set(m, versionedSet(s, r.apiVersion, false));
  }
  for (const [m, r] of b) if (!a.has(m) && !r.set.empty()) diff.set(m, r);
  return diff;
}
