/**
 * Updater (structured-merge-diff `merge/update.go`): the server-side apply algorithm over typed
 * values and managed fields. Update records what a non-apply write changed (taking those fields
 * from whoever owned them); Apply merges a manager's configuration into the live object, fails
 * on fields others own unless forced, and prunes what that manager applied before but no longer
 * does — unless someone else still owns it.
 */
import type { Filter } from '../fieldpath/set.ts';
import { excludeSetFilter, FieldSet } from '../fieldpath/set.ts';
import { versionedSet, type ManagedFields, type VersionedSet } from '../fieldpath/managers.ts';
import type { Comparison } from '../typed/compare.ts';
import { reconcileFieldSetWithSchema } from '../typed/reconcile.ts';
import type { TypedValue } from '../typed/typed.ts';
import { equals } from '../value.ts';
import { ConflictsError, conflictsFromManagers } from './conflict.ts';

/** Converts typed values between API versions (what apply needs of the layer above). */
export interface Converter {
  convert(object: TypedValue, version: string): TypedValue;
  /** Whether err says the version does not exist (its managers are then dropped). */
  isMissingVersionError(err: unknown): boolean;
}

/** The identity converter for a single-version type: every version converts to itself. */
export const sameVersionConverter: Converter = {
  convert: (object, version) => {
    if (version.length === 0) throw new Error(`cannot convert to invalid version: ""`);
    return object;
  },
  isMissingVersionError: () => false,
};

export interface UpdaterOptions {
  converter: Converter;
  /** Per version, fields no manager owns (a subresource's reset fields, e.g. status on the main resource). */
  ignoreFilter?: Map<string, Filter>;
  /** Per version, fields ignored outright (the older form of ignoreFilter); not with ignoreFilter. */
  ignoredFields?: Map<string, FieldSet>;
  /** Return the input object from a no-op apply instead of undefined. */
  returnInputOnNoop?: boolean;
}

function wrap(prefix: string, e: unknown): Error {
  return new Error(`${prefix}: ${(e as Error).message ?? String(e)}`);
}

export class Updater {
  constructor(readonly opts: UpdaterOptions) {}

  private filterFor(version: string): Filter | undefined {
    if (this.opts.ignoredFields !== undefined && this.opts.ignoreFilter !== undefined) {
      throw new Error('IgnoreFilter and IgnoreFilter may not both be set');
    }
    if (this.opts.ignoredFields !== undefined) {
      const s = this.opts.ignoredFields.get(version);
      return s === undefined ? undefined : excludeSetFilter(s);
    }
    return this.opts.ignoreFilter?.get(version);
  }

  /** A comparison with the version's ignored fields left out (ExcludeFields / FilterFields). */
  private filtered(c: Comparison, version: string): Comparison {
    if (this.opts.ignoredFields !== undefined) {
      const s = this.opts.ignoredFields.get(version);
      if (s === undefined || s.empty()) return c;
      return { removed: c.removed.recursiveDifference(s), modified: c.modified.recursiveDifference(s), added: c.added.recursiveDifference(s) };
    }
    const f = this.opts.ignoreFilter?.get(version);
    if (f === undefined) return c;
    return { removed: f.filter(c.removed), modified: f.filter(c.modified), added: f.filter(c.added) };
  }

  private update(
    oldObject: TypedValue,
    newObject: TypedValue,
    version: string,
    managers: ManagedFields,
    workflow: string,
    force: boolean,
  ): { managers: ManagedFields; compare: Comparison } {
    const conflicts: ManagedFields = new Map();
    const removed: ManagedFields = new Map();
    let compare: Comparison;
    try {
      compare = oldObject.compare(newObject);
    } catch (e) {
      throw wrap('failed to compare objects', e);
    }
    if (this.opts.ignoredFields !== undefined && this.opts.ignoreFilter !== undefined) {
      throw new Error('IgnoreFilter and IgnoreFilter may not both be set');
    }
    const versions = new Map<string, Comparison>([[version, this.filtered(compare, version)]]);
    for (const [manager, managerSet] of [...managers]) {
      if (manager === workflow) continue;
      let cmp = versions.get(managerSet.apiVersion);
      if (cmp === undefined) {
        const conv = this.convertOrDrop(managers, manager, managerSet.apiVersion, oldObject, newObject);
        if (conv === undefined) continue;
        try {
          cmp = conv[0].compare(conv[1]);
        } catch (e) {
          throw wrap('failed to compare objects', e);
        }
        cmp = this.filtered(cmp, managerSet.apiVersion);
        versions.set(managerSet.apiVersion, cmp);
      }
      const conflictSet = managerSet.set.intersection(cmp.modified.union(cmp.added));
      if (!conflictSet.empty()) conflicts.set(manager, versionedSet(conflictSet, managerSet.apiVersion, false));
      if (!cmp.removed.empty()) removed.set(manager, versionedSet(cmp.removed, managerSet.apiVersion, false));
    }
    if (!force && conflicts.size !== 0) throw new ConflictsError(conflictsFromManagers(conflicts));
    for (const [manager, c] of conflicts) {
      const m = managers.get(manager)!;
      managers.set(manager, versionedSet(m.set.difference(c.set), m.apiVersion, m.applied));
    }
    for (const [manager, r] of removed) {
      const m = managers.get(manager)!;
      managers.set(manager, versionedSet(m.set.difference(r.set), m.apiVersion, m.applied));
    }
    for (const [manager, m] of [...managers]) if (m.set.empty()) managers.delete(manager);
    return { managers, compare: versions.get(version)! };
  }

