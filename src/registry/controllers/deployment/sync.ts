/**
 * One sync of one Deployment, as kube-controller-manager's deployment controller does it
 * (pkg/controller/deployment: syncDeployment, sync.go, rolling.go, recreate.go): claim the
 * ReplicaSets its selector matches (adopt orphans, release those it no longer selects), find or
 * create the new ReplicaSet (named `<deployment>-<pod-template-hash>`, the hash in its labels and
 * selector, revision annotations kept), scale — proportionally on a scaling event, step by step
 * in a rolling update, all at once in a Recreate — and write the status. A rollback (`kubectl
 * rollout undo`) is a template change: the old ReplicaSet whose template matches becomes the new
 * one, with the next revision and its old revision in `revision-history`.
 *
 * No pods are made here (there are no kubelets): ReplicaSets are created and scaled, and their
 * status is whatever is written to it.
 */
import { deepCopyJSON, isAlreadyExists, isNotFound, jsonEqual, labelSelectorAsSelector, matches, type LabelSelector } from '../../../apimachinery/index.ts';
import type { Obj, RESTStore } from '../../rest.ts';
import { computeHash } from './hash.ts';
import {
  active, availableReplicas, byCreation, bySizeNewer, bySizeOlder, isRollingUpdate, isSaturated, maxReplicasAnnotation, maxSurge,
  maxUnavailable, metaOf, newRSNewReplicas, rec, replicasOf, specOf, specReplicas, statusOf, type Rec,
} from './replicas.ts';
import { annotationsOf, maxRevision, revisionAnnotation, setAnnotation, setNewReplicaSetAnnotations, setReplicasAnnotations } from './revisions.ts';
import {
  calculateStatus, deploymentComplete, getCondition, hasProgressDeadline, newCondition, reasons, rolloutStatus, sameStatus, setCondition, untilDeadline,
} from './status.ts';

export const hashLabel = 'pod-template-hash';

export interface SyncStores {
  deployments: RESTStore;
  replicaSets: RESTStore;
  /** The namespace's ReplicaSets as the informer has them. */
  replicaSetsIn(namespace: string): Obj[];
  /** The Deployment as the informer has it (the lister's Get), undefined when it has none. */
  cachedDeployment?(namespace: string, name: string): Obj | undefined;
}

type Result = void | { requeueAfterMs: number };

const nameOf = (o: Obj): string => String(metaOf(o).name);
const uidOf = (o: Obj): string => String(metaOf(o).uid);

interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}
const ownerRefs = (o: Obj): OwnerRef[] => (Array.isArray(metaOf(o).ownerReferences) ? (metaOf(o).ownerReferences as OwnerRef[]) : []);
const controllerOf = (o: Obj): OwnerRef | undefined => ownerRefs(o).find((r) => r.controller === true);
const controllerRef = (d: Obj): OwnerRef => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: nameOf(d), uid: uidOf(d), controller: true, blockOwnerDeletion: true });

/** The pod template without the hash label (EqualIgnoreHash), empty maps as absent (Semantic.DeepEqual). */
function templateWithoutHash(t: unknown): unknown {
  const c = deepCopyJSON(rec(t)) as Rec;
  const m = rec(c.metadata);
  const labels = { ...rec(m.labels) };
  delete labels[hashLabel];
  if (Object.keys(labels).length > 0) m.labels = labels;
  else delete m.labels;
  return c;
}
export const equalIgnoreHash = (a: unknown, b: unknown): boolean => jsonEqual(templateWithoutHash(a), templateWithoutHash(b));

class DeploymentSync {
  constructor(
    private readonly stores: SyncStores,
    private d: Obj,
  ) {}

  private get ns(): string {
    return String(metaOf(this.d).namespace);
  }

  /**
   * The revision annotation or a condition changed on `d` and is not written yet: upstream writes
   * them at once, then the rollout status; here they go with the status write that ends the sync
   * (the same object, one write fewer per new ReplicaSet).
   */
  private pending = false;

  private async updateStatus(): Promise<void> {
    const r = await this.stores.deployments.update(this.ns, nameOf(this.d), () => this.d, { subresource: 'status' });
    this.d = r.object;
    this.pending = false;
  }

