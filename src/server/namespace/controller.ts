/**
 * The namespace controller's deletion half (pkg/controller/namespace/deletion): when a Namespace
 * is terminating, delete every custom resource in it, wait until none is left (objects with
 * finalizers keep it waiting), then release the `kubernetes` finalizer through the `finalize`
 * subresource so that the registry can remove the Namespace.
 */
import type { Obj, RESTStore, Watcher } from '../../registry/rest.ts';
import type { ServedTable } from '../served.ts';

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export const finalizerKubernetes = 'kubernetes';

export class NamespaceController {
  private watcher: Watcher | undefined;
  private stopped = false;
  private readonly working = new Set<string>();
  private readonly retry = new Map<string, NodeJS.Timeout>();
  /** The namespaces as last seen on the watch (the lifecycle check reads them without a store trip). */
  private readonly known = new Map<string, Obj>();
  private synced = false;

  constructor(
    private readonly table: ServedTable,
    private readonly namespaces: RESTStore,
  ) {}

  async start(): Promise<void> {
    const list = await this.namespaces.list(undefined, {});
    this.known.clear();
    for (const ns of list.items) this.observe(ns);
    await this.watchFrom(list.metadata.resourceVersion);
    this.synced = true;
  }

  /**
   * The namespace `name`: from the watch when it is known there, else from the store (a namespace
   * created a moment ago may not have reached the watch yet). Undefined when it does not exist.
   */
  async lookup(name: string): Promise<Obj | undefined> {
    const hit = this.known.get(name);
    if (hit && this.synced) return hit;
    try {
      return await this.namespaces.get(undefined, name);
    } catch (e) {
      if (e instanceof Error && (e as { code?: number }).code === 404) return undefined;
      throw e;
    }
  }

  private async watchFrom(rv: string): Promise<void> {
    const restart = (): void => {
      if (this.stopped) return;
      setTimeout(() => {
        this.start().catch(() => restart());
      }, 200);
    };
    this.watcher = await this.namespaces.watch(
      undefined,
      { resourceVersion: rv, timeoutSeconds: 24 * 24 * 3600 },
      (ev) => {
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.observe(ev.object);
        else if (ev.type === 'DELETED') this.known.delete(String((ev.object.metadata as Obj | undefined)?.name ?? ''));
        else if (ev.type === 'ERROR') {
          this.synced = false;
          this.watcher?.stop();
          restart();
        }
      },
      () => restart(),
    );
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.stop();
    for (const t of this.retry.values()) clearTimeout(t);
  }

  private observe(ns: Obj): void {
    const m = isObj(ns.metadata) ? ns.metadata : {};
    this.known.set(String(m.name ?? ''), ns);
    const spec = isObj(ns.spec) ? ns.spec : {};
    const fins = Array.isArray(spec.finalizers) ? spec.finalizers : [];
    if (!m.deletionTimestamp || !fins.includes(finalizerKubernetes)) return;
    void this.finalize(String(m.name ?? ''));
  }

  /** Empties the namespace and releases its finalizer; retries while content remains. */
  private async finalize(name: string): Promise<void> {
    if (this.stopped || this.working.has(name)) return;
    this.working.add(name);
    let again = false;
    try {
      const seen = new Set<string>();
      let remaining = 0;
      for (const r of this.table.all()) {
        if (!r.namespaced || !r.custom) continue;
        const k = `${r.group}/${r.resource}`;
        if (seen.has(k)) continue;
        seen.add(k);
        await r.store.deleteCollection(name, {}, {});
        remaining += (await r.store.list(name, { limit: 1 })).items.length;
      }
      if (remaining > 0) {
        again = true;
        return;
      }
      await this.namespaces.update(
        undefined,
        name,
        (cur) => {
          if (cur === undefined) throw new Error('gone');
          const next = structuredClone(cur);
          const spec = isObj(next.spec) ? next.spec : (next.spec = {});
          spec.finalizers = (Array.isArray(spec.finalizers) ? spec.finalizers : []).filter((f) => f !== finalizerKubernetes);
          return next;
        },
        { subresource: 'finalize', fieldManager: 'namespace-controller' },
      );
    } catch {
      again = true;
    } finally {
      this.working.delete(name);
      if (again && !this.stopped) {
        clearTimeout(this.retry.get(name));
        this.retry.set(
          name,
          setTimeout(() => {
            this.retry.delete(name);
            this.namespaces.get(undefined, name).then((ns) => this.observe(ns), () => {});
          }, 500),
        );
      }
    }
  }
}
