/**
 * The policies in force (k8s.io/apiserver pkg/admission/plugin/policy/generic policy_source.go):
 * the policies of one family (ValidatingAdmissionPolicies or MutatingAdmissionPolicies) and their
 * bindings read from the store through watch-fed caches, each policy compiled once per
 * stored version by the family's own compiler, its bindings grouped under it, and its paramKind
 * resolved — built-in kinds from the catalogue, custom resources from the CRDs served — to a
 * cache of the param objects, started on first use. A paramKind that resolves to nothing is the
 * policy's configuration error, as upstream.
 */
import { builtinResources, resourcePrefix, type Obj } from '../../registry/index.ts';
import type { Store } from '../../storage/index.ts';
import { objectCache, type ObjectCache } from '../informer.ts';
import { builtinEquivalents } from './equivalents.ts';
import type { ParamSource } from './params.ts';
import type { GVK, GVR } from './matching.ts';

const GROUP = 'admissionregistration.k8s.io';

/** A policy with what evaluating it needs (PolicyHook); E is its family's compiled evaluator. */
export interface PolicyHook<E> {
  name: string;
  policy: Obj;
  spec: Obj;
  bindings: Obj[];
  evaluator: E;
  /** The params' source (undefined without a paramKind, or when it did not resolve). */
  params?: ParamSource;
  configurationError?: string;
}

const specOf = (o: Obj): Obj => (o.spec !== null && typeof o.spec === 'object' ? (o.spec as Obj) : {});
const nameOf = (o: Obj): string => String((o.metadata as { name?: unknown } | undefined)?.name ?? '');
const byName = (a: Obj, b: Obj) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0);

/** Splits "group/version" ("v1" is the core group). */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return parts[0] === '' ? undefined : { group: '', version: parts[0]! };
  if (parts.length === 2 && parts[0] !== '' && parts[1] !== '') return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** The policy and binding resources of one family, and how its policies compile. */
export interface PolicyFamily<E> {
  policies: string;
  bindings: string;
  /** Compiles a policy's spec into what evaluates it (once per resourceVersion). */
  compile: (spec: Obj) => E;
}

export class PolicySource<E> {
  private readonly policies: ObjectCache;
  private readonly bindings: ObjectCache;
  private readonly crds: ObjectCache;
  private readonly paramCaches = new Map<string, ObjectCache>();
  // By the cached policy object: the cache replaces the object when the policy changes.
  private readonly compiled = new WeakMap<object, E>();
  private hooksCache: { key: string; hooks: PolicyHook<E>[] } | undefined;
  readonly synced: Promise<void>;

  constructor(
    private readonly store: Store,
    private readonly family: PolicyFamily<E>,
  ) {
    this.policies = objectCache(store, resourcePrefix(GROUP, family.policies));
    this.bindings = objectCache(store, resourcePrefix(GROUP, family.bindings));
    this.crds = objectCache(store, resourcePrefix('apiextensions.k8s.io', 'customresourcedefinitions'));
    this.synced = Promise.all([this.policies.synced, this.bindings.synced, this.crds.synced]).then(() => {});
  }

  /** The resource and scope a paramKind names: a built-in kind, or a served custom resource version. */
  private resolve(group: string, version: string, kind: string): { resource: string; namespaced: boolean } | undefined {
    const b = builtinResources().find((r) => r.group === group && r.version === version && r.kind === kind);
    if (b !== undefined) return { resource: b.resource, namespaced: b.namespaced };
    for (const [, crd] of this.crds.entries()) {
      const spec = specOf(crd);
      const names = (spec.names ?? {}) as { kind?: string; plural?: string };
      if (spec.group !== group || names.kind !== kind || typeof names.plural !== 'string') continue;
      const versions = Array.isArray(spec.versions) ? (spec.versions as { name?: string; served?: boolean }[]) : [];
      if (!versions.some((v) => v.name === version && v.served !== false)) continue;
      return { resource: names.plural, namespaced: spec.scope !== 'Cluster' };
    }
    return undefined;
  }

