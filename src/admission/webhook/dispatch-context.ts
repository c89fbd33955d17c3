/**
 * What both webhook plugins read besides their configurations (generic.Webhook's informers and
 * client manager): namespaces for namespaceSelector, CRDs for matchPolicy Equivalent, the
 * webhook clients, and the authorizer matchConditions see — each a watch-fed cache started once
 * per plugin.
 */
import { newInternalError, type StatusError } from '../../apimachinery/index.ts';
import { resourcePrefix, type AdmissionAttributes, type Obj } from '../../registry/index.ts';
import type { Store } from '../../storage/index.ts';
import type { Authorizer } from '../../cel/index.ts';
import { objectCache, type ObjectCache } from '../informer.ts';
import { isExemptAdmissionConfiguration, type MatchContext } from '../policy/matching.ts';
import { allowAllAuthorizer } from '../policy/plugin.ts';
import { equivalentResources } from '../policy/policy-source.ts';
import { errorMessage } from '../policy/plugin.ts';
import { VersionedAttributes, type ResourceKind, type Versioned } from '../policy/versioned.ts';
import { WebhookClients, type ServiceResolver } from './client.ts';
import { shouldCallHook, type WebhookInvocation } from './matching.ts';
import { WebhookSource, type WebhookAccessor } from './source.ts';

export interface WebhookPluginOptions {
  /** Where `clientConfig.service` webhooks listen; without one, every service is unresolvable. */
  serviceResolver?: ServiceResolver;
  authorizer?: Authorizer;
}

/** A failed conversion, as the dispatcher answers it. */
class ConversionFailed extends Error {
  constructor(readonly status: StatusError) {
    super(status.message);
  }
}

export class DispatchContext {
  readonly source: WebhookSource;
  /** Per request, its objects at the versions webhooks matched (the dispatcher's versionedAttributeAccessor). */
  private readonly versions = new WeakMap<AdmissionAttributes, VersionedAttributes>();
  private readonly mutating: boolean;
  readonly clients: WebhookClients;
  private readonly namespaces: ObjectCache;
  private readonly crds: ObjectCache;
  private readonly authorizer: Authorizer;
  private readonly match: MatchContext;
  readonly synced: Promise<void>;

  constructor(
    private readonly store: Store,
    resource: 'validatingwebhookconfigurations' | 'mutatingwebhookconfigurations',
    opts: WebhookPluginOptions,
  ) {
    this.source = new WebhookSource(store, resource);
    this.mutating = resource === 'mutatingwebhookconfigurations';
    this.namespaces = objectCache(store, resourcePrefix('', 'namespaces'));
    this.crds = objectCache(store, resourcePrefix('apiextensions.k8s.io', 'customresourcedefinitions'));
    this.clients = new WebhookClients(opts.serviceResolver);
    this.authorizer = opts.authorizer ?? allowAllAuthorizer;
    this.match = {
      getNamespace: (name) => this.namespace(name),
      equivalents: (r, sub) => equivalentResources(this.crds, r, sub),
    };
    this.synced = Promise.all([this.source.synced, this.namespaces.synced, this.crds.synced]).then(() => {});
  }

  private async namespace(name: string): Promise<Obj | undefined> {
    const cached = this.namespaces.isSynced() ? this.namespaces.get(name) : undefined;
    if (cached !== undefined) return cached;
    const kv = await this.store.get(resourcePrefix('', 'namespaces') + name);
    return kv === undefined ? undefined : (JSON.parse(kv.value) as Obj);
  }

  /**
   * The webhooks to call for `a`, in order (none for admission configuration, which webhooks
   * never see), or the refusal a selector or matchCondition error makes.
   */
  async invocations(a: AdmissionAttributes): Promise<WebhookInvocation[]> {
    const out: WebhookInvocation[] = [];
    for (const h of this.webhooksFor(a)) {
      const inv = await this.invocation(h, a);
      if (inv !== undefined) out.push(inv);
    }
    return out;
  }

  /** The webhooks in force, none for admission configuration (webhooks never see it). */
  webhooksFor(a: AdmissionAttributes): WebhookAccessor[] {
    return isExemptAdmissionConfiguration(a.kind) ? [] : this.source.webhooks();
  }

  /**
   * ShouldCallHook for one webhook, with the request's objects at the version it matched; throws
   * the refusal.
   */
  async invocation(h: WebhookAccessor, a: AdmissionAttributes): Promise<WebhookInvocation | undefined> {
    let r: WebhookInvocation | undefined | StatusError;
    const versionedAt = (m: ResourceKind) => this.versionedAt(a, m);
    try {
      r = await shouldCallHook(h, a, this.match, this.authorizer, versionedAt);
      if (r !== undefined && 'webhook' in r) r.versioned = await versionedAt(r);
    } catch (e) {
      if (e instanceof ConversionFailed) throw e.status;
      throw newInternalError(e instanceof Error ? e.message : String(e));
    }
    if (r !== undefined && !('webhook' in r)) throw r;
    return r;
  }

  /**
   * The request's objects at `m`, each version converted once. A failed conversion is an
   * InternalError — twice over in the mutating dispatcher, whose accessor wraps it once and the
   * dispatcher again, as upstream's do.
   */
  private async versionedAt(a: AdmissionAttributes, m: ResourceKind): Promise<Versioned> {
    let v = this.versions.get(a);
    if (v === undefined) this.versions.set(a, (v = new VersionedAttributes(a)));
    try {
      return await v.at(m);
    } catch (e) {
      const once = newInternalError(errorMessage(e));
      throw new ConversionFailed(this.mutating ? newInternalError(once.status.message ?? '') : once);
    }
  }

  /** `o`, a mutation's result at `m`, at the request's version; a failed conversion is the plain 500 upstream answers. */
  async fromVersion(a: AdmissionAttributes, o: Obj, m: ResourceKind): Promise<Obj> {
    let v = this.versions.get(a);
    if (v === undefined) this.versions.set(a, (v = new VersionedAttributes(a)));
    return v.back(o, m);
  }

  stop(): void {
    this.source.stop();
    this.namespaces.stop();
    this.crds.stop();
    this.clients.close();
  }
}
