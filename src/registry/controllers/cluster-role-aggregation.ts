/**
 * kube-controller-manager's clusterrole-aggregation controller
 * (`pkg/controller/clusterroleaggregation`): a ClusterRole with an aggregationRule gets as its
 * rules the rules of every other ClusterRole its selectors match (each selector in turn, the
 * matching roles by name, a rule kept once), rewritten whenever any ClusterRole changes. This is
 * how `admin`, `edit` and `view` get their rules from the `system:aggregate-to-*` roles and from
 * roles users label to extend them.
 */
import { labelSelectorAsSelector, matches } from '../../apimachinery/index.ts';
import type { LabelSelector } from '../../apimachinery/index.ts';
import type { Obj, RESTStore } from '../rest.ts';
import { runController, type Controller } from './loop.ts';

const nameOf = (o: Obj) => String((o.metadata as { name?: string } | undefined)?.name ?? '');
const labelsOf = (o: Obj) => ((o.metadata as { labels?: Record<string, string> } | undefined)?.labels ?? {});

/** The aggregated rules of `role` over `all` (syncClusterRole), or undefined when it aggregates nothing. */
export function aggregatedRules(role: Obj, all: readonly Obj[]): unknown[] | undefined {
  const rule = role.aggregationRule as { clusterRoleSelectors?: LabelSelector[] } | undefined | null;
  if (!rule) return undefined;
  const out: unknown[] = [];
  const seen = new Set<string>();
  const sorted = [...all].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
  for (const s of rule.clusterRoleSelectors ?? []) {
    const sel = labelSelectorAsSelector(s);
    for (const r of sorted) {
      if (nameOf(r) === nameOf(role) || !matches(sel, labelsOf(r))) continue;
      for (const x of (r.rules as unknown[] | undefined) ?? []) {
        const k = JSON.stringify(x);
        if (seen.has(k)) continue;
        seen.add(k);
        out.push(x);
      }
    }
  }
  return out;
}

export function startClusterRoleAggregation(clusterRoles: RESTStore, opts: { onError?: (err: unknown) => void } = {}): Controller {
  const cache = new Map<string, Obj>();
  return runController(
    clusterRoles,
    async (key) => {
      const role = cache.get(`/${key.name}`);
      if (!role) return;
      const rules = aggregatedRules(role, [...cache.values()]);
      if (rules === undefined) return;
      if (JSON.stringify(rules) === JSON.stringify(role.rules ?? [])) return;
      await clusterRoles.update(undefined, key.name, (cur) => ({ ...cur!, rules }), { manager: 'clusterrole-aggregation-controller' });
    },
    {
      cache,
      onError: (_k, e) => opts.onError?.(e),
      // Any ClusterRole's change may change what the aggregating ones gather.
      related: () => [...cache.values()].filter((r) => r.aggregationRule).map((r) => ({ name: nameOf(r) })),
    },
  );
}
