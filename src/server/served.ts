/**
 * The table of served resources the router dispatches to: the registry's kind definitions by
 * group/version/resource, and the create-only review endpoints. Built-in kinds are added once;
 * custom resources come and go as CRDs are established and deleted (crd/serving.ts). Discovery
 * and OpenAPI documents are derived from this table and rebuilt whenever it changes
 * (`generation` lets caches notice).
 */
import type { KindDefinition, ReviewDefinition } from '../registry/index.ts';
import type { DiscoveredGroup, DiscoveredResource } from './discovery/model.ts';
import { compareKubeAwareVersions, discoveryOf, reviewDiscovery } from './discovery/model.ts';

/** A served kind: its definition is all the server needs. */
export type ServedResource = KindDefinition;

function key(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** The mutable set of served resources. */
export class ServedTable {
  private readonly resources = new Map<string, ServedResource>();
  private readonly reviews = new Map<string, ReviewDefinition>();
  /** Group order: built-in groups first (as registered), then custom groups by name. */
  private readonly builtinGroups: string[] = [];
  /** Increases on every change. */
  generation = 0;
  private readonly listeners: Array<() => void> = [];
  private readonly discovery = new WeakMap<object, DiscoveredResource>();

  /** Calls `fn` after every change; returns the function that stops it. */
  onChange(fn: () => void): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
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

  addReview(v: ReviewDefinition): void {
    if (!this.builtinGroups.includes(v.group)) this.builtinGroups.push(v.group);
    this.reviews.set(key(v.group, v.version, v.resource), v);
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

  getReview(group: string, version: string, resource: string): ReviewDefinition | undefined {
    return this.reviews.get(key(group, version, resource));
  }

  all(): ServedResource[] {
    return [...this.resources.values()];
  }

  /** The discovery entry of a served resource (computed once per definition). */
  discoveryOf(r: ServedResource | ReviewDefinition): DiscoveredResource {
    let d = this.discovery.get(r);
    if (!d) this.discovery.set(r, (d = 'store' in r ? discoveryOf(r) : reviewDiscovery(r)));
    return d;
  }

  discovered(): DiscoveredResource[] {
    return [...[...this.resources.values()].map((r) => this.discoveryOf(r)), ...[...this.reviews.values()].map((v) => this.discoveryOf(v))];
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