  private async updateRS(rs: Obj): Promise<Obj> {
    return (await this.stores.replicaSets.update(this.ns, nameOf(rs), () => rs, {})).object;
  }

  /** getReplicaSetsForDeployment: the controller's ReplicaSets, orphans adopted, strays released. */
  private async claimReplicaSets(): Promise<Obj[]> {
    const selector = labelSelectorAsSelector(specOf(this.d).selector as LabelSelector);
    const deleting = metaOf(this.d).deletionTimestamp !== undefined;
    const out: Obj[] = [];
    for (const rs of this.stores.replicaSetsIn(this.ns)) {
      const ref = controllerOf(rs);
      const labels = rec(metaOf(rs).labels) as Record<string, string>;
      if (ref) {
        if (ref.uid !== uidOf(this.d)) continue;
        if (matches(selector, labels)) out.push(rs);
        else if (!deleting) await this.release(rs);
        continue;
      }
      if (deleting || !matches(selector, labels) || metaOf(rs).deletionTimestamp !== undefined) continue;
      const adopted = await this.adopt(rs);
      if (adopted) out.push(adopted);
    }
    return out;
  }

  private async adopt(rs: Obj): Promise<Obj | undefined> {
    try {
      const r = await this.stores.replicaSets.update(this.ns, nameOf(rs), (cur) => {
        const c = deepCopyJSON(cur ?? rs) as Obj;
        if (controllerOf(c)) throw new Error(`replica set ${nameOf(rs)} was adopted meanwhile`);
        metaOf(c).ownerReferences = [...ownerRefs(c), controllerRef(this.d)];
        return c;
      }, {});
      return r.object;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  private async release(rs: Obj): Promise<void> {
    try {
      await this.stores.replicaSets.update(this.ns, nameOf(rs), (cur) => {
        const c = deepCopyJSON(cur ?? rs) as Obj;
        const refs = ownerRefs(c).filter((r) => r.uid !== uidOf(this.d));
        if (refs.length > 0) metaOf(c).ownerReferences = refs;
        else delete metaOf(c).ownerReferences;
        return c;
      }, {});
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  /** FindNewReplicaSet: the oldest ReplicaSet whose template is the Deployment's. */
  private findNew(rss: Obj[]): Obj | undefined {
    return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(specOf(rs).template, specOf(this.d).template));
  }

  /** getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created when asked) and the old ones. */
  private async allReplicaSets(rss: Obj[], create: boolean): Promise<{ newRS?: Obj; oldRSs: Obj[] }> {
    const found = this.findNew(rss);
    const oldRSs = rss.filter((rs) => rs !== found);
    const newRS = await this.newReplicaSet(found, oldRSs, create);
    return { newRS, oldRSs };
  }

  /** getNewReplicaSet */
  private async newReplicaSet(existing: Obj | undefined, oldRSs: Obj[], create: boolean): Promise<Obj | undefined> {
    const newRevision = maxRevision(oldRSs) + 1;
    if (existing) {
      let rs = deepCopyJSON(existing) as Obj;
      const annotated = setNewReplicaSetAnnotations(this.d, rs, newRevision, true);
      const minReady = (specOf(rs).minReadySeconds ?? 0) !== (specOf(this.d).minReadySeconds ?? 0);
      if (annotated || minReady) {
        specOf(rs).minReadySeconds = specOf(this.d).minReadySeconds ?? 0;
        rs = await this.updateRS(rs);
      }
      let needsUpdate = setAnnotation(this.d, revisionAnnotation, annotationsOf(rs)[revisionAnnotation] ?? '');
      if (hasProgressDeadline(this.d) && !getCondition(statusOf(this.d), 'Progressing')) {
        this.setStatusCondition(newCondition('Progressing', 'True', reasons.foundNewRS, `Found new replica set ${JSON.stringify(nameOf(rs))}`));
        needsUpdate = true;
      }
      if (needsUpdate) this.pending = true;
      return rs;
    }
    if (!create) return undefined;

    const spec = specOf(this.d);
    const collisionCount = statusOf(this.d).collisionCount as number | undefined;
    const hash = computeHash(spec.template as Obj, collisionCount);
    const template = deepCopyJSON(rec(spec.template)) as Rec;
    const tmeta = rec(template.metadata);
    template.metadata = { ...tmeta, labels: { ...rec(tmeta.labels), [hashLabel]: hash } };
    const selector = deepCopyJSON(rec(spec.selector)) as Rec;
    selector.matchLabels = { ...rec(selector.matchLabels), [hashLabel]: hash };
    const rs: Obj = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: `${nameOf(this.d)}-${hash}`, namespace: this.ns, labels: rec(template.metadata).labels, ownerReferences: [controllerRef(this.d)] },
      spec: { replicas: 0, minReadySeconds: spec.minReadySeconds ?? 0, selector, template },
    };
    specOf(rs).replicas = newRSNewReplicas(this.d, [...oldRSs, rs], rs);
    setNewReplicaSetAnnotations(this.d, rs, newRevision, false);

    let created: Obj;
    let alreadyExists = false;
    try {
      created = (await this.stores.replicaSets.create(this.ns, rs, {})).object;
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      alreadyExists = true;
      const cur = await this.stores.replicaSets.get(this.ns, nameOf(rs));
      if (controllerOf(cur)?.uid === uidOf(this.d) && equalIgnoreHash(specOf(cur).template, spec.template)) {
        created = cur;
      } else {
        // A hash collision: count it, so that the next sync picks another name.
        this.d.status = { ...statusOf(this.d), collisionCount: (collisionCount ?? 0) + 1 };
        await this.updateStatus();
        throw e;
      }
    }
    let needsUpdate = setAnnotation(this.d, revisionAnnotation, String(newRevision));
    if (!alreadyExists && hasProgressDeadline(this.d)) {
      this.setStatusCondition(newCondition('Progressing', 'True', reasons.newRSCreated, `Created new replica set ${JSON.stringify(nameOf(created))}`));
      needsUpdate = true;
    }
    if (needsUpdate) this.pending = true;
    return created;
  }

  private setStatusCondition(c: ReturnType<typeof newCondition>): void {
    const s = { ...statusOf(this.d) };
    setCondition(s, c);
    this.d.status = s;
  }

  /** scaleReplicaSet: size and replica annotations; returns the stored ReplicaSet and whether its size changed. */
  private async scaleRS(rs: Obj, size: number): Promise<{ rs: Obj; scaled: boolean }> {
    const sized = replicasOf(rs) !== size;
    const c = deepCopyJSON(rs) as Obj;
    const annotated = setReplicasAnnotations(c, replicasOf(this.d), replicasOf(this.d) + maxSurge(this.d));
    if (!sized && !annotated) return { rs, scaled: false };
    specOf(c).replicas = size;
    return { rs: await this.updateRS(c), scaled: sized };
  }

  /** scale: a scaling event (the Deployment's replicas changed), proportionally in a rolling update. */
  private async scale(newRS: Obj | undefined, oldRSs: Obj[]): Promise<void> {
    const want = replicasOf(this.d);
    const live = active([...oldRSs, newRS]);
    if (!newRS && oldRSs.length === 0) return;
    if (live.length <= 1) {
      const only = live[0] ?? newRS ?? [...oldRSs].sort(byCreation).reverse()[0]!;
      if (replicasOf(only) !== want) await this.scaleRS(only, want);
      return;
    }
    if (isSaturated(this.d, newRS)) {
      for (const old of active(oldRSs)) await this.scaleRS(old, 0);
      return;
    }
    if (!isRollingUpdate(this.d)) return;
    const allowed = want > 0 ? want + maxSurge(this.d) : 0;
    const toAdd = allowed - specReplicas(live);
    if (toAdd === 0) return;
    const sorted = [...live].sort(toAdd > 0 ? bySizeNewer : bySizeOlder);
    const sizes = new Map<Obj, number>();
    let added = 0;
    for (const rs of sorted) {
      const p = this.proportion(rs, toAdd, added);
      sizes.set(rs, replicasOf(rs) + p);
      added += p;
    }
    for (const [i, rs] of sorted.entries()) {
      if (i === 0) sizes.set(rs, Math.max(sizes.get(rs)! + toAdd - added, 0));
      await this.scaleRS(rs, sizes.get(rs)!);
    }
  }

  /** GetProportion */
  private proportion(rs: Obj, toAdd: number, added: number): number {
    if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
    const want = replicasOf(this.d);
    let fraction: number;
    if (want === 0) fraction = -replicasOf(rs);
    else {
      const total = want + maxSurge(this.d);
      const annotated = Number(annotationsOf(rs)[maxReplicasAnnotation]);
      const base = Number.isInteger(annotated) && annotationsOf(rs)[maxReplicasAnnotation] !== undefined ? annotated : Number(statusOf(this.d).replicas ?? 0);
      // integer.RoundToInt32 rounds half away from zero.
      const x = (replicasOf(rs) * total) / base;
      fraction = Math.sign(x) * Math.round(Math.abs(x)) - replicasOf(rs);
    }
    const allowed = toAdd - added;
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  /** isScalingEvent: an active ReplicaSet's desired-replicas differs from the Deployment's replicas. */
  private async isScalingEvent(rss: Obj[]): Promise<boolean> {
    const { newRS, oldRSs } = await this.allReplicaSets(rss, false);
    return active([...oldRSs, newRS]).some((rs) => {
      const v = annotationsOf(rs)['deployment.kubernetes.io/desired-replicas'];
      return v !== undefined && /^\d+$/.test(v) && Number(v) !== replicasOf(this.d);
    });
  }

  private async writeStatus(next: Rec): Promise<Result> {
    if (this.pending || !sameStatus(statusOf(this.d), next)) {
      this.d.status = next;
      await this.updateStatus();
    }
    return this.requeueStuck();
  }

  /** requeueStuckDeployment: look again when the progress deadline passes. */
  private requeueStuck(): Result {
    const left = untilDeadline(this.d);
    if (left === undefined || deploymentComplete(this.d, statusOf(this.d))) return;
    return { requeueAfterMs: Math.max(left, 0) + 1000 };
  }

  /** sync: scaling (and a paused Deployment's) path. */
  private async syncScaling(rss: Obj[]): Promise<Result> {
    const { newRS, oldRSs } = await this.allReplicaSets(rss, false);
    await this.scale(newRS, oldRSs);
    // The status counts the ReplicaSets as they were; their update events bring the next sync.
    return this.writeStatus(calculateStatus([...oldRSs, newRS], newRS, this.d));
  }

  /** rolloutRolling */
  private async rolling(rss: Obj[]): Promise<Result> {
    const got = await this.allReplicaSets(rss, true);
    let newRS = got.newRS!;
    let oldRSs = got.oldRSs;
    const status = () => this.writeStatus(rolloutStatus([...oldRSs, newRS], newRS, this.d));
    // reconcileNewReplicaSet
    const want = replicasOf(this.d);
    if (replicasOf(newRS) !== want) {
      const size = replicasOf(newRS) > want ? want : newRSNewReplicas(this.d, [...oldRSs, newRS], newRS);
      const r = await this.scaleRS(newRS, size);
      newRS = r.rs;
      if (r.scaled) return status();
    }
    // reconcileOldReplicaSets
    const oldCount = specReplicas(oldRSs);
    if (oldCount > 0) {
      const all = specReplicas([...oldRSs, newRS]);
      const minAvailable = want - maxUnavailable(this.d);
      const newUnavailable = replicasOf(newRS) - Number(statusOf(newRS).availableReplicas ?? 0);
      const maxScaledDown = all - minAvailable - newUnavailable;
      if (maxScaledDown > 0) {
        const { oldRSs: cleaned, count } = await this.cleanupUnhealthy(oldRSs, maxScaledDown);
        oldRSs = cleaned;
        const down = await this.scaleDownOld([...oldRSs, newRS], oldRSs);
        if (count + down > 0) return status();
      }
    }
    return status();
  }

  /** cleanupUnhealthyReplicas: old ReplicaSets' unavailable replicas go first. */
  private async cleanupUnhealthy(oldRSs: Obj[], max: number): Promise<{ oldRSs: Obj[]; count: number }> {
    const sorted = [...oldRSs].sort(byCreation);
    let total = 0;
    for (const [i, rs] of sorted.entries()) {
      if (total >= max) break;
      const avail = Number(statusOf(rs).availableReplicas ?? 0);
      if (replicasOf(rs) === 0 || replicasOf(rs) === avail) continue;
      const n = Math.min(max - total, replicasOf(rs) - avail);
      sorted[i] = (await this.scaleRS(rs, replicasOf(rs) - n)).rs;
      total += n;
    }
    return { oldRSs: sorted, count: total };
  }

  /** scaleDownOldReplicaSetsForRollingUpdate */
  private async scaleDownOld(all: Obj[], oldRSs: Obj[]): Promise<number> {
    const minAvailable = replicasOf(this.d) - maxUnavailable(this.d);
    const avail = availableReplicas(all);
    if (avail <= minAvailable) return 0;
    const target = avail - minAvailable;
    let total = 0;
    for (const rs of [...oldRSs].sort(byCreation)) {
      if (total >= target) break;
      if (replicasOf(rs) === 0) continue;
      const n = Math.min(replicasOf(rs), target - total);
      await this.scaleRS(rs, replicasOf(rs) - n);
      total += n;
    }
    return total;
  }

  /** rolloutRecreate: old ReplicaSets to 0 first, then the new one to the full count. */
  private async recreate(rss: Obj[]): Promise<Result> {
    let { newRS, oldRSs } = await this.allReplicaSets(rss, false);
    const status = () => this.writeStatus(rolloutStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS, this.d));
    let scaledDown = false;
    for (const [i, rs] of oldRSs.entries()) {
      if (replicasOf(rs) === 0) continue;
      const r = await this.scaleRS(rs, 0);
      oldRSs[i] = r.rs;
      scaledDown ||= r.scaled;
    }
    if (scaledDown) return status();
    // oldPodsRunning: what the old ReplicaSets' status still counts.
    if (oldRSs.some((rs) => Number(statusOf(rs).replicas ?? 0) > 0)) return status();
    if (!newRS) ({ newRS, oldRSs } = await this.allReplicaSets(rss, true));
    if (replicasOf(newRS!) !== replicasOf(this.d)) newRS = (await this.scaleRS(newRS!, replicasOf(this.d))).rs;
    return status();
  }

  /** checkPausedConditions */
  private async pausedConditions(): Promise<void> {
    if (!hasProgressDeadline(this.d)) return;
    const cur = getCondition(statusOf(this.d), 'Progressing');
    if (cur?.reason === reasons.timedOut) return;
    const pausedCond = cur?.reason === reasons.paused;
    if (specOf(this.d).paused === true && !pausedCond) this.setStatusCondition(newCondition('Progressing', 'Unknown', reasons.paused, 'Deployment is paused'));
    else if (specOf(this.d).paused !== true && pausedCond) this.setStatusCondition(newCondition('Progressing', 'Unknown', reasons.resumed, 'Deployment is resumed'));
    else return;
    await this.updateStatus();
  }

  async run(): Promise<Result> {
    const sel = specOf(this.d).selector;
    if (sel !== undefined && jsonEqual(sel, {})) {
      // Selecting everything is refused: only observedGeneration moves.
      if (Number(statusOf(this.d).observedGeneration ?? 0) < Number(metaOf(this.d).generation)) {
        this.d.status = { ...statusOf(this.d), observedGeneration: metaOf(this.d).generation };
        await this.updateStatus();
      }
      return;
    }
    const rss = await this.claimReplicaSets();
    if (metaOf(this.d).deletionTimestamp !== undefined) {
      const { newRS, oldRSs } = await this.allReplicaSets(rss, false);
      return this.writeStatus(calculateStatus([...oldRSs, newRS], newRS, this.d));
    }
    await this.pausedConditions();
    if (specOf(this.d).paused === true || (await this.isScalingEvent(rss))) return this.syncScaling(rss);
    return rec(specOf(this.d).strategy).type === 'Recreate' ? this.recreate(rss) : this.rolling(rss);
  }
}

/**
 * Syncs one Deployment (NotFound: nothing to do, its ReplicaSets go by garbage collection), read
 * from the informer as upstream's dsLister.Get does; a key queued before the informer has its
 * object reads the store. A stale read ends in a write conflict, and the newer version's event
 * queues the key again.
 */
export async function syncDeployment(stores: SyncStores, namespace: string, name: string): Promise<Result> {
  let d: Obj | undefined = stores.cachedDeployment?.(namespace, name);
  if (d === undefined) {
    try {
      d = await stores.deployments.get(namespace, name);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
  }
  return new DeploymentSync(stores, deepCopyJSON(d) as Obj).run();
}

