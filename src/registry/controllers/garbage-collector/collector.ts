/**
 * kube-controller-manager's garbage collector (`pkg/controller/garbagecollector`) over every
 * served kind, built-in and custom: a monitor per resource (list, then watch) feeds the graph;
 * two queues act on it as upstream's workers do.
 *
 * - attemptToDelete: an object whose owners are all gone (absent, or present with another uid)
 *   is deleted, with the propagation its own finalizers ask for (Background by default);
 *   references to absent owners are taken out of an object that still has a live owner; an object
 *   whose owner is deleting its dependents in the foreground is deleted in the foreground itself
 *   when it has dependents; an owner deleting in the foreground loses its `foregroundDeletion`
 *   finalizer once no dependent with blockOwnerDeletion is left.
 * - attemptToOrphan: an owner deleted with the `orphan` finalizer has its reference taken out of
 *   every dependent, then loses the finalizer.
 *
 * Owners are always looked up live (by the reference's apiVersion and kind, in the dependent's
 * namespace when the owner is namespaced), never trusted from the graph, so nothing is deleted
 * whose owner exists with the referenced uid. A cluster-scoped object naming a namespaced owner is
 * never collected; a namespaced dependent naming an owner seen in another namespace gets the
 * collector's `OwnerRefInvalidNamespace` Warning Event.
 */
import { randomBytes } from 'node:crypto';
import { isConflict, isNotFound } from '../../../apimachinery/index.ts';
import { formatRFC3339 } from '../../../apimachinery/index.ts';
import { foregroundFinalizer, orphanFinalizer } from '../../deletion/propagation.ts';
import type { KindDefinition } from '../../kind.ts';
import type { DeleteOptions, Obj, RESTStore, UserInfo, Watcher } from '../../rest.ts';
import type { Controller } from '../loop.ts';
import {
  finalizersOf,
  Graph,
  GraphNode,
  identityString,
  isBeingDeleted,
  ownerReferencesOf,
  referencesDiffs,
  startsDeletingDependents,
  startsOrphaning,
  type Identity,
  type OwnerReference,
} from './graph.ts';

/** The served kinds, as the collector's discovery sees them (the server's table of served resources). */
export interface CollectedKinds {
  all(): readonly KindDefinition[];
  /** Calls `fn` whenever the set changes (a CRD established or removed); returns the unsubscribe. */
  onChange(fn: () => void): () => void;
}

export interface GarbageCollectorOptions {
  /** The store Events are written to (core/v1 events), for OwnerRefInvalidNamespace. */
  events?: RESTStore;
  onError?: (err: unknown) => void;
  /** Objects acted on at once (upstream runs 20 attemptToDelete workers). */
  workers?: number;
}

export interface GarbageCollector extends Controller {
  readonly graph: Graph;
}

/** Who the collector writes as (kube-controller-manager's generic-garbage-collector service account). */
const collectorUser: UserInfo = {
  username: 'system:serviceaccount:kube-system:generic-garbage-collector',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
};
const manager = 'kube-controller-manager';

const apiVersionOf = (k: { group: string; version: string }) => (k.group === '' ? k.version : `${k.group}/${k.version}`);
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/** A marker: the item was found gone and its node removed (enqueuedVirtualDeleteEventErr). */
class Gone extends Error {}
/** A marker: a cluster-scoped object names a namespaced owner; retrying cannot help. */
class NamespacedOwnerOfClusterScoped extends Error {}

/** A keyed work queue with a few workers and backoff on failure (a rate-limited workqueue). */
class WorkQueue {
  private readonly pending = new Map<string, GraphNode>();
  private readonly active = new Set<string>();
  private readonly again = new Map<string, GraphNode>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private idleWaiters: Array<() => void> = [];
  stopped = false;
  /** Held while a monitor has not applied its first list: items wait, nothing new starts. */
  paused = false;

