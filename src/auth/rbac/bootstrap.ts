/**
 * The RBAC bootstrap policy, reconciled at every start as kube-apiserver's `rbac/bootstrap-roles`
 * post-start hook does (`pkg/registry/rbac/reconciliation`): each default ClusterRole and
 * ClusterRoleBinding is created when missing; one that exists and is not annotated
 * `rbac.authorization.kubernetes.io/autoupdate: "false"` gets back the labels, annotations, rules
 * (or aggregation selectors) and subjects it lacks, and a binding whose roleRef changed is
 * recreated. Additions only: what a user added stays.
 */
import { readFileSync } from 'node:fs';
import { isAlreadyExists, isNotFound, vendorURL } from '../../apimachinery/index.ts';
import type { Obj, RESTStore } from '../../registry/index.ts';
import type { RBACStores } from './cache.ts';

interface Policy {
  clusterRoles: Obj[];
  clusterRoleBindings: Obj[];
}

let policy: Policy | undefined;
export function bootstrapPolicy(): Policy {
  return (policy ??= JSON.parse(readFileSync(vendorURL('k8s-rbac/bootstrap-policy.json'), 'utf8')) as Policy);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `want`'s entries missing from `have` (by deep equality), appended to it. */
function union<T>(have: T[] | undefined, want: T[] | undefined): { out: T[]; changed: boolean } {
  const out = [...(have ?? [])];
  let changed = false;
  for (const w of want ?? []) {
    if (!out.some((h) => same(h, w))) {
      out.push(w);
      changed = true;
    }
  }
  return { out, changed };
}

function mergeMeta(cur: Obj, want: Obj): boolean {
  const m = (cur.metadata ??= {}) as Record<string, Record<string, string> | unknown>;
  const w = want.metadata as { labels?: Record<string, string>; annotations?: Record<string, string> };
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    const have = (m[field] ?? {}) as Record<string, string>;
    for (const [k, v] of Object.entries(w[field] ?? {})) {
      if (have[k] === undefined) {
        have[k] = v;
        changed = true;
      }
    }
    if (Object.keys(have).length > 0) m[field] = have;
  }
  return changed;
}

const autoupdate = (obj: Obj) => ((obj.metadata as { annotations?: Record<string, string> } | undefined)?.annotations ?? {})['rbac.authorization.kubernetes.io/autoupdate'] !== 'false';

async function reconcileOne(store: RESTStore, want: Obj, reconcile: (cur: Obj) => boolean | 'recreate'): Promise<void> {
  const name = (want.metadata as { name: string }).name;
  for (let attempt = 0; attempt < 5; attempt++) {
    let cur: Obj;
    try {
      cur = await store.get(undefined, name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      try {
        await store.create(undefined, structuredClone(want), {});
        return;
      } catch (err) {
        if (isAlreadyExists(err)) continue;
        throw err;
      }
    }
    if (!autoupdate(cur)) return;
    const next = structuredClone(cur);
    const r = reconcile(next);
    if (r === 'recreate') {
      await store.delete(undefined, name, { preconditions: { uid: (cur.metadata as { uid?: string }).uid } }).catch((e: unknown) => {
        if (!isNotFound(e)) throw e;
      });
      continue;
    }
    if (!r) return;
    try {
      await store.update(undefined, name, () => next, {});
      return;
    } catch (e) {
      if (!(e as { code?: number }).code || (e as { code: number }).code !== 409) throw e;
    }
  }
}

/** Creates or completes every bootstrap ClusterRole and ClusterRoleBinding. */
export async function reconcileBootstrapPolicy(stores: Pick<RBACStores, 'clusterRoles' | 'clusterRoleBindings'>): Promise<void> {
  const p = bootstrapPolicy();
  // Each object is reconciled on its own; they are independent, so all at once.
  const roles = p.clusterRoles.map((role) =>
    reconcileOne(stores.clusterRoles, role, (cur) => {
      let changed = mergeMeta(cur, role);
      if (role.aggregationRule) {
        const have = (cur.aggregationRule ?? {}) as { clusterRoleSelectors?: unknown[] };
        const sel = union(have.clusterRoleSelectors, (role.aggregationRule as { clusterRoleSelectors?: unknown[] }).clusterRoleSelectors);
        if (sel.changed) {
          cur.aggregationRule = { ...have, clusterRoleSelectors: sel.out };
          changed = true;
        }
      } else {
        const rules = union(cur.rules as unknown[] | undefined, role.rules as unknown[] | undefined);
        if (rules.changed) {
          cur.rules = rules.out;
          changed = true;
        }
      }
      return changed;
    }),
  );
  const bindings = p.clusterRoleBindings.map((binding) =>
    reconcileOne(stores.clusterRoleBindings, binding, (cur) => {
      if (!same(cur.roleRef, binding.roleRef)) return 'recreate';
      let changed = mergeMeta(cur, binding);
      const subjects = union(cur.subjects as unknown[] | undefined, binding.subjects as unknown[] | undefined);
      if (subjects.changed) {
        cur.subjects = subjects.out;
        changed = true;
      }
      return changed;
    }),
  );
  await Promise.all([...roles, ...bindings]);
}
