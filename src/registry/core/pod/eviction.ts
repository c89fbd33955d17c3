/**
 * pods/eviction (pkg/registry/core/pod/storage/eviction.go): POST a policy/v1 (or v1beta1)
 * Eviction and the pod is deleted unless a PodDisruptionBudget forbids it. Pods that are
 * Pending, Succeeded, Failed or already deleting are deleted without asking; otherwise the one
 * PodDisruptionBudget whose selector matches the pod decides from its status as stored (there is
 * no disruption controller here): an unready pod may go while the budget's healthy count holds
 * (or always, with unhealthyPodEvictionPolicy AlwaysAllow); a ready one only while
 * status.disruptionsAllowed > 0, which the eviction decrements (recording the pod in
 * status.disruptedPods), else 429 `Cannot evict pod as it would violate the pod's disruption
 * budget.`. The pod gets the DisruptionTarget condition before it is deleted.
 */
import {
  formatRFC3339,
  labelSelectorAsSelector,
  matches,
  newBadRequest,
  newConflict,
  newForbidden,
  newTooManyRequests,
  StatusError,
  successStatus,
  isEmpty,
  isConflict,
  type Status,
} from '../../../apimachinery/index.ts';
import type { ActionResponse, SubresourceAction } from '../../kind.ts';
import { getLabels, getResourceVersion, hasDeletionTimestamp } from '../../meta.ts';
import type { DeleteOptions, Obj, RESTStore } from '../../rest.ts';
import { isPodReady, updatePodCondition } from './conditions.ts';

const isRec = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/** MaxDisruptedPodSize */
const maxDisruptedPodSize = 2000;
const evictionsRetries = 5;

const phaseOf = (pod: Obj) => str(isRec(pod.status) ? pod.status.phase : '');

/** canIgnorePDB: terminal, pending and deleting pods go without asking their budget. */
function canIgnorePDB(pod: Obj): boolean {
  const p = phaseOf(pod);
  return p === 'Succeeded' || p === 'Failed' || p === 'Pending' || hasDeletionTimestamp(pod);
}

function tooManyRequests(retryAfterSeconds: number, cause: string): StatusError {
  const err = newTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", retryAfterSeconds);
  const s = err.status as Status & { details?: { causes?: unknown[] } };
  s.details = { ...(s.details ?? {}), causes: [{ reason: 'DisruptionBudget', message: cause }] };
  return err;
}

/** The Eviction's deleteOptions as the store takes them (dry run also from the create options). */
function deleteOptionsOf(eviction: Obj, dryRun: boolean): DeleteOptions {
  const d = isRec(eviction.deleteOptions) ? eviction.deleteOptions : {};
  const out: DeleteOptions = {};
  const dr = Array.isArray(d.dryRun) && d.dryRun.length > 0;
  if (dryRun || dr) out.dryRun = true;
  if (typeof d.gracePeriodSeconds === 'number') out.gracePeriodSeconds = d.gracePeriodSeconds;
  if (typeof d.propagationPolicy === 'string') out.propagationPolicy = d.propagationPolicy;
  if (isRec(d.preconditions)) {
    const p = d.preconditions;
    out.preconditions = { ...(str(p.uid) ? { uid: str(p.uid) } : {}), ...(str(p.resourceVersion) ? { resourceVersion: str(p.resourceVersion) } : {}) };
  }
  return out;
}

/** SetStatusCondition of DisruptionAllowed, as pdbhelper.UpdateDisruptionAllowedCondition sets it. */
function setDisruptionAllowed(status: Record<string, unknown>): void {
  const allowed = num(status.disruptionsAllowed) > 0;
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Array<Record<string, unknown>>) : [];
  const want = { type: 'DisruptionAllowed', status: allowed ? 'True' : 'False', reason: allowed ? 'SufficientPods' : 'InsufficientPods', observedGeneration: num(status.observedGeneration) };
  const i = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
  if (i < 0) {
    conditions.push({ ...want, message: '', lastTransitionTime: formatRFC3339(new Date()) });
  } else {
    const old = conditions[i]!;
    conditions[i] = { ...old, ...want, lastTransitionTime: old.status === want.status ? old.lastTransitionTime : formatRFC3339(new Date()) };
  }
  status.conditions = conditions;
}

export interface EvictionStores {
  pods: () => RESTStore;
  budgets: () => RESTStore | undefined;
}

