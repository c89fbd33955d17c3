/**
 * The table of served resources the router dispatches to: for each group/version/resource, its
 * RESTStore, its table convertor, its discovery entry and the subresources it has. Built-in kinds
 * are registered once; custom resources come and go as CRDs are established and deleted
 * (crd/serving.ts). Discovery and OpenAPI documents are derived from this table and rebuilt
 * whenever it changes (`generation` lets caches notice).
 */
import type { RESTStore } from '../registry/rest.ts';
import type { TableConvertor } from './table/convert.ts';
import type { DiscoveredGroup, DiscoveredResource } from './discovery/model.ts';
import { compareKubeAwareVersions } from './discovery/model.ts';

/** The paths of a CRD's scale subresource. */
export interface ScaleSpec {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface ServedResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  store: RESTStore;
  table: TableConvertor;
  discovery: DiscoveredResource;
  /** Has the status subresource. */
  status: boolean;
  /** Has the finalize subresource (Namespaces: PUT writes spec.finalizers). */
  finalize?: boolean;
  scale?: ScaleSpec;
  /** PATCH with strategic-merge-patch is accepted (built-in kinds; treated as a merge patch). */
  strategicMerge: boolean;
  /** Accepts protobuf request bodies (kinds kubectl sends as protobuf). */
  protobuf: boolean;
  /** Custom resource (its create checks the namespace's lifecycle and its kind/apiVersion). */
  custom: boolean;
  /** The OpenAPI v3 schema of the kind, when known (CRD schema). */
  schema?: Record<string, unknown>;
  /** The CRD is being deleted: creates are refused while its instances are removed. */
  terminating?: boolean;
  /** Deprecation warning for a deprecated CRD version. */
  deprecationWarning?: string;
}

/** A verb-only endpoint (SelfSubjectAccessReview, ...): POST answers with `create`. */
export interface ServedVirtual {
  group: string;
  version: string;
  resource: string;
  kind: string;
  discovery: DiscoveredResource;
  create(obj: Record<string, unknown>): Record<string, unknown>;
}

function key(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** The mutable set of served resources. */
export class ServedTable {
  private readonly resources = new Map<string, ServedResource>();
  private readonly virtuals = new Map<string, ServedVirtual>();
  /** Group order: built-in groups first (as registered), then custom groups by name. */
  private readonly builtinGroups: string[] = [];
  /** Increases on every change. */
  generation = 0;
  private readonly listeners: Array<() => void> = [];

  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  private changed(): void {
    this.generation++;
    for (const fn of this.listeners) fn();
  }

  addBuiltin(r: ServedResource): void {
    if (!this.builtinGroups.includes(r.group)) this.builtinGroups.push(r.group);
    this.resources.set(key(r.group, r.version, r.resource), r);
    this.changed();
  }

  addVirtual(v: ServedVirtual): void {
    if (!this.builtinGroups.includes(v.group)) this.builtinGroups.push(v.group);
    this.virtuals.set(key(v.group, v.version, v.resource), v);
    this.changed();
  }

  /** Replaces every resource of a CRD (by group and resource) with `rs` (empty: removes them). */
  setCustom(group: string, resource: string, rs: ServedResource[]): void {
    for (const [k, r] of this.resources) if (r.custom && r.group === group && r.resource === resource) this.resources.delete(k);
    for (const r of rs) this.resources.set(key(r.group, r.version, r.resource), r);
    this.changed();
  }

  get(group: string, version: string, resource: string): ServedResource | undefined {
    return this.resources.get(key(group, version, resource));
  }

  getVirtual(group: string, version: string, resource: string): ServedVirtual | undefined {
    return this.virtuals.get(key(group, version, resource));
  }

  all(): ServedResource[] {
    return [...this.resources.values()];
  }

  discovered(): DiscoveredResource[] {
    return [...[...this.resources.values()].map((r) => r.discovery), ...[...this.virtuals.values()].map((v) => v.discovery)];
  }

  /** Groups with their versions, preferred version first. */
  groups(): DiscoveredGroup[] {
    const versions = new Map<string, Set<string>>();
    for (const d of this.discovered()) {
      let s = versions.get(d.group);
      if (!s) versions.set(d.group, (s = new Set()));
      s.add(d.version);
    }
    const names = [...versions.keys()].sort((a, b) => {
      const ia = this.builtinGroups.indexOf(a);
      const ib = this.builtinGroups.indexOf(b);
      if (ia >= 0 || ib >= 0) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
      return a < b ? -1 : a > b ? 1 : 0;
    });
    return names.map((name) => ({ name, versions: [...versions.get(name)!].sort(compareKubeAwareVersions) }));
  }
}
