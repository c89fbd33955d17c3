/**
 * The CRD naming and establishing controllers (apiextensions `pkg/controller/status` and
 * `pkg/controller/establish`) in one loop: the names a CRD asks for are accepted unless another
 * CRD of the same group already accepted them (`"x" is already in use`, reasons PluralConflict,
 * SingularConflict, ShortNamesConflict, KindConflict, ListKindConflict); status.acceptedNames and
 * the NamesAccepted condition record the outcome; a CRD whose names are accepted becomes
 * Established (`InitialNamesAccepted`), after which the server serves it.
 */
import { isConflict, isNotFound } from '../../apimachinery/index.ts';
import { conditionsOf, findCondition, setCondition } from '../crd/conditions.ts';
import { isObject, semanticEqual, type CRDNames } from '../crd/internal.ts';
import type { CRDStore } from '../crd/store.ts';
import { deepCopy } from '../meta.ts';
import type { Obj } from '../rest.ts';
import { runController, type Controller } from './loop.ts';

function namesOf(v: unknown): CRDNames {
  return (isObject(v) ? v : {}) as CRDNames;
}

function groupOf(crd: Obj): string {
  return isObject(crd.spec) && typeof crd.spec.group === 'string' ? crd.spec.group : '';
}

function equalToAcceptedOrFresh(requested: string | undefined, accepted: string | undefined, used: Set<string>): string | undefined {
  if ((requested ?? '') === (accepted ?? '')) return undefined;
  if (!used.has(requested ?? '')) return undefined;
  return `${JSON.stringify(requested ?? '')} is already in use`;
}