export function evictionAction(stores: EvictionStores): SubresourceAction {
  const { pods, budgets } = stores;

  async function matchingBudgets(pod: Obj, ns: string): Promise<Obj[]> {
    const b = budgets();
    if (!b) return [];
    const out: Obj[] = [];
    for (const pdb of (await b.list(ns, {})).items) {
      const spec = isRec(pdb.spec) ? pdb.spec : {};
      let sel;
      try {
        sel = labelSelectorAsSelector(spec.selector as never);
      } catch {
        continue; // an invalid selector matches nothing
      }
      if (spec.selector === undefined || spec.selector === null || isEmpty(sel) || !matches(sel, getLabels(pod))) continue;
      out.push(pdb);
    }
    return out;
  }

  /** checkAndDecrement, on the budget as stored now. */
  async function checkAndDecrement(ns: string, podName: string, pdbName: string, dryRun: boolean): Promise<void> {
    const b = budgets()!;
    for (let i = 0; ; i++) {
      const pdb = await b.get(ns, pdbName);
      const status = isRec(pdb.status) ? { ...pdb.status } : {};
      const generation = num(isRec(pdb.metadata) ? pdb.metadata.generation : 0);
      if (num(status.observedGeneration) < generation) throw tooManyRequests(10, `The disruption budget ${pdbName} is still being processed by the server.`);
      const allowed = num(status.disruptionsAllowed);
      if (allowed < 0) throw newForbidden({ group: 'policy', resource: 'poddisruptionbudget' }, pdbName, 'pdb disruptions allowed is negative');
      const disrupted = isRec(status.disruptedPods) ? status.disruptedPods : {};
      if (Object.keys(disrupted).length > maxDisruptedPodSize) {
        throw newForbidden({ group: 'policy', resource: 'poddisruptionbudget' }, pdbName, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
      }
      if (allowed === 0) {
        throw tooManyRequests(0, `The disruption budget ${pdbName} needs ${num(status.desiredHealthy)} healthy pods and has ${num(status.currentHealthy)} currently`);
      }
      status.disruptionsAllowed = allowed - 1;
      if (status.disruptionsAllowed === 0) setDisruptionAllowed(status);
      if (dryRun) return;
      status.disruptedPods = { ...disrupted, [podName]: formatRFC3339(new Date()) };
      try {
        await b.update(ns, pdbName, () => ({ ...pdb, status }), { subresource: 'status' });
        return;
      } catch (e) {
        if (!isConflict(e) || i >= evictionsRetries) throw e;
      }
    }
  }

  /** addConditionAndDeletePod: the DisruptionTarget condition, then the delete. */
  async function conditionAndDelete(ns: string, name: string, opts: DeleteOptions): Promise<void> {
    let del = opts;
    if (!opts.dryRun) {
      const updated = await pods().update(
        ns,
        name,
        (cur) => {
          const pod = cur!;
          const p = opts.preconditions;
          if (p?.uid && p.uid !== str(isRec(pod.metadata) ? pod.metadata.uid : '')) {
            const uid = str(isRec(pod.metadata) ? pod.metadata.uid : '');
            throw newConflict({ group: '', resource: 'Pod' }, name, `the UID in the precondition (${p.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`);
          }
          updatePodCondition(pod, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
          return pod;
        },
        { subresource: 'status', ...(opts.preconditions?.resourceVersion ? { preconditions: { resourceVersion: opts.preconditions.resourceVersion } } : {}) },
      );
      if (opts.preconditions?.resourceVersion) del = { ...opts, preconditions: { ...opts.preconditions, resourceVersion: getResourceVersion(updated.object) } };
    }
    await pods().delete(ns, name, del);
  }

  return {
    verbs: ['create'],
    body: { apiVersion: 'policy/v1', kind: 'Eviction' },
    async serve(req): Promise<ActionResponse> {
      const eviction = req.body!;
      const av = str(eviction.apiVersion);
      if (av !== '' && av !== 'policy/v1' && av !== 'policy/v1beta1') throw newBadRequest(`not a Eviction object: ${av}`);
      const m = isRec(eviction.metadata) ? eviction.metadata : {};
      if (str(m.name) !== req.name) throw newBadRequest('name in URL does not match name in Eviction object');
      const ns = req.namespace!;
      const opts = deleteOptionsOf(eviction, req.dryRun);
      const success = { code: 201, object: { ...successStatus(), code: 201 } };
      const pinned = opts.preconditions?.resourceVersion !== undefined;
      let pod: Obj | undefined;
      for (let i = 0; ; i++) {
        pod = await pods().get(ns, req.name);
        if (!canIgnorePDB(pod)) break;
        const p = phaseOf(pod);
        const enforce = !(p === 'Succeeded' || p === 'Failed') && !pinned;
        try {
          await conditionAndDelete(ns, req.name, enforce ? { ...opts, preconditions: { ...opts.preconditions, resourceVersion: getResourceVersion(pod) } } : opts);
          return success;
        } catch (e) {
          if (!isConflict(e) || pinned || i >= evictionsRetries) throw e;
        }
      }
      const pdbs = await matchingBudgets(pod, ns);
      if (pdbs.length > 1) {
        return { code: 500, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 } };
      }
      let pinToPod = false;
      if (pdbs.length === 1) {
        const pdb = pdbs[0]!;
        const name = str(isRec(pdb.metadata) ? pdb.metadata.name : '');
        const spec = isRec(pdb.spec) ? pdb.spec : {};
        const status = isRec(pdb.status) ? pdb.status : {};
        const policy = str(spec.unhealthyPodEvictionPolicy);
        if (!isPodReady(pod) && (policy === '' || policy === 'IfHealthyBudget') && num(status.currentHealthy) >= num(status.desiredHealthy) && num(status.desiredHealthy) > 0) {
          pinToPod = true;
        } else if (!isPodReady(pod) && policy === 'AlwaysAllow') {
          pinToPod = true;
        } else {
          await checkAndDecrement(ns, req.name, name, opts.dryRun === true);
        }
        try {
          await conditionAndDelete(ns, req.name, pinToPod ? { ...opts, preconditions: { ...opts.preconditions, resourceVersion: getResourceVersion(pod) } } : opts);
        } catch (e) {
          if (isConflict(e) && pinToPod && !pinned) throw tooManyRequests(10, `The disruption budget ${name} is still being processed by the server.`);
          throw e;
        }
        return success;
      }
      await conditionAndDelete(ns, req.name, opts);
      return success;
    },
  };
}
