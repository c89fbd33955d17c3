/**
 * The garbage collector's graph of owners and dependents (kube-controller-manager's
 * GraphBuilder, `pkg/controller/garbagecollector/graph.go` and `graph_builder.go`): one node per
 * uid, holding the object's identity (apiVersion, kind, namespace, name, uid), its
 * ownerReferences and the nodes that name it as an owner. An owner named by a dependent but not
 * yet seen is a virtual node, with the coordinates the reference gives, until a watch shows it or
 * a lookup proves it absent.
 */
import type { Obj } from '../../rest.ts';
import { foregroundFinalizer, orphanFinalizer } from '../../deletion/propagation.ts';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface Identity {
  apiVersion: string;
  kind: string;
  /** '' for cluster-scoped objects (and for a virtual owner of a cluster-scoped dependent). */
  namespace: string;
  name: string;
  uid: string;
}

/** objectReference.String(), as the collector's events quote it. */
export function identityString(i: Identity): string {
  return `[${i.apiVersion}/${i.kind}, namespace: ${i.namespace}, name: ${i.name}, uid: ${i.uid}]`;
}

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: OwnerReference[] = [];
  /** Seen through a watch (false: a virtual node made from a dependent's reference). */
  observed = false;
  beingDeleted = false;
  /** Being deleted with the foregroundDeletion finalizer: its dependents go first. */
  deletingDependents = false;

  constructor(public identity: Identity) {}

  /** The dependents whose reference to this node has blockOwnerDeletion. */
  blockingDependents(): GraphNode[] {
    const out: GraphNode[] = [];
    for (const d of this.dependents) {
      if (d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true)) out.push(d);
    }
    return out;
  }
}

function metaOf(obj: Obj): Record<string, unknown> {
  const m = obj.metadata;
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
}

export function ownerReferencesOf(obj: Obj): OwnerReference[] {
  const refs = metaOf(obj).ownerReferences;
  if (!Array.isArray(refs)) return [];
  const out: OwnerReference[] = [];
  for (const r of refs) {
    if (r === null || typeof r !== 'object') continue;
    const o = r as Record<string, unknown>;
    if (typeof o.uid !== 'string' || o.uid === '') continue;
    out.push({
      apiVersion: String(o.apiVersion ?? ''),
      kind: String(o.kind ?? ''),
      name: String(o.name ?? ''),
      uid: o.uid,
      ...(typeof o.controller === 'boolean' ? { controller: o.controller } : {}),
      ...(typeof o.blockOwnerDeletion === 'boolean' ? { blockOwnerDeletion: o.blockOwnerDeletion } : {}),
    });
  }
  return out;
}

export function finalizersOf(obj: Obj): string[] {
  const f = metaOf(obj).finalizers;
  return Array.isArray(f) ? (f.filter((x) => typeof x === 'string') as string[]) : [];
}

export function isBeingDeleted(obj: Obj): boolean {
  const ts = metaOf(obj).deletionTimestamp;
  return ts !== undefined && ts !== null;
}

/** deletionStartsWithFinalizer: `obj` is being deleted with `finalizer`, and `old` was not. */
export function deletionStartsWith(old: Obj | undefined, obj: Obj, finalizer: string): boolean {
  if (!isBeingDeleted(obj) || !finalizersOf(obj).includes(finalizer)) return false;
  return old === undefined || !isBeingDeleted(old) || !finalizersOf(old).includes(finalizer);
}

export const startsOrphaning = (old: Obj | undefined, obj: Obj) => deletionStartsWith(old, obj, orphanFinalizer);
export const startsDeletingDependents = (old: Obj | undefined, obj: Obj) => deletionStartsWith(old, obj, foregroundFinalizer);

/** referencesDiffs: references added, removed, and changed (same uid, other fields), by uid. */
export function referencesDiffs(
  old: readonly OwnerReference[],
  next: readonly OwnerReference[],
): { added: OwnerReference[]; removed: OwnerReference[]; changed: Array<{ old: OwnerReference; next: OwnerReference }> } {
  const byUID = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: Array<{ old: OwnerReference; next: OwnerReference }> = [];
  for (const r of next) {
    const o = byUID.get(r.uid);
    if (!o) added.push(r);
    else {
      if (JSON.stringify(o) !== JSON.stringify(r)) changed.push({ old: o, next: r });
      byUID.delete(r.uid);
    }
  }
  return { added, removed: [...byUID.values()], changed };
}

/** The uid-keyed graph. */
export class Graph {
  private readonly nodes = new Map<string, GraphNode>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  get size(): number {
    return this.nodes.size;
  }

  /** Nodes of one resource (by its group and kind), to reconcile them with a fresh list. */
  *withKind(group: string, kind: string): Iterable<GraphNode> {
    for (const n of this.nodes.values()) {
      const i = n.identity;
      const g = i.apiVersion.includes('/') ? i.apiVersion.slice(0, i.apiVersion.indexOf('/')) : '';
      if (n.observed && g === group && i.kind === kind) yield n;
    }
  }

  /** Puts a node in the graph (the collector then links it to its owners with addToOwners). */
  put(n: GraphNode): void {
    this.nodes.set(n.identity.uid, n);
  }

  /** addDependentToOwners: owners not in the graph become virtual nodes, returned for the collector to verify. */
  addToOwners(n: GraphNode, owners: readonly OwnerReference[]): GraphNode[] {
    const virtual: GraphNode[] = [];
    for (const o of owners) {
      let owner = this.nodes.get(o.uid);
      if (!owner) {
        owner = new GraphNode({ apiVersion: o.apiVersion, kind: o.kind, namespace: n.identity.namespace, name: o.name, uid: o.uid });
        this.nodes.set(o.uid, owner);
        virtual.push(owner);
      }
      owner.dependents.add(n);
    }
    return virtual;
  }

  removeFromOwners(n: GraphNode, owners: readonly OwnerReference[]): void {
    for (const o of owners) this.nodes.get(o.uid)?.dependents.delete(n);
  }

  /** removeNode: the node leaves the graph and its owners' dependents. */
  remove(n: GraphNode): void {
    if (this.nodes.get(n.identity.uid) === n) this.nodes.delete(n.identity.uid);
    this.removeFromOwners(n, n.owners);
  }
}