  constructor(
    private readonly work: (n: GraphNode) => Promise<void>,
    private readonly workers: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(n: GraphNode): void {
    if (this.stopped) return;
    const uid = n.identity.uid;
    if (this.active.has(uid)) this.again.set(uid, n);
    else this.pending.set(uid, n);
    this.pump();
  }

  private later(n: GraphNode): void {
    const uid = n.identity.uid;
    const count = (this.failures.get(uid) ?? 0) + 1;
    this.failures.set(uid, count);
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(n);
    }, Math.min(50 * 2 ** (count - 1), 10_000));
    t.unref();
    this.timers.add(t);
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  private pump(): void {
    while (!this.stopped && !this.paused && this.active.size < this.workers && this.pending.size > 0) {
      const [uid, n] = this.pending.entries().next().value as [string, GraphNode];
      this.pending.delete(uid);
      this.active.add(uid);
      void this.work(n)
        .then(
          () => this.failures.delete(uid),
          (e: unknown) => {
            if (e instanceof Gone || e instanceof NamespacedOwnerOfClusterScoped) {
              this.failures.delete(uid);
              return;
            }
            this.onError(e);
            this.later(n);
          },
        )
        .finally(() => {
          this.active.delete(uid);
          const again = this.again.get(uid);
          if (again) {
            this.again.delete(uid);
            this.pending.set(uid, again);
          }
          this.pump();
          this.checkIdle();
        });
    }
  }

  busy(): boolean {
    return this.pending.size > 0 || this.active.size > 0;
  }

  private checkIdle(): void {
    if (this.busy()) return;
    const ws = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of ws) w();
  }

  idle(): Promise<void> {
    return this.busy() ? new Promise((r) => this.idleWaiters.push(r)) : Promise.resolve();
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.pending.clear();
    this.again.clear();
    this.checkIdle();
  }
}

interface Monitor {
  kind: KindDefinition;
  watcher?: Watcher;
  stopped: boolean;
  /** Its first list has been applied to the graph. */
  synced: boolean;
}

/** How long the workers wait for new monitors' first lists (upstream: the monitors' resync period). */
const monitorSyncTimeoutMs = 30_000;

