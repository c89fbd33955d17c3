/**
 * The discovery documents, built from the served resources: aggregated discovery for `/api` and
 * `/apis` (APIGroupDiscoveryList, apidiscovery.k8s.io v2 and v2beta1), and the older APIVersions,
 * APIGroupList, APIGroup and APIResourceList that kubectl falls back to and that `auth can-i`,
 * client-node and Python's dynamic client read.
 */
import type { DiscoveredGroup, DiscoveredResource } from './model.ts';

type Obj = Record<string, unknown>;

function aggregatedResource(r: DiscoveredResource): Obj {
  const o: Obj = {
    resource: r.resource,
    responseKind: { group: r.group, version: r.version, kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: r.verbs,
  };
  if (r.shortNames && r.shortNames.length > 0) o.shortNames = r.shortNames;
  if (r.categories && r.categories.length > 0) o.categories = r.categories;
  if (r.subresources && r.subresources.length > 0) {
    o.subresources = r.subresources.map((s) => ({ subresource: s.subresource, responseKind: s.responseKind, verbs: s.verbs }));
  }
  return o;
}

/** The APIGroupDiscoveryList for the given groups (`''` is the core group, served under /api). */
export function aggregatedDiscovery(groups: DiscoveredGroup[], resources: DiscoveredResource[], apiVersion: 'v2' | 'v2beta1'): Obj {
  // Indexed once: with hundreds of groups, filtering every resource for each version was quadratic.
  const byGV = new Map<string, DiscoveredResource[]>();
  for (const r of resources) {
    const k = `${r.group}/${r.version}`;
    const list = byGV.get(k);
    if (list === undefined) byGV.set(k, [r]);
    else list.push(r);
  }
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${apiVersion}`,
    metadata: {},
    items: groups.map((g) => ({
      // ObjectMeta's name is omitempty: the core group's item has none.
      metadata: g.name === '' ? { creationTimestamp: null } : { name: g.name, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        resources: [...(byGV.get(`${g.name}/${v}`) ?? [])]
          .sort((a, b) => (a.resource < b.resource ? -1 : 1))
          .map(aggregatedResource),
        freshness: 'Current',
      })),
    })),
  };
}

/** `GET /api`: APIVersions. */
export function apiVersions(serverAddress: string): Obj {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupDoc(g: DiscoveredGroup): Obj {
  const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

/** `GET /apis`: APIGroupList (named groups only). */
export function apiGroupList(groups: DiscoveredGroup[]): Obj {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.filter((g) => g.name !== '').map(groupDoc) };
}

/** `GET /apis/{group}`: APIGroup. */
export function apiGroup(g: DiscoveredGroup): Obj {
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(g) };
}

/** `GET /api/v1`, `GET /apis/{group}/{version}`: APIResourceList. */
export function apiResourceList(group: string, version: string, resources: DiscoveredResource[]): Obj {
  const out: Obj[] = [];
  const mine = resources.filter((r) => r.group === group && r.version === version).sort((a, b) => (a.resource < b.resource ? -1 : 1));
  for (const r of mine) {
    const o: Obj = { name: r.resource, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs };
    if (r.shortNames && r.shortNames.length > 0) o.shortNames = r.shortNames;
    if (r.categories && r.categories.length > 0) o.categories = r.categories;
    if (r.storageVersionHash) o.storageVersionHash = r.storageVersionHash;
    out.push(o);
    for (const s of r.subresources ?? []) {
      const so: Obj = { name: `${r.resource}/${s.subresource}`, singularName: '', namespaced: r.namespaced, kind: s.responseKind.kind, verbs: s.verbs };
      if (s.responseKind.group !== group || s.responseKind.version !== version) {
        so.group = s.responseKind.group;
        so.version = s.responseKind.version;
      }
      out.push(so);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group === '' ? version : `${group}/${version}`, resources: out };
}