  private paramSource(paramKind: Obj): ParamSource | { error: string } {
    const apiVersion = String(paramKind.apiVersion ?? '');
    const kind = String(paramKind.kind ?? '');
    const gv = parseGroupVersion(apiVersion);
    if (gv === undefined) return { error: `failed to parse paramKind APIVersion: unexpected GroupVersion string: ${apiVersion}` };
    const r = this.resolve(gv.group, gv.version, kind);
    if (r === undefined) return { error: `failed to find resource referenced by paramKind: '${gv.group}/${gv.version}, Kind=${kind}'` };
    const prefix = resourcePrefix(gv.group, r.resource);
    let cache = this.paramCaches.get(prefix);
    if (cache === undefined) {
      cache = objectCache(this.store, prefix);
      this.paramCaches.set(prefix, cache);
    }
    return { cache, namespaced: r.namespaced };
  }

  private evaluatorFor(policy: Obj): E {
    let evaluator = this.compiled.get(policy);
    if (evaluator === undefined) this.compiled.set(policy, (evaluator = this.family.compile(specOf(policy))));
    return evaluator;
  }

  /** Every policy with its bindings, by name (recomputed only after a change). */
  hooks(): PolicyHook<E>[] {
    const key = `${this.policies.version}/${this.bindings.version}/${this.crds.version}`;
    if (this.hooksCache?.key === key) return this.hooksCache.hooks;
    const bindingsByPolicy = new Map<string, Obj[]>();
    for (const [, b] of this.bindings.entries()) {
      const policyName = String(specOf(b).policyName ?? '');
      let list = bindingsByPolicy.get(policyName);
      if (list === undefined) bindingsByPolicy.set(policyName, (list = []));
      list.push(b);
    }
    const hooks: PolicyHook<E>[] = [];
    for (const policy of [...this.policies.entries()].map(([, p]) => p).sort(byName)) {
      const name = nameOf(policy);
      const bindings = (bindingsByPolicy.get(name) ?? []).sort(byName);
      // Policies without bindings do nothing (upstream skips them).
      if (bindings.length === 0) continue;
      const spec = specOf(policy);
      const hook: PolicyHook<E> = { name, policy, spec, bindings, evaluator: this.evaluatorFor(policy) };
      if (spec.paramKind !== undefined && spec.paramKind !== null) {
        const s = this.paramSource(spec.paramKind as Obj);
        if ('error' in s) hook.configurationError = s.error;
        else hook.params = s;
      }
      hooks.push(hook);
    }
    this.hooksCache = { key, hooks };
    return hooks;
  }

  /**
   * EquivalentResourcesFor: a custom resource at its CRD's other served versions (their objects
   * differ only in apiVersion while the CRD converts with strategy None, as served here); a
   * built-in resource at the others sharing its storage.
   */
  equivalents(r: GVR, subresource: string): { resource: GVR; kind: GVK }[] {
    return equivalentResources(this.crds, r, subresource);
  }

  stop(): void {
    this.policies.stop();
    this.bindings.stop();
    this.crds.stop();
    for (const c of this.paramCaches.values()) c.stop();
  }
}

/** EquivalentResourcesFor: a CRD's other served versions, else the built-in resources sharing `r`'s storage. */
export function equivalentResources(crds: ObjectCache, r: GVR, subresource: string): { resource: GVR; kind: GVK }[] {
  const crd = crdEquivalents(crds, r, subresource);
  return crd.length > 0 ? crd : builtinEquivalents(r, subresource);
}

/**
 * EquivalentResourcesFor: a custom resource at its CRD's other served versions (their objects
 * differ only in apiVersion while the CRD converts with strategy None, as served here), with the
 * kind of each (autoscaling/v1 Scale for the scale subresource).
 */
export function crdEquivalents(crds: ObjectCache, r: GVR, subresource: string): { resource: GVR; kind: GVK }[] {
  for (const [, crd] of crds.entries()) {
    const spec = specOf(crd);
    const names = (spec.names ?? {}) as { kind?: string; plural?: string };
    if (spec.group !== r.group || names.plural !== r.resource) continue;
    const versions = Array.isArray(spec.versions) ? (spec.versions as { name?: string; served?: boolean }[]) : [];
    return versions
      .filter((v) => v.served !== false && typeof v.name === 'string')
      .map((v) => ({
        resource: { group: r.group, version: v.name!, resource: r.resource },
        kind: subresource === 'scale' ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : { group: r.group, version: v.name!, kind: String(names.kind ?? '') },
      }));
  }
  return [];
}
