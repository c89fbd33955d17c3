/**
 * The namespace controller (kube-controller-manager's namespace deleter, reduced to what this
 * server serves): a terminating namespace whose spec.finalizers holds `kubernetes` has its
 * content deleted through every namespaced REST store (their finalizers are honoured: the
 * controller looks again until nothing is left), the deletion conditions upstream reports are
 * kept in status.conditions (NamespaceContentRemaining, NamespaceFinalizersRemaining, ...), then
 * `kubernetes` is removed through the `finalize` subresource, which removes the namespace once no
 * finalizer is left.
 */
import { isConflict, isNotFound } from '../../apimachinery/index.ts';
import { formatRFC3339 } from '../../apimachinery/index.ts';
import { deepCopy, getFinalizers, hasDeletionTimestamp } from '../meta.ts';
import { finalizerKubernetes, specFinalizers } from '../namespace/strategy.ts';
import type { NamespaceStore } from '../namespace/rest.ts';
import type { Obj, RESTStore } from '../rest.ts';
import { runController, type Controller } from './loop.ts';

export interface NamespaceControllerOptions {
  /** The namespaced stores whose content a namespace holds (asked afresh each time: CRDs come and go). */
  contentStores: () => RESTStore[];
  /** How long to wait before looking again while content remains (default 1000 ms). */
  recheckMs?: number;
  onError?: (err: unknown) => void;
}

export function startNamespaceController(namespaces: NamespaceStore, opts: NamespaceControllerOptions): Controller {
  const recheck = opts.recheckMs ?? 1000;
  return runController(
    namespaces,
    async (key) => {
      let ns: Obj;
      try {
        ns = await namespaces.get(undefined, key.name);
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      if (!hasDeletionTimestamp(ns) || !specFinalizers(ns).includes(finalizerKubernetes)) return;
      const remaining: string[] = [];
      const finalizerCounts = new Map<string, number>();
      const failures: string[] = [];
      for (const store of opts.contentStores()) {
        if (!store.info.namespaced) continue;
        const gr = store.info.group === '' ? store.info.resource : `${store.info.resource}.${store.info.group}`;
        try {
          const deleted = await store.deleteCollection(key.name, {}, {});
          if (deleted.items.length === 0) continue;
          const left = (await store.list(key.name, {})).items;
          if (left.length === 0) continue;
          remaining.push(`${gr} has ${left.length} resource instances`);
          for (const o of left) for (const f of getFinalizers(o)) finalizerCounts.set(f, (finalizerCounts.get(f) ?? 0) + 1);
        } catch (e) {
          failures.push(`failed to delete ${gr}: ${(e as Error).message}`);
        }
      }
      await writeConditions(namespaces, key.name, remaining, finalizerCounts, failures);
      if (remaining.length > 0 || failures.length > 0) return { requeueAfterMs: recheck };
      try {
        await namespaces.update(
          undefined,
          key.name,
          (cur) => ({ ...cur!, spec: { ...((cur!.spec as object) ?? {}), finalizers: specFinalizers(cur!).filter((f) => f !== finalizerKubernetes) } }),
          { subresource: 'finalize' },
        );
      } catch (e) {
        if (isNotFound(e)) return;
        if (isConflict(e)) return { requeueAfterMs: 0 };
        throw e;
      }
    },
    { onError: (_k, e) => opts.onError?.(e) },
  );
}

type Condition = { type: string; status: string; lastTransitionTime?: string; reason: string; message: string };

/** The deletion conditions of pkg/controller/namespace/deletion (status_condition_utils.go). */
function deletionConditions(remaining: string[], finalizers: Map<string, number>, failures: string[]): Condition[] {
  const sorted = (xs: string[]) => [...xs].sort();
  return [
    { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
    { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
    failures.length > 0
      ? { type: 'NamespaceDeletionContentFailure', status: 'True', reason: 'ContentDeletionFailed', message: `Failed to delete all resource types, ${failures.length} remaining: ${sorted(failures).join(', ')}` }
      : { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
    remaining.length > 0
      ? { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${sorted(remaining).join(', ')}` }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    finalizers.size > 0
      ? {
          type: 'NamespaceFinalizersRemaining',
          status: 'True',
          reason: 'SomeFinalizersRemain',
          message: `Some content in the namespace has finalizers remaining: ${[...finalizers.entries()]
            .map(([f, n]) => `${f} in ${n} resource instances`)
            .sort()
            .join(', ')}`,
        }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  ];
}

/** Writes the conditions through the status subresource when they changed (transition times kept otherwise). */
async function writeConditions(
  namespaces: NamespaceStore,
  name: string,
  remaining: string[],
  finalizers: Map<string, number>,
  failures: string[],
): Promise<void> {
  const wanted = deletionConditions(remaining, finalizers, failures);
  try {
    await namespaces.update(
      undefined,
      name,
      (cur) => {
        const next = deepCopy(cur!);
        const status = (next.status ?? {}) as Record<string, unknown>;
        const old = (Array.isArray(status.conditions) ? status.conditions : []) as Condition[];
        const now = formatRFC3339(new Date());
        status.conditions = wanted.map((c) => {
          const prev = old.find((o) => o.type === c.type);
          const ltt = prev && prev.status === c.status && prev.lastTransitionTime ? prev.lastTransitionTime : now;
          return { type: c.type, status: c.status, lastTransitionTime: ltt, reason: c.reason, message: c.message };
        });
        next.status = status;
        return next;
      },
      { subresource: 'status' },
    );
  } catch (e) {
    if (!isNotFound(e) && !isConflict(e)) throw e;
  }
}
