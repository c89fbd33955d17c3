/**
 * The RBAC objects as the authorizer reads them: Roles, ClusterRoles, RoleBindings and
 * ClusterRoleBindings held in memory, each listed once and then kept current by a watch (relisted
 * when a watch ends), as kube-apiserver's RBAC authorizer reads them through informers. Reads are
 * synchronous, so authorizing a request costs no storage round trip.
 */
import type { Obj, RESTStore, Watcher } from '../../registry/index.ts';
import type { Binding, PolicyRule, RuleSource, Subject } from './rules.ts';

export interface RBACStores {
  roles: RESTStore;
  clusterRoles: RESTStore;
  roleBindings: RESTStore;
  clusterRoleBindings: RESTStore;
}

const keyOf = (obj: Obj) => {
  const m = (obj.metadata ?? {}) as { name?: string; namespace?: string };
  return `${m.namespace ?? ''}/${m.name ?? ''}`;
};

/** One resource's objects by `namespace/name`, from a list and then a watch. */
class Mirror<T> {
  readonly items = new Map<string, T>();
  private watcher: Watcher | undefined;
  private stopped = false;

  constructor(
    private readonly store: RESTStore,
    private readonly convert: (obj: Obj) => T,
  ) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const list = await this.store.list(undefined, {});
    this.items.clear();
    for (const o of list.items) this.items.set(keyOf(o), this.convert(o));
    this.watcher = await this.store.watch(
      undefined,
      { resourceVersion: list.metadata.resourceVersion },
      (ev) => {
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.items.set(keyOf(ev.object), this.convert(ev.object));
        else if (ev.type === 'DELETED') this.items.delete(keyOf(ev.object));
      },
      () => {
        if (!this.stopped) void this.restart();
      },
    );
  }

  private async restart(): Promise<void> {
    for (;;) {
      try {
        await this.start();
        return;
      } catch {
        if (this.stopped) return;
        await new Promise((r) => setTimeout(r, 500).unref());
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.stop();
  }
}

function rulesOf(obj: Obj): PolicyRule[] {
  const rules = obj.rules;
  return Array.isArray(rules) ? (rules as PolicyRule[]).map((r) => ({ ...r, verbs: r.verbs ?? [] })) : [];
}

function bindingOf(obj: Obj): Binding {
  const m = (obj.metadata ?? {}) as { name?: string; namespace?: string };
  const ref = (obj.roleRef ?? {}) as Binding['roleRef'];
  return {
    name: m.name ?? '',
    namespace: m.namespace ?? '',
    subjects: Array.isArray(obj.subjects) ? (obj.subjects as Subject[]) : [],
    roleRef: { apiGroup: ref.apiGroup ?? '', kind: ref.kind ?? '', name: ref.name ?? '' },
  };
}

export class RBACCache implements RuleSource {
  private readonly roles: Mirror<PolicyRule[]>;
  private readonly clusterRoles: Mirror<PolicyRule[]>;
  private readonly roleBindingsMirror: Mirror<Binding>;
  private readonly clusterRoleBindingsMirror: Mirror<Binding>;

  constructor(stores: RBACStores) {
    this.roles = new Mirror(stores.roles, rulesOf);
    this.clusterRoles = new Mirror(stores.clusterRoles, rulesOf);
    this.roleBindingsMirror = new Mirror(stores.roleBindings, bindingOf);
    this.clusterRoleBindingsMirror = new Mirror(stores.clusterRoleBindings, bindingOf);
  }

  /** Resolves once every resource has been listed. */
  start(): Promise<void> {
    return Promise.all([this.roles.start(), this.clusterRoles.start(), this.roleBindingsMirror.start(), this.clusterRoleBindingsMirror.start()]).then(() => {});
  }

  stop(): void {
    this.roles.stop();
    this.clusterRoles.stop();
    this.roleBindingsMirror.stop();
    this.clusterRoleBindingsMirror.stop();
  }

  clusterRoleBindings(): Iterable<Binding> {
    return this.clusterRoleBindingsMirror.items.values();
  }

  *roleBindings(namespace: string): Iterable<Binding> {
    for (const b of this.roleBindingsMirror.items.values()) if (b.namespace === namespace) yield b;
  }

  clusterRoleRules(name: string): PolicyRule[] | undefined {
    return this.clusterRoles.items.get(`/${name}`);
  }

  roleRules(namespace: string, name: string): PolicyRule[] | undefined {
    return this.roles.items.get(`${namespace}/${name}`);
  }
}