  /** Both objects at the manager's version, or undefined (and the manager dropped) if it is gone. */
  private convertOrDrop(managers: ManagedFields, manager: string, version: string, a: TypedValue, b: TypedValue): [TypedValue, TypedValue] | undefined {
    const out: TypedValue[] = [];
    for (const [obj, what] of [
      [a, 'old'],
      [b, 'new'],
    ] as const) {
      try {
        out.push(this.opts.converter.convert(obj, version));
      } catch (e) {
        if (this.opts.converter.isMissingVersionError(e)) {
          managers.delete(manager);
          return undefined;
        }
        throw wrap(`failed to convert ${what} object`, e);
      }
    }
    return [out[0]!, out[1]!];
  }

  /**
   * Update: newObject replaces liveObject by a non-apply write of `manager` at `version`; returns
   * the new managed fields (the caller's map is changed too). Throws on conversion failures.
   */
  updateObject(liveObject: TypedValue, newObject: TypedValue, version: string, managers: ManagedFields, manager: string): { object: TypedValue; managers: ManagedFields } {
    managers = this.reconcileManagedFieldsWithSchemaChanges(liveObject, managers);
    const r = this.update(liveObject, newObject, version, managers, manager, true);
    managers = r.managers;
    const compare = r.compare;
    if (!managers.has(manager)) managers.set(manager, versionedSet(new FieldSet(), version, false));
    let set = managers.get(manager)!.set.difference(compare.removed).union(compare.modified).union(compare.added);
    const filter = this.filterFor(version);
    if (filter !== undefined) set = filter.filter(set);
    managers.set(manager, versionedSet(set, version, false));
    if (set.empty()) managers.delete(manager);
    return { object: newObject, managers };
  }

  /**
   * Apply: configObject applied by `manager` at `version`. Returns the new object (undefined when
   * nothing changed, unless returnInputOnNoop) and managed fields. Throws ConflictsError when
   * not forced and others own fields the apply changes.
   */
  apply(
    liveObject: TypedValue,
    configObject: TypedValue,
    version: string,
    managers: ManagedFields,
    manager: string,
    force: boolean,
  ): { object: TypedValue | undefined; managers: ManagedFields } {
    managers = this.reconcileManagedFieldsWithSchemaChanges(liveObject, managers);
    let newObject: TypedValue;
    try {
      newObject = liveObject.merge(configObject);
    } catch (e) {
      throw wrap('failed to merge config', e);
    }
    const lastSet = managers.get(manager);
    let set: FieldSet;
    try {
      set = configObject.toFieldSet();
    } catch (e) {
      throw wrap('failed to get field set', e);
    }
    const filter = this.filterFor(version);
    if (filter !== undefined) set = filter.filter(set);
    managers.set(manager, versionedSet(set, version, true));
    try {
      newObject = this.prune(newObject, managers, manager, lastSet);
    } catch (e) {
      throw wrap('failed to prune fields', e);
    }
    managers = this.update(liveObject, newObject, version, managers, manager, force).managers;
    const noop = !this.opts.returnInputOnNoop && equals(liveObject.value, newObject.value);
    return { object: noop ? undefined : newObject, managers };
  }

