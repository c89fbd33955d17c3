/**
 * The webhooks in force (k8s.io/apiserver pkg/admission/plugin/webhook/configuration's managers
 * and webhook accessors): Validating- or MutatingWebhookConfigurations read from a watch-fed
 * cache, sorted by configuration name, each webhook in its configuration's order with a uid of
 * its own; its matchConditions compiled once per stored configuration object. A change to a
 * configuration is seen by the next request.
 */
import { resourcePrefix, type Obj } from '../../registry/index.ts';
import type { Store } from '../../storage/index.ts';
import { objectCache, type ObjectCache } from '../informer.ts';
import { MatchConditions } from './match-conditions.ts';

/** One webhook of a configuration, as the dispatchers use it (WebhookAccessor). */
export interface WebhookAccessor {
  /** Unique among the webhooks of one kind: `<configuration>/<webhook>/<index>`. */
  uid: string;
  configurationName: string;
  name: string;
  /** The webhook as stored (defaulted). */
  hook: Obj;
  matchConditions: MatchConditions;
}

const nameOf = (o: Obj): string => String((o.metadata as { name?: unknown } | undefined)?.name ?? '');

export class WebhookSource {
  private readonly configurations: ObjectCache;
  private readonly compiled = new WeakMap<object, WebhookAccessor[]>();
  private cache: { version: number; hooks: WebhookAccessor[] } | undefined;
  readonly synced: Promise<void>;

  constructor(store: Store, resource: 'validatingwebhookconfigurations' | 'mutatingwebhookconfigurations') {
    this.configurations = objectCache(store, resourcePrefix('admissionregistration.k8s.io', resource));
    this.synced = this.configurations.synced;
  }

  private accessorsOf(config: Obj): WebhookAccessor[] {
    let hooks = this.compiled.get(config);
    if (hooks !== undefined) return hooks;
    const configurationName = nameOf(config);
    const list = Array.isArray(config.webhooks) ? (config.webhooks as unknown[]) : [];
    hooks = list
      .filter((w): w is Obj => w !== null && typeof w === 'object' && !Array.isArray(w))
      .map((hook, i) => ({
        uid: `${configurationName}/${String(hook.name ?? '')}/${i}`,
        configurationName,
        name: String(hook.name ?? ''),
        hook,
        matchConditions: new MatchConditions(Array.isArray(hook.matchConditions) ? (hook.matchConditions as Obj[]) : [], hook.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail'),
      }));
    this.compiled.set(config, hooks);
    return hooks;
  }

  /** Every webhook, configurations by name (recomputed only after a change). */
  webhooks(): WebhookAccessor[] {
    const version = this.configurations.version;
    if (this.cache?.version === version) return this.cache.hooks;
    const configs = [...this.configurations.entries()].map(([, c]) => c).sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
    const hooks = configs.flatMap((c) => this.accessorsOf(c));
    this.cache = { version, hooks };
    return hooks;
  }

  stop(): void {
    this.configurations.stop();
  }
}