/** calculateNamesAndConditions: the accepted names and the NamesAccepted / Established conditions. */
export function calculateNamesAndConditions(crd: Obj, others: Obj[]) {
  const allResources = new Set<string>();
  const allKinds = new Set<string>();
  for (const o of others) {
    const a = namesOf(isObject(o.status) ? o.status.acceptedNames : undefined);
    for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])]) allResources.add(n ?? '');
    allKinds.add(a.kind ?? '');
    allKinds.add(a.listKind ?? '');
  }
  const requested = namesOf(isObject(crd.spec) ? crd.spec.names : undefined);
  const accepted = namesOf(isObject(crd.status) ? crd.status.acceptedNames : undefined);
  const names: CRDNames = deepCopy(accepted);
  const cond = { type: 'NamesAccepted', status: 'Unknown', reason: '', message: '' };
  const conflict = (reason: string, message: string) => {
    cond.status = 'False';
    cond.reason = reason;
    cond.message = message;
  };
  let e = equalToAcceptedOrFresh(requested.plural, accepted.plural, allResources);
  if (e) conflict('PluralConflict', e);
  else names.plural = requested.plural;
  e = equalToAcceptedOrFresh(requested.singular, accepted.singular, allResources);
  if (e) conflict('SingularConflict', e);
  else names.singular = requested.singular;
  if (!semanticEqual(requested.shortNames, accepted.shortNames)) {
    const mine = new Set(accepted.shortNames ?? []);
    const errs: string[] = [];
    for (const s of requested.shortNames ?? []) {
      if (mine.has(s)) continue;
      const err = equalToAcceptedOrFresh(s, '', allResources);
      if (err) errs.push(err);
    }
    if (errs.length > 0) conflict('ShortNamesConflict', errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
    else names.shortNames = requested.shortNames;
  }
  e = equalToAcceptedOrFresh(requested.kind, accepted.kind, allKinds);
  if (e) conflict('KindConflict', e);
  else names.kind = requested.kind;
  e = equalToAcceptedOrFresh(requested.listKind, accepted.listKind, allKinds);
  if (e) conflict('ListKindConflict', e);
  else names.listKind = requested.listKind;
  if (requested.categories !== undefined) names.categories = requested.categories;
  else delete names.categories;
  if (cond.status === 'Unknown') {
    cond.status = 'True';
    cond.reason = 'NoConflicts';
    cond.message = 'no conflicts found';
  }
  let established = { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  const old = findCondition(crd, 'Established');
  if (old) established = { type: 'Established', status: old.status ?? '', reason: old.reason ?? '', message: old.message ?? '' };
  if (established.status !== 'True' && cond.status === 'True') {
    // The establishing controller's step, taken right away: nothing else gates serving here.
    established = { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
  }
  return { names, namesAccepted: cond, established };
}

/**
 * The controller's watch-fed cache of CRDs by key, indexed by group as it is filled (upstream's
 * indexer): at startup every CRD is reconciled, and filtering the whole cache for each one's group
 * was quadratic in the number of CRDs.
 */
class GroupedCRDs extends Map<string, Obj> {
  private readonly groups = new Map<string, Map<string, Obj>>();

  override set(key: string, crd: Obj): this {
    this.unindex(key);
    super.set(key, crd);
    const g = groupOf(crd);
    let members = this.groups.get(g);
    if (!members) this.groups.set(g, (members = new Map()));
    members.set(key, crd);
    return this;
  }

  override delete(key: string): boolean {
    this.unindex(key);
    return super.delete(key);
  }

  override clear(): void {
    this.groups.clear();
    super.clear();
  }

  /** The CRDs of `group`. */
  inGroup(group: string): Obj[] {
    return [...(this.groups.get(group)?.values() ?? [])];
  }

  private unindex(key: string): void {
    const old = super.get(key);
    if (old === undefined) return;
    const members = this.groups.get(groupOf(old));
    members?.delete(key);
    if (members?.size === 0) this.groups.delete(groupOf(old));
  }
}

/** Runs the controller over the CRD store; writes go through the status subresource. */
export function startCRDStatusController(crds: CRDStore, opts: { onError?: (err: unknown) => void } = {}): Controller {
  // The other CRDs of a group are read from the watch-fed cache (upstream's lister), not listed per
  // reconcile: with hundreds of CRDs a list each time made startup quadratic.
  const cache = new GroupedCRDs();
  const inGroup = (group: string) => cache.inGroup(group);
  return runController(
    crds,
    async (key) => {
      // The CRD itself comes from the cache too, as upstream's crdLister.Get: at startup every CRD
      // is reconciled, and reading each back from storage decoded all of them a second time. A
      // cached copy older than storage makes the update conflict, which requeues the key.
      const crd = cache.get(`/${key.name}`);
      if (crd === undefined) return;
      const group = groupOf(crd);
      const others = inGroup(group).filter((o) => (o.metadata as { name?: string }).name !== key.name);
      const { names, namesAccepted, established } = calculateNamesAndConditions(crd, others);
      // The new status is worked out on a copy of the status alone: at startup every CRD is
      // reconciled and almost none changes, and copying each whole CRD (schemas and all) to find
      // that out cost more than the rest of the reconcile.
      const probe: Obj = { status: deepCopy(isObject(crd.status) ? crd.status : {}) };
      (probe.status as Record<string, unknown>).acceptedNames = names;
      setCondition(probe, namesAccepted);
      setCondition(probe, established);
      if (semanticEqual(probe.status, crd.status) && conditionsOf(probe).length === conditionsOf(crd).length) return;
      const next = deepCopy(crd);
      next.status = probe.status;
      try {
        await crds.update(undefined, key.name, () => next, { subresource: 'status' });
      } catch (e) {
        if (isConflict(e)) return { requeueAfterMs: 0 };
        if (isNotFound(e)) return;
        throw e;
      }
    },
    {
      // When a CRD goes away, the others of its group may now get the names it held.
      related: async (type, obj) => {
        if (type !== 'DELETED') return [];
        return inGroup(groupOf(obj)).map((o) => ({ name: String((o.metadata as { name?: string }).name) }));
      },
      onError: (_k, e) => opts.onError?.(e),
      cache,
    },
  );
}
