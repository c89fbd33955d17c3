/**
 * Apply conflicts (structured-merge-diff `merge/conflict.go`): a field another manager owns and
 * an apply would change. One prints as `conflict with "mgr": .spec.replicas`; several are grouped
 * by manager.
 */
import { pathsEqual, pathString, type Path } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import type { ManagedFields } from '../fieldpath/managers.ts';
import { goQuote } from '../../field/govalue.ts';
import { compareStrings } from '../value.ts';

export interface Conflict {
  manager: string;
  path: Path;
}

export function conflictString(c: Conflict, name: (manager: string) => string = goQuote): string {
  return `conflict with ${name(c.manager)}: ${pathString(c.path)}`;
}

/** Conflicts.Error(); `name` prints a manager (kube-apiserver prints identifiers more kindly). */
export function conflictsString(cs: readonly Conflict[], name: (manager: string) => string = goQuote): string {
  if (cs.length === 1) return conflictString(cs[0]!, name);
  const byManager = new Map<string, Path[]>();
  for (const c of cs) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const m of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${name(m)}:`);
    for (const p of byManager.get(m)!) lines.push(`- ${pathString(p)}`);
  }
  return lines.join('\n');
}

/** The error Updater.Apply throws when an unforced apply conflicts. */
export class ConflictsError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(conflictsString(conflicts));
    this.name = 'ConflictsError';
  }
}

/** ConflictsFromManagers: one conflict per path of each manager's set. */
export function conflictsFromManagers(sets: ManagedFields): Conflict[] {
  const out: Conflict[] = [];
  for (const [manager, vs] of sets) for (const path of vs.set.paths()) out.push({ manager, path });
  return out;
}

export function conflictsEqual(a: Conflict, b: Conflict): boolean {
  return a.manager === b.manager && pathsEqual(a.path, b.path);
}

/** Conflicts.ToSet. */
export function conflictsToSet(cs: readonly Conflict[]): FieldSet {
  return FieldSet.of(...cs.map((c) => c.path));
}
