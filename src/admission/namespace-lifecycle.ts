/**
 * The NamespaceLifecycle admission plugin (k8s.io/apiserver's plugin/namespace/lifecycle), first
 * in the chain: a write into a namespace that does not exist is 404 `namespaces "x" not found`; a
 * create in a terminating namespace is 403 `... is forbidden: unable to create new content in
 * namespace x because it is being terminated` with a NamespaceTerminating cause; the system
 * namespaces may not be deleted. Cluster-scoped kinds, Namespaces themselves and deletes of
 * namespaced objects pass.
 *
 * The served plugin reads namespaces from a watch-fed cache (upstream's informer lister) instead of
 * the store on every write; a namespace the cache does not hold is read live, as upstream's
 * "not found in cache -> make a call directly to storage" does, so a missing entry never refuses.
 */
import { objectCache } from './informer.ts';
import { newForbidden, newNotFound, StatusError, type GroupResource } from '../apimachinery/index.ts';
import { isNotFound } from '../apimachinery/index.ts';
import type { Store } from '../storage/index.ts';
import { resourcePrefix, type AdmissionAttributes, type Obj } from '../registry/index.ts';
import type { Plugin } from './chain.ts';

/** The namespace check behind the plugin: refuses `op` on `gr` `name` in namespace `ns`. */
export interface NamespaceGate {
  /** Throws the StatusError that refuses `op` on `gr` `name` in namespace `ns`. */
  check(op: 'create' | 'update', ns: string, gr: GroupResource, name: string): Promise<void>;
}

/** Namespaces NamespaceLifecycle never lets go. */
export const immortalNamespaces: readonly string[] = ['default', 'kube-system', 'kube-public'];

/** status.phase of a namespace object ('' when unset). */
function phaseOf(namespace: Obj): string {
  const status = namespace.status;
  const phase = status !== null && typeof status === 'object' ? (status as { phase?: unknown }).phase : undefined;
  return typeof phase === 'string' ? phase : '';
}

/** The phase of namespace `ns` read through `get`; 404 `namespaces "ns" not found` when it is missing. */
async function livePhase(get: (name: string) => Promise<Obj>, ns: string): Promise<string> {
  try {
    return phaseOf(await get(ns));
  } catch (e) {
    if (isNotFound(e)) throw newNotFound({ group: '', resource: 'namespaces' }, ns);
    throw e;
  }
}

/** Refuses a create in a terminating namespace (updates stay allowed: finalizers must be removable). */
function checkPhase(op: 'create' | 'update', phase: string, ns: string, gr: GroupResource, name: string): void {
  if (op !== 'create' || phase !== 'Terminating') return;
  const err = newForbidden(gr, name, `unable to create new content in namespace ${ns} because it is being terminated`);
  const details = err.status.details ?? {};
  throw new StatusError({
    ...err.status,
    details: {
      ...details,
      causes: [...(details.causes ?? []), { reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }],
    },
  });
}

/** Lifecycle.Admit over a gate. */
function lifecyclePlugin(gate: NamespaceGate, immortal: ReadonlySet<string>): Plugin {
  return {
    name: 'NamespaceLifecycle',
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    // Lifecycle refuses, it never changes the object.
    mayMutate: () => false,
    async admit(a: AdmissionAttributes) {
      const isNamespace = a.kind.group === '' && a.kind.kind === 'Namespace';
      if (a.operation === 'DELETE' && isNamespace && immortal.has(a.name)) {
        throw newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, 'this namespace may not be deleted');
      }
      // Cluster-scoped kinds, Namespaces themselves and deletes always pass.
      if (a.namespace === '' || isNamespace || a.operation === 'DELETE') return;
      if (a.kind.group === 'authorization.k8s.io' && a.kind.kind === 'LocalSubjectAccessReview') return;
      await gate.check(a.operation === 'CREATE' ? 'create' : 'update', a.namespace, { group: a.resource.group, resource: a.resource.resource }, a.name);
    },
  };
}

/** The plugin reading namespaces through `get` (a NamespaceStore's get) on every check. */
export function namespaceLifecycle(get: (name: string) => Promise<Obj>, immortal: readonly string[] = immortalNamespaces): Plugin & NamespaceGate {
  const gate: NamespaceGate = {
    async check(op, ns, gr, name) {
      checkPhase(op, await livePhase(get, ns), ns, gr, name);
    },
  };
  return { ...lifecyclePlugin(gate, new Set(immortal)), check: gate.check };
}

/** The plugin over a namespace cache; `stop` ends its watch. */
export interface CachedNamespaceLifecycle extends Plugin, NamespaceGate {
  /** Resolves once the cache holds the namespaces as of its first list (checks before read live). */
  readonly synced: Promise<void>;
  stop(): void;
}

/**
 * A gate answering from a watch-fed cache of the namespaces in `store` (`informer.ts`: list, then
 * watch from the list's revision; relisted when the watch fails). A namespace missing from the cache, or
 * any namespace while the cache is not synced, is read live through `get`. The store publishes a
 * commit's events to watchers before the writer's promise settles, so a namespace created,
 * terminated or deleted through this process is in the cache by the time its writer hears back.
 */
export function cachedNamespaceLifecycle(
  store: Store,
  get: (name: string) => Promise<Obj>,
  opts: { relistDelayMs?: number; immortal?: readonly string[] } = {},
): CachedNamespaceLifecycle {
  const namespaces = objectCache(store, resourcePrefix('', 'namespaces'), opts);
  const gate: NamespaceGate = {
    async check(op, ns, gr, name) {
      const cached = namespaces.isSynced() ? namespaces.get(ns) : undefined;
      checkPhase(op, cached !== undefined ? phaseOf(cached) : await livePhase(get, ns), ns, gr, name);
    },
  };
  return {
    ...lifecyclePlugin(gate, new Set(opts.immortal ?? immortalNamespaces)),
    synced: namespaces.synced,
    check: gate.check,
    stop: () => namespaces.stop(),
  };
}