  private convert(obj: TypedValue, version: string): TypedValue | 'missing' {
    try {
      return this.opts.converter.convert(obj, version);
    } catch (e) {
      if (this.opts.converter.isMissingVersionError(e)) return 'missing';
      throw e;
    }
  }

  /** Removes from merged what lastSet's manager applied before and nobody owns any more. */
  private prune(merged: TypedValue, managers: ManagedFields, applyingManager: string, lastSet: VersionedSet | undefined): TypedValue {
    if (lastSet === undefined || lastSet.set.empty()) return merged;
    const version = lastSet.apiVersion;
    let convertedMerged: TypedValue | 'missing';
    try {
      convertedMerged = this.convert(merged, version);
    } catch (e) {
      throw wrap('failed to convert merged object to last applied version', e);
    }
    if (convertedMerged === 'missing') return merged;
    const sc = convertedMerged.schema;
    const tr = convertedMerged.typeRef;
    let pruned = convertedMerged.removeItems(lastSet.set.ensureNamedFieldsAreMembers(sc, tr));
    try {
      pruned = this.addBackOwnedItems(convertedMerged, pruned, version, managers, applyingManager);
    } catch (e) {
      throw wrap('failed add back owned items', e);
    }
    try {
      pruned = this.addBackDanglingItems(convertedMerged, pruned, lastSet);
    } catch (e) {
      throw wrap('failed add back dangling items', e);
    }
    return this.opts.converter.convert(pruned, managers.get(applyingManager)!.apiVersion);
  }

  private addBackOwnedItems(merged: TypedValue, pruned: TypedValue, prunedVersion: string, managers: ManagedFields, _applyingManager: string): TypedValue {
    const managedAtVersion = new Map<string, FieldSet>();
    for (const vs of managers.values()) {
      managedAtVersion.set(vs.apiVersion, (managedAtVersion.get(vs.apiVersion) ?? new FieldSet()).union(vs.set));
    }
    const order = [...managedAtVersion.keys()];
    // The pruned version goes first; Go visits the others in map order.
    const versions = order.includes(prunedVersion) ? [prunedVersion, ...order.filter((v) => v !== prunedVersion)] : order;
    for (const version of versions) {
      const managed = managedAtVersion.get(version)!;
      const cm = this.convert(merged, version);
      if (cm === 'missing') continue;
      merged = cm;
      const cp = this.convert(pruned, version);
      if (cp === 'missing') continue;
      pruned = cp;
      let mergedSet: FieldSet;
      let prunedSet: FieldSet;
      try {
        mergedSet = merged.toFieldSet();
      } catch (e) {
        throw wrap(`failed to create field set from merged object at version ${version}`, e);
      }
      try {
        prunedSet = pruned.toFieldSet();
      } catch (e) {
        throw wrap(`failed to create field set from pruned object at version ${version}`, e);
      }
      const sc = merged.schema;
      const tr = merged.typeRef;
      pruned = merged.removeItems(
        mergedSet
          .ensureNamedFieldsAreMembers(sc, tr)
          .difference(prunedSet.ensureNamedFieldsAreMembers(sc, tr).union(managed.ensureNamedFieldsAreMembers(sc, tr))),
      );
    }
    return pruned;
  }

  private addBackDanglingItems(merged: TypedValue, pruned: TypedValue, lastSet: VersionedSet): TypedValue {
    const convertedPruned = this.convert(pruned, lastSet.apiVersion);
    if (convertedPruned === 'missing') return merged;
    const sc = merged.schema;
    const tr = merged.typeRef;
    const prunedSet = convertedPruned.toFieldSet().ensureNamedFieldsAreMembers(sc, tr);
    const mergedSet = merged.toFieldSet().ensureNamedFieldsAreMembers(sc, tr);
    const last = lastSet.set.ensureNamedFieldsAreMembers(sc, tr);
    return merged.removeItems(mergedSet.difference(prunedSet).intersection(last));
  }

  private reconcileManagedFieldsWithSchemaChanges(liveObject: TypedValue, managers: ManagedFields): ManagedFields {
    const result: ManagedFields = new Map();
    for (const [manager, vs] of managers) {
      const tv = this.convert(liveObject, vs.apiVersion);
      // Obsolete versions' managers are dropped by the update that follows.
      if (tv === 'missing') continue;
      const reconciled = reconcileFieldSetWithSchema(vs.set, tv);
      result.set(manager, reconciled !== undefined ? versionedSet(reconciled, vs.apiVersion, vs.applied) : vs);
    }
    return result;
  }
}
