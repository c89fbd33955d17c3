/**
 * Fixtures for the admission plugins' tests: objects written straight into a real store under
 * their registry keys (as the registry stores them, so that the plugins' informers see them),
 * the `default` namespace as a cluster has it, and the attributes of a create as the registry
 * hands them to the chain.
 */
import { adminUser, resourcePrefix, type AdmissionAttributes, type Obj } from '../registry/index.ts';
import type { Store } from '../storage/index.ts';

/** Writes and removes objects under their keys in the store `store()` returns when called. */
export interface StoredObjects {
  /** Creates the key, or replaces what it holds. */
  put(key: string, o: Obj): Promise<void>;
  /** Removes the key if it is there. */
  del(key: string): Promise<void>;
}

export function storedObjects(store: () => Store): StoredObjects {
  return {
    async put(key, o) {
      const s = store();
      const kv = await s.get(key);
      const value = JSON.stringify(o);
      if (kv === undefined) await s.create(key, value);
      else await s.update(key, value, kv.modRevision);
    },
    async del(key) {
      const s = store();
      const kv = await s.get(key);
      if (kv !== undefined) await s.delete(key, kv.modRevision);
    },
  };
}

/** The `default` namespace with the label the namespace controller puts on every namespace. */
export function putDefaultNamespace(objects: StoredObjects): Promise<void> {
  return objects.put(resourcePrefix('', 'namespaces') + 'default', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } });
}

/** Long enough for a plugin's informer to see a configuration change. */
export const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 150));

/** A create in `default` by the admin, not a dry run, of `a.object` (with `a`'s other fields over these). */
export function createAttributes(a: Pick<AdmissionAttributes, 'resource' | 'kind' | 'name' | 'object'> & Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'CREATE',
    user: adminUser,
    subresource: '',
    namespace: 'default',
    oldObject: undefined,
    options: {},
    dryRun: false,
    warnings: [],
    ...a,
  };
}
