/**
 * What discovery describes: the served resources of each group version, in one shape from which
 * the aggregated (apidiscovery.k8s.io/v2) and the older documents (APIVersions, APIGroupList,
 * APIGroup, APIResourceList) are all built.
 */
import { createHash } from 'node:crypto';
import { compareKubeAwareVersions, type KindDefinition, type ReviewDefinition } from '../../registry/index.ts';

export { compareKubeAwareVersions };

export interface SubresourceInfo {
  subresource: string;
  /** The kind the subresource answers with (Scale for `scale`). */
  responseKind: { group: string; version: string; kind: string };
  verbs: string[];
}

export interface DiscoveredResource {
  group: string;
  version: string;
  resource: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: SubresourceInfo[];
  storageVersionHash?: string;
}

/** A group and its served versions, preferred first. */
export interface DiscoveredGroup {
  name: string;
  versions: string[];
}

/** discovery.StorageVersionHash: base64 of the first 8 bytes of sha256("group/version/kind"). */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** A kind definition's discovery entry. */
export function discoveryOf(k: KindDefinition): DiscoveredResource {
  return {
    group: k.group,
    version: k.version,
    resource: k.resource,
    singular: k.singular,
    kind: k.kind,
    namespaced: k.namespaced,
    verbs: [...k.verbs],
    shortNames: [...k.shortNames],
    categories: [...k.categories],
    subresources: k.subresources.map((s) => ({ subresource: s.name, responseKind: { ...s.responseKind }, verbs: [...s.verbs] })),
    storageVersionHash: storageVersionHash(k.storageGroup ?? k.group, k.storageVersion, k.kind),
  };
}

/** A review endpoint's discovery entry: create only, no storage. */
export function reviewDiscovery(v: ReviewDefinition): DiscoveredResource {
  return { group: v.group, version: v.version, resource: v.resource, singular: v.singular, kind: v.kind, namespaced: v.namespaced === true, verbs: ['create'] };
}
