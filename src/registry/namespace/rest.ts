/**
 * The Namespace REST store (pkg/registry/core/namespace/storage): the generic store with
 * Namespace's delete. The first delete only marks the namespace — deletionTimestamp set, phase
 * Terminating — and the namespace stays until its spec.finalizers (the namespace controller's
 * `kubernetes`) and metadata.finalizers are gone; a delete of a namespace that is already
 * terminating removes it only once spec.finalizers is empty. Preconditions use upstream's
 * namespace wording.
 */
import type { Store } from '../../storage/index.ts';
import { MarkFirstDeleteStore, type MarkFirstStoreOptions } from '../deletion/mark-first.ts';
import type { DeleteResult, Obj } from '../rest.ts';
import { namespaceCodec, namespaceInfo, namespaceStrategy, specFinalizers } from './strategy.ts';

export type NamespaceStoreOptions = MarkFirstStoreOptions;

export class NamespaceStore extends MarkFirstDeleteStore {
  constructor(store: Store, opts: NamespaceStoreOptions = {}) {
    super({ ...opts, store, info: namespaceInfo, strategy: namespaceStrategy, codec: namespaceCodec });
  }

  /** Upon the first delete the namespace starts terminating; the controller empties it. */
  protected override markDeleting(ns: Obj): void {
    const status = (ns.status ?? {}) as Record<string, unknown>;
    status.phase = 'Terminating';
    ns.status = status;
  }

  /** A terminating namespace goes only once spec.finalizers is empty. */
  protected override keepMarked(ns: Obj): DeleteResult | undefined {
    return specFinalizers(ns).length > 0 ? { object: ns, deleted: false, response: ns } : undefined;
  }
}
