/**
 * The kinds the server serves, from aggregated discovery (`/api` and `/apis` as
 * APIGroupDiscoveryList): one entry per group's preferred version and resource, with its scope,
 * whether a CRD defines it, and how many objects there are (a `limit=1` list: its item plus
 * `remainingItemCount`).
 */
import { discoveryAccept, getJSON, resourcePath } from './api.ts';

export interface Kind {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  custom: boolean;
  verbs: string[];
  count?: number;
}

interface DiscoveryList {
  items?: {
    metadata?: { name?: string };
    versions?: { version: string; resources?: { resource: string; responseKind?: { kind?: string }; scope?: string; verbs?: string[] }[] }[];
  }[];
}

export const kindKey = (k: { group: string; version: string; resource: string }) => `${k.group}/${k.version}/${k.resource}`;

/** Every served resource (preferred versions), built-in first by group, then custom. */
export async function loadKinds(): Promise<Kind[]> {
  const [core, groups, crds] = await Promise.all([
    getJSON<DiscoveryList>('/api', discoveryAccept),
    getJSON<DiscoveryList>('/apis', discoveryAccept),
    getJSON<{ items?: { spec?: { group?: string; names?: { plural?: string } } }[] }>('/apis/apiextensions.k8s.io/v1/customresourcedefinitions').catch(() => ({ items: [] })),
  ]);
  const custom = new Set((crds.items ?? []).map((c) => `${c.spec?.group}/${c.spec?.names?.plural}`));
  const out: Kind[] = [];
  for (const g of [...(core.items ?? []), ...(groups.items ?? [])]) {
    const group = g.metadata?.name ?? '';
    const v = g.versions?.[0];
    if (v === undefined) continue;
    for (const r of v.resources ?? []) {
      if (r.resource.includes('/')) continue;
      out.push({
        group,
        version: v.version,
        resource: r.resource,
        kind: r.responseKind?.kind ?? r.resource,
        namespaced: r.scope === 'Namespaced',
        custom: custom.has(`${group}/${r.resource}`),
        verbs: r.verbs ?? [],
      });
    }
  }
  out.sort((a, b) => Number(a.custom) - Number(b.custom) || a.group.localeCompare(b.group) || a.kind.localeCompare(b.kind));
  return out;
}

/** The number of objects of a kind (across namespaces), or undefined when it cannot be listed. */
export async function countObjects(k: Kind): Promise<number | undefined> {
  if (!k.verbs.includes('list')) return undefined;
  try {
    const l = await getJSON<{ items?: unknown[]; metadata?: { remainingItemCount?: number } }>(`${resourcePath(k)}?limit=1`);
    return (l.items?.length ?? 0) + (l.metadata?.remainingItemCount ?? 0);
  } catch {
    return undefined;
  }
}

/** Runs fn over items, at most n at a time. */
export async function eachLimited<T>(items: T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}