export function startGarbageCollector(kinds: CollectedKinds, opts: GarbageCollectorOptions = {}): GarbageCollector {
  const graph = new Graph();
  const onError = opts.onError ?? (() => {});
  let stopped = false;
  const monitors = new Map<string, Monitor>();
  /** Graph changes are applied one at a time, in arrival order (upstream's single graphChanges worker). */
  let changes: Promise<void> = Promise.resolve();
  let pendingChanges = 0;

  const kindOf = (apiVersion: string, kind: string): KindDefinition | undefined => kinds.all().find((k) => apiVersionOf(k) === apiVersion && k.kind === kind);

  const nsFor = (k: KindDefinition, namespace: string) => (k.namespaced ? namespace : undefined);

  /** The live object of an identity, or undefined when it is absent or has another uid. */
  async function getLive(id: Identity): Promise<Obj | undefined> {
    const k = kindOf(id.apiVersion, id.kind);
    if (!k) throw new Error(`unable to get REST mapping for ${id.apiVersion}/${id.kind}`);
    try {
      const obj = await k.store.get(nsFor(k, id.namespace), id.name);
      return (obj.metadata as { uid?: string } | undefined)?.uid === id.uid ? obj : undefined;
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  /** A virtual delete event: the node is gone; its dependents are looked at again. */
  function virtualDelete(n: GraphNode): never {
    graph.remove(n);
    for (const d of n.dependents) attemptToDelete.add(d);
    for (const o of n.owners) {
      const owner = graph.get(o.uid);
      if (owner?.deletingDependents) attemptToDelete.add(owner);
    }
    throw new Gone();
  }

  /**
   * Owners known to be gone (absentOwnerCache, bounded as upstream's 500-entry LRU): seen deleted
   * while they had dependents, or looked up and not found. It answers before the kind is resolved,
   * so the dependents of custom resources whose CRD went with them are still collected.
   */
  const absent = new Set<string>();
  const absentKey = (r: { apiVersion: string; kind: string; name: string; uid: string }, namespace: string) => `${r.apiVersion}/${r.kind}/${namespace}/${r.name}/${r.uid}`;
  const markAbsent = (key: string) => {
    absent.delete(key);
    absent.add(key);
    if (absent.size > 500) absent.delete(absent.values().next().value as string);
  };

  /** isDangling: the owner a reference names is absent (or has another uid); else the live owner. */
  async function lookUpOwner(ref: OwnerReference, item: GraphNode): Promise<Obj | undefined> {
    if (absent.has(absentKey(ref, '')) || absent.has(absentKey(ref, item.identity.namespace))) return undefined;
    const k = kindOf(ref.apiVersion, ref.kind);
    if (!k) throw new Error(`unable to get REST mapping for ${ref.apiVersion}/${ref.kind}`);
    if (item.identity.namespace === '' && k.namespaced) throw new NamespacedOwnerOfClusterScoped();
    const ns = k.namespaced ? item.identity.namespace : '';
    try {
      const owner = await k.store.get(nsFor(k, item.identity.namespace), ref.name);
      if ((owner.metadata as { uid?: string } | undefined)?.uid === ref.uid) return owner;
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    markAbsent(absentKey(ref, ns));
    return undefined;
  }

  async function deleteObject(id: Identity, latest: Obj, policy: string): Promise<void> {
    const k = kindOf(id.apiVersion, id.kind)!;
    const m = latest.metadata as { resourceVersion?: string; ownerReferences?: unknown };
    const del = (resourceVersion?: string) => {
      const o: DeleteOptions = { propagationPolicy: policy, preconditions: { uid: id.uid, ...(resourceVersion ? { resourceVersion } : {}) }, user: collectorUser };
      return k.store.delete(nsFor(k, id.namespace), id.name, o);
    };
    try {
      await del(m.resourceVersion);
    } catch (e) {
      if (isNotFound(e)) throw e;
      if (!isConflict(e) || !m.resourceVersion) throw e;
      // Changed meanwhile: delete anyway if its owners did not change.
      const live = await getLive(id);
      if (!live) throw e;
      if (JSON.stringify((live.metadata as { ownerReferences?: unknown }).ownerReferences) !== JSON.stringify(m.ownerReferences)) throw e;
      await del();
    }
  }

  /** A GuaranteedUpdate of the live object's metadata, as the collector's patches (precondition: its uid). */
  async function patchMeta(id: Identity, fn: (m: Record<string, unknown>) => void): Promise<void> {
    const k = kindOf(id.apiVersion, id.kind);
    if (!k) throw new Error(`unable to get REST mapping for ${id.apiVersion}/${id.kind}`);
    await k.store.update(
      nsFor(k, id.namespace),
      id.name,
      (cur) => {
        if (!cur) throw new Gone();
        // The fresh object's resourceVersion stays: a conflict retries with the newer one.
        const m = { ...((cur.metadata ?? {}) as Record<string, unknown>) };
        if (m.uid !== id.uid) throw new Gone();
        fn(m);
        return { ...cur, metadata: m };
      },
      { manager, user: collectorUser },
    );
  }

  const removeOwnerRefs = (id: Identity, uids: ReadonlySet<string>) =>
    patchMeta(id, (m) => {
      const refs = Array.isArray(m.ownerReferences) ? (m.ownerReferences as Array<{ uid?: string }>) : [];
      const kept = refs.filter((r) => !uids.has(String(r.uid)));
      if (kept.length > 0) m.ownerReferences = kept;
      else delete m.ownerReferences;
    });

  const removeFinalizer = (id: Identity, finalizer: string) =>
    patchMeta(id, (m) => {
      const f = Array.isArray(m.finalizers) ? (m.finalizers as string[]).filter((x) => x !== finalizer) : [];
      if (f.length > 0) m.finalizers = f;
      else delete m.finalizers;
    });

  async function attemptToDeleteItem(item: GraphNode): Promise<void> {
    if (item.beingDeleted && !item.deletingDependents) return;
    const latest = await getLive(item.identity);
    if (!latest) virtualDelete(item);
    if (item.deletingDependents) {
      // processDeletingDependentsItem
      const blocking = item.blockingDependents();
      if (blocking.length === 0) {
        if (finalizersOf(latest).includes(foregroundFinalizer)) await removeFinalizer(item.identity, foregroundFinalizer);
        return;
      }
      for (const d of blocking) if (!d.deletingDependents) attemptToDelete.add(d);
      return;
    }
    const refs = ownerReferencesOf(latest);
    if (refs.length === 0) return;
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const owner = await lookUpOwner(ref, item);
      if (!owner) dangling.push(ref);
      else if (isBeingDeleted(owner) && finalizersOf(owner).includes(foregroundFinalizer)) waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      // The references to absent owners and to owners deleting their dependents go; the object stays.
      await removeOwnerRefs(item.identity, new Set([...dangling, ...waiting].map((r) => r.uid)));
      return;
    }
    try {
      if (waiting.length > 0 && item.dependents.size > 0) {
        // An owner waits for this object, which has dependents of its own: delete it in the
        // foreground too. A dependent also deleting its dependents would make a cycle: this
        // object's references stop blocking first.
        if ([...item.dependents].some((d) => d.deletingDependents)) {
          await patchMeta(item.identity, (m) => {
            const rs = Array.isArray(m.ownerReferences) ? (m.ownerReferences as Array<Record<string, unknown>>) : [];
            for (const r of rs) if (r.blockOwnerDeletion === true) r.blockOwnerDeletion = false;
          });
        }
        await deleteObject(item.identity, latest, 'Foreground');
        return;
      }
      const finalizers = finalizersOf(latest);
      const policy = finalizers.includes(orphanFinalizer) ? 'Orphan' : finalizers.includes(foregroundFinalizer) ? 'Foreground' : 'Background';
      await deleteObject(item.identity, latest, policy);
    } catch (e) {
      if (isNotFound(e)) virtualDelete(item);
      throw e;
    }
  }

  async function attemptToOrphanItem(owner: GraphNode): Promise<void> {
    const uids = new Set([owner.identity.uid]);
    const failures: unknown[] = [];
    await Promise.all(
      [...owner.dependents].map(async (d) => {
        try {
          await removeOwnerRefs(d.identity, uids);
        } catch (e) {
          if (!(e instanceof Gone) && !isNotFound(e)) failures.push(e);
        }
      }),
    );
    if (failures.length > 0) throw failures[0];
    try {
      await removeFinalizer(owner.identity, orphanFinalizer);
    } catch (e) {
      if (e instanceof Gone || isNotFound(e)) return;
      throw e;
    }
  }

  const workers = opts.workers ?? 8;
  const attemptToDelete = new WorkQueue(attemptToDeleteItem, workers, onError);
  const attemptToOrphan = new WorkQueue(attemptToOrphanItem, workers, onError);

  // The workers act only on a graph every monitor has listed into (upstream's Run and Sync wait
  // for the monitors' caches to sync): an owner in foreground deletion listed before its blocking
  // dependents' resource would otherwise look unblocked and be deleted first. A monitor that does
  // not sync in time (its list keeps failing) holds them no longer than the timeout.
  let syncTimer: NodeJS.Timeout | undefined;
  function holdWorkers(): void {
    attemptToDelete.paused = attemptToOrphan.paused = true;
    if (syncTimer) clearTimeout(syncTimer);
    syncTimer = setTimeout(releaseWorkers, monitorSyncTimeoutMs);
    syncTimer.unref();
  }
  function releaseWorkers(): void {
    if (syncTimer) clearTimeout(syncTimer);
    syncTimer = undefined;
    attemptToDelete.resume();
    attemptToOrphan.resume();
  }
  function checkSynced(): void {
    if (!attemptToDelete.paused) return;
    for (const mon of monitors.values()) if (!mon.synced) return;
    releaseWorkers();
  }

  /** reportInvalidNamespaceOwnerRef: a Warning Event on the dependent. */
  function reportInvalidNamespace(dep: GraphNode, ownerUID: string): void {
    const ref = dep.owners.find((o) => o.uid === ownerUID);
    if (!ref || !opts.events) return;
    const ns = dep.identity.namespace || 'default';
    const invalid: Identity = { apiVersion: ref.apiVersion, kind: ref.kind, namespace: dep.identity.namespace, name: ref.name, uid: ref.uid };
    const now = formatRFC3339(new Date());
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${dep.identity.name}.${randomBytes(8).toString('hex')}`, namespace: ns },
      involvedObject: { kind: dep.identity.kind, apiVersion: dep.identity.apiVersion, namespace: dep.identity.namespace, name: dep.identity.name, uid: dep.identity.uid },
      reason: 'OwnerRefInvalidNamespace',
      message: `ownerRef ${identityString(invalid)} does not exist in namespace ${JSON.stringify(dep.identity.namespace)}`,
      source: { component: 'garbage-collector-controller' },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type: 'Warning',
      reportingComponent: 'garbage-collector-controller',
      reportingInstance: '',
    };
    opts.events.create(ns, event, { user: collectorUser }).catch(onError);
  }

  /** addDependentToOwners' checks: owners to verify, and dependents whose references look wrong. */
  function addToOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    const virtual = graph.addToOwners(n, owners);
    for (const v of virtual) attemptToDelete.add(v);
    let suspicious = false;
    for (const o of owners) {
      const owner = graph.get(o.uid)!;
      if (virtual.includes(owner)) continue;
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== n.identity.namespace) {
        if (owner.observed) reportInvalidNamespace(n, o.uid);
        suspicious = true;
      } else if (owner.identity.apiVersion !== o.apiVersion || owner.identity.kind !== o.kind || owner.identity.name !== o.name) {
        suspicious = true;
      } else if (!ownerNamespaced && owner.identity.namespace !== n.identity.namespace && !owner.observed) {
        suspicious = true;
      }
    }
    if (suspicious) attemptToDelete.add(n);
  }

  function processTransitions(old: Obj | undefined, obj: Obj, n: GraphNode): void {
    if (startsOrphaning(old, obj)) {
      attemptToOrphan.add(n);
      return;
    }
    if (startsDeletingDependents(old, obj)) {
      n.deletingDependents = true;
      for (const d of n.dependents) attemptToDelete.add(d);
      attemptToDelete.add(n);
    }
  }

  /**
   * What the transitions need of the last object seen per uid (an informer's old object): its
   * deletionTimestamp and finalizers, kept only while it is being deleted (an object that is not
   * compares as no object at all), so the collector holds no copies of the objects it watches.
   */
  const lastSeen = new Map<string, Obj>();
  const remember = (uid: string, obj: Obj) => {
    if (!isBeingDeleted(obj)) {
      lastSeen.delete(uid);
      return;
    }
    const m = obj.metadata as Record<string, unknown>;
    lastSeen.set(uid, { metadata: { deletionTimestamp: m.deletionTimestamp, finalizers: finalizersOf(obj) } });
  };

  /** processGraphChanges for one event of a monitored kind. */
  function apply(k: KindDefinition, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: Obj): void {
    const m = (obj.metadata ?? {}) as { uid?: string; name?: string; namespace?: string };
    if (!m.uid || !m.name) return;
    const identity: Identity = { apiVersion: apiVersionOf(k), kind: k.kind, namespace: m.namespace ?? '', name: m.name, uid: m.uid };
    let existing = graph.get(m.uid);
    const old = lastSeen.get(m.uid);
    if (existing && type !== 'DELETED' && !existing.observed) {
      // A virtual node seen at last: dependents that named it otherwise are checked again.
      const seen = identity;
      for (const d of existing.dependents) {
        const r = d.owners.find((o) => o.uid === seen.uid);
        const matches = r && r.apiVersion === seen.apiVersion && r.kind === seen.kind && r.name === seen.name && (seen.namespace === '' || d.identity.namespace === seen.namespace);
        if (matches) continue;
        if (seen.namespace !== '' && d.identity.namespace !== seen.namespace) reportInvalidNamespace(d, seen.uid);
        attemptToDelete.add(d);
      }
      existing.identity = seen;
      existing.observed = true;
    }
    if (type === 'DELETED') {
      lastSeen.delete(m.uid);
      if (!existing) return;
      graph.remove(existing);
      if (existing.dependents.size > 0) markAbsent(absentKey(identity, identity.namespace));
      for (const d of existing.dependents) attemptToDelete.add(d);
      for (const o of existing.owners) {
        const owner = graph.get(o.uid);
        if (owner?.deletingDependents) attemptToDelete.add(owner);
      }
      return;
    }
    remember(m.uid, obj);
    const owners = ownerReferencesOf(obj);
    if (!existing) {
      const n = new GraphNode(identity);
      n.observed = true;
      n.owners = owners;
      n.beingDeleted = isBeingDeleted(obj);
      n.deletingDependents = n.beingDeleted && finalizersOf(obj).includes(foregroundFinalizer);
      graph.put(n);
      addToOwners(n, owners);
      processTransitions(old, obj, n);
      return;
    }
    existing.identity = identity;
    const { added, removed, changed } = referencesDiffs(existing.owners, owners);
    if (added.length > 0 || removed.length > 0 || changed.length > 0) {
      // addUnblockedOwnersToDeleteQueue: an owner waiting on this object may now be free to go.
      for (const r of removed) if (r.blockOwnerDeletion === true) { const o = graph.get(r.uid); if (o) attemptToDelete.add(o); }
      for (const c of changed) {
        if (c.old.blockOwnerDeletion === true && c.next.blockOwnerDeletion !== true) { const o = graph.get(c.next.uid); if (o) attemptToDelete.add(o); }
      }
      existing.owners = owners;
      addToOwners(existing, added);
      graph.removeFromOwners(existing, removed);
    }
    if (isBeingDeleted(obj)) existing.beingDeleted = true;
    processTransitions(old, obj, existing);
  }

  function enqueueChange(fn: () => void): void {
    pendingChanges++;
    changes = changes.then(() => {
      pendingChanges--;
      if (!stopped) fn();
    });
  }

  /** The resource's current objects, then its changes (an informer's list and watch). */
  async function runMonitor(mon: Monitor): Promise<void> {
    if (mon.stopped || stopped) return;
    const k = mon.kind;
    try {
      const list = await k.store.list(undefined, {});
      if (mon.stopped || stopped) return;
      enqueueChange(() => {
        const present = new Set<string>();
        for (const item of list.items) {
          const uid = (item.metadata as { uid?: string } | undefined)?.uid;
          if (uid) present.add(uid);
          apply(k, graph.get(uid ?? '')?.observed ? 'MODIFIED' : 'ADDED', item);
        }
        // A relist: what is no longer there was deleted while the watch was down.
        for (const n of [...graph.withKind(k.group, k.kind)]) {
          if (!present.has(n.identity.uid)) apply(k, 'DELETED', { metadata: { uid: n.identity.uid, name: n.identity.name } });
        }
        if (!mon.synced) {
          mon.synced = true;
          checkSynced();
        }
      });
      mon.watcher = await k.store.watch(
        undefined,
        // A metadata informer, as upstream's monitors are: the collector reads only metadata. (A
        // version converted from storage is watched whole: its conversion expects the object.)
        { resourceVersion: list.metadata.resourceVersion, metadataOnly: k.version === k.storageVersion },
        (ev) => {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED') {
            const type = ev.type;
            const obj = ev.object;
            enqueueChange(() => apply(k, type, obj));
          }
        },
        () => {
          if (!mon.stopped && !stopped) void runMonitor(mon);
        },
      );
      if (mon.stopped || stopped) mon.watcher.stop();
    } catch (e) {
      onError(e);
      const t = setTimeout(() => void runMonitor(mon), 500);
      t.unref();
    }
  }

  /** Resource monitors for every deletable, listable, watchable resource, one per group and resource. */
  function syncMonitors(): void {
    if (stopped) return;
    const wanted = new Map<string, KindDefinition>();
    for (const k of kinds.all()) {
      if (!['delete', 'list', 'watch'].every((v) => k.verbs.includes(v))) continue;
      // kube-controller-manager's default GCIgnoredResources: Events are not followed.
      if (k.resource === 'events' && (k.group === '' || k.group === 'events.k8s.io')) continue;
      // A resource served over another group's storage is seen through that group's.
      if (k.storageGroup !== undefined && k.storageGroup !== k.group) continue;
      const key = `${k.group}/${k.resource}`;
      const cur = wanted.get(key);
      if (!cur || (cur.version !== cur.storageVersion && k.version === k.storageVersion)) wanted.set(key, k);
    }
    for (const [key, mon] of monitors) {
      const k = wanted.get(key);
      if (k === mon.kind) continue;
      mon.stopped = true;
      mon.watcher?.stop();
      monitors.delete(key);
    }
    let added = false;
    for (const [key, k] of wanted) {
      if (monitors.has(key)) continue;
      const mon: Monitor = { kind: k, stopped: false, synced: false };
      monitors.set(key, mon);
      added = true;
      void runMonitor(mon);
    }
    if (added) holdWorkers();
    else checkSynced();
  }

  const unsubscribe = kinds.onChange(() => syncMonitors());
  syncMonitors();

  return {
    graph,
    enqueue: () => {},
    async idle() {
      for (;;) {
        await changes;
        await new Promise((r) => setTimeout(r, 20));
        if (pendingChanges > 0 || attemptToDelete.busy() || attemptToOrphan.busy()) {
          await Promise.all([attemptToDelete.idle(), attemptToOrphan.idle()]);
          continue;
        }
        return;
      }
    },
    stop() {
      stopped = true;
      unsubscribe();
      for (const mon of monitors.values()) {
        mon.stopped = true;
        mon.watcher?.stop();
      }
      monitors.clear();
      if (syncTimer) clearTimeout(syncTimer);
      attemptToDelete.stop();
      attemptToOrphan.stop();
    },
  };
}
