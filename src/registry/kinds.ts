/**
 * The one list of built-in kinds: each entry is a kind folder's definition. Adding a built-in kind
 * is a folder under `registry/` and a line here; the kinds without a folder yet are served from
 * Kubernetes' OpenAPI (`builtin/`) with the common strategy. Custom resources are defined per CRD version
 * (`customresource/definition.ts`) as CRDs are established.
 */
import { localSubjectAccessReview, selfSubjectAccessReview, selfSubjectRulesReview, subjectAccessReview } from './authorization/self-reviews.ts';
import { selfSubjectReview, tokenReview } from './authentication/reviews.ts';
import { crdKind } from './crd/definition.ts';
import type { CRDStore } from './crd/store.ts';
import type { KindDefinition, KindDeps, ReviewDefinition } from './kind.ts';
import { namespaceKind } from './namespace/definition.ts';
import { serviceKind } from './core/service/definition.ts';
import { withCoreSubresources } from './core/subresources.ts';
import { builtinKinds as openAPIKinds } from './builtin/definition.ts';
import type { NamespaceStore } from './namespace/rest.ts';

/** Built-in kinds with a folder of their own, in discovery order. */
const builtinKinds: ReadonlyArray<(deps: KindDeps) => KindDefinition> = [namespaceKind, serviceKind, crdKind];

/** Create-only review endpoints. */
const builtinReviews: readonly ReviewDefinition[] = [selfSubjectReview, tokenReview, localSubjectAccessReview, selfSubjectAccessReview, selfSubjectRulesReview, subjectAccessReview];

/** The built-in kinds over one store, and the two stores the controllers and CRD serving drive. */
export interface BuiltinRegistry {
  kinds: KindDefinition[];
  reviews: readonly ReviewDefinition[];
  namespaces: NamespaceStore;
  crds: CRDStore;
}

export function builtinRegistry(deps: KindDeps): BuiltinRegistry {
  const own = builtinKinds.map((k) => k(deps));
  // Then every other stored kind of Kubernetes 1.35's default group-versions, from its OpenAPI.
  const all = [...own, ...openAPIKinds(deps, new Set(own.map((k) => `${k.group}/${k.resource}`)))];
  const lookup = (group: string, resource: string) => all.find((k) => k.group === group && k.resource === resource)?.store;
  const kinds = all.map((k) => withCoreSubresources(k, lookup, deps.tokenGenerator));
  const find = (group: string, resource: string) => kinds.find((k) => k.group === group && k.resource === resource)!.store;
  return {
    kinds,
    reviews: builtinReviews,
    namespaces: find('', 'namespaces') as NamespaceStore,
    crds: find('apiextensions.k8s.io', 'customresourcedefinitions') as CRDStore,
  };
}
