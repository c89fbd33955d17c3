/**
 * The NamespaceLifecycle admission rules the registry applies to namespaced writes: a write into a
 * namespace that does not exist is 404 `namespaces "x" not found`; a create in a terminating
 * namespace is 403 `... is forbidden: unable to create new content in namespace x because it is
 * being terminated` with a NamespaceTerminating cause; the system namespaces may not be deleted.
 */
import { newForbidden, newNotFound, StatusError, type GroupResource } from '../../apimachinery/status.ts';
import { isNotFound } from '../../apimachinery/status.ts';
import type { Obj } from '../rest.ts';

/** What the generic store asks before a namespaced write. */
export interface NamespaceGate {
  /** Throws the StatusError that refuses `op` on `gr` `name` in namespace `ns`. */
  check(op: 'create' | 'update', ns: string, gr: GroupResource, name: string): Promise<void>;
}

/** Namespaces NamespaceLifecycle never lets go. */
export const immortalNamespaces: readonly string[] = ['default', 'kube-system', 'kube-public'];

/** A gate reading namespaces through `get` (a NamespaceStore's get). */
export function namespaceLifecycle(get: (name: string) => Promise<Obj>): NamespaceGate {
  return {
    async check(op, ns, gr, name) {
      let namespace: Obj;
      try {
        namespace = await get(ns);
      } catch (e) {
        if (isNotFound(e)) throw newNotFound({ group: '', resource: 'namespaces' }, ns);
        throw e;
      }
      if (op !== 'create') return;
      const phase = (namespace.status as { phase?: string } | undefined)?.phase;
      if (phase !== 'Terminating') return;
      const err = newForbidden(gr, name, `unable to create new content in namespace ${ns} because it is being terminated`);
      const details = err.status.details ?? {};
      throw new StatusError({
        ...err.status,
        details: {
          ...details,
          causes: [...(details.causes ?? []), { reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }],
        },
      });
    },
  };
}
