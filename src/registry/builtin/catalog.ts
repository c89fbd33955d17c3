/**
 * The built-in resources of Kubernetes 1.35, read from its OpenAPI documents: for each
 * group-version enabled by default, every stored resource (a path with `create` and `list`
 * actions), its kind, scope, verbs and status/scale subresources, plus what discovery says that
 * OpenAPI does not (short names, categories), as kube-apiserver 1.35's discovery lists them.
 *
 * A server reads them from the index derived once from the documents (catalog-index.ts), not
 * from the documents themselves: parsing all of them cost a start about 120 ms.
 */
import { readFileSync } from 'node:fs';
import { defaultGroupVersions, openAPIDocument, openAPIVendorURL } from './openapi.ts';

export interface BuiltinResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  /** Discovery's verbs, sorted as kube-apiserver sorts them. */
  verbs: string[];
  /** The component schema of the kind (`io.k8s.api.apps.v1.Deployment`). */
  schemaName: string;
  hasStatus: boolean;
  hasScale: boolean;
  shortNames: string[];
  categories: string[];
}

/** Short names and categories by group/resource (kube-apiserver 1.35's discovery). */
const facts: Record<string, { shortNames?: string[]; categories?: string[] }> = {
  '/componentstatuses': { shortNames: ['cs'] },
  '/configmaps': { shortNames: ['cm'] },
  '/endpoints': { shortNames: ['ep'] },
  '/events': { shortNames: ['ev'] },
  '/limitranges': { shortNames: ['limits'] },
  '/nodes': { shortNames: ['no'] },
  '/persistentvolumeclaims': { shortNames: ['pvc'] },
  '/persistentvolumes': { shortNames: ['pv'] },
  '/pods': { shortNames: ['po'], categories: ['all'] },
  '/replicationcontrollers': { shortNames: ['rc'], categories: ['all'] },
  '/resourcequotas': { shortNames: ['quota'] },
  '/serviceaccounts': { shortNames: ['sa'] },
  '/services': { shortNames: ['svc'], categories: ['all'] },
  'apps/daemonsets': { shortNames: ['ds'], categories: ['all'] },
  'apps/deployments': { shortNames: ['deploy'], categories: ['all'] },
  'apps/replicasets': { shortNames: ['rs'], categories: ['all'] },
  'apps/statefulsets': { shortNames: ['sts'], categories: ['all'] },
  'autoscaling/horizontalpodautoscalers': { shortNames: ['hpa'], categories: ['all'] },
  'batch/cronjobs': { shortNames: ['cj'], categories: ['all'] },
  'batch/jobs': { categories: ['all'] },
  'certificates.k8s.io/certificatesigningrequests': { shortNames: ['csr'] },
  'events.k8s.io/events': { shortNames: ['ev'] },
  'networking.k8s.io/ingresses': { shortNames: ['ing'] },
  'networking.k8s.io/ipaddresses': { shortNames: ['ip'] },
  'networking.k8s.io/networkpolicies': { shortNames: ['netpol'] },
  'policy/poddisruptionbudgets': { shortNames: ['pdb'] },
  'scheduling.k8s.io/priorityclasses': { shortNames: ['pc'] },
  'storage.k8s.io/storageclasses': { shortNames: ['sc'] },
  'storage.k8s.io/volumeattributesclasses': { shortNames: ['vac'] },
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingwebhookconfigurations': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingadmissionpolicies': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/mutatingadmissionpolicies': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings': { categories: ['api-extensions'] },
  'apiregistration.k8s.io/apiservices': { categories: ['api-extensions'] },
};

/** OpenAPI actions as discovery verbs. */
const verbOf: Record<string, string> = {
  get: 'get',
  list: 'list',
  watchlist: 'watch',
  post: 'create',
  put: 'update',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'deletecollection',
};

interface GVK {
  group: string;
  version: string;
  kind: string;
}

/** The resources of one group-version's document. */
export function resourcesOf(group: string, version: string): BuiltinResource[] {
  const { doc } = openAPIDocument(group, version);
  const base = group === '' ? `/api/${version}/` : `/apis/${group}/${version}/`;
  const byName = new Map<string, BuiltinResource & { actions: Set<string> }>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith(base)) continue;
    let rest = path.slice(base.length).split('/');
    // The deprecated watch paths carry the watch verb.
    if (rest[0] === 'watch') rest = rest.slice(1);
    const namespaced = rest[0] === 'namespaces' && rest[1] === '{namespace}' && rest.length > 2;
    const segs = namespaced ? rest.slice(2) : rest;
    if (segs.length === 0 || segs[0] === '') continue;
    const resource = segs[0]!;
    const sub = segs[1] === '{name}' ? segs[2] : undefined;
    for (const [method, op] of Object.entries(ops)) {
      if (method === 'parameters') continue;
      const action = op['x-kubernetes-action'] as string | undefined;
      const gvk = op['x-kubernetes-group-version-kind'] as GVK | undefined;
      if (!action || !gvk) continue;
      let r = byName.get(resource);
      if (!r) {
        if (sub !== undefined) continue;
        r = { group, version, resource, kind: gvk.kind, namespaced: false, verbs: [], schemaName: '', hasStatus: false, hasScale: false, shortNames: [], categories: [], actions: new Set() };
        byName.set(resource, r);
      }
      if (sub === 'status') r.hasStatus = true;
      else if (sub === 'scale') r.hasScale = true;
      else if (sub === undefined) {
        if (namespaced) r.namespaced = true;
        r.actions.add(action);
        if (r.schemaName === '') r.schemaName = schemaNameOf(op, gvk) ?? '';
      }
    }
  }
  const out: BuiltinResource[] = [];
  for (const r of byName.values()) {
    // Stored kinds: created and listed (bindings, component statuses and reviews are not).
    if (!r.actions.has('post') || !r.actions.has('list') || r.schemaName === '') continue;
    const f = facts[`${group}/${r.resource}`] ?? {};
    const { actions, ...res } = r;
    out.push({
      ...res,
      verbs: [...new Set([...actions].map((a) => verbOf[a]).filter((v): v is string => v !== undefined))].sort(),
      shortNames: f.shortNames ?? [],
      categories: f.categories ?? [],
    });
  }
  return out.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
}

/** The component schema an operation's body or answer names for the kind. */
function schemaNameOf(op: Record<string, unknown>, gvk: GVK): string | undefined {
  const refs: string[] = [];
  const collect = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') refs.push(x.replace('#/components/schemas/', ''));
      else collect(x);
    }
  };
  collect(op.responses);
  collect(op.requestBody);
  const suffix = `.${gvk.version}.${gvk.kind}`;
  return refs.find((r) => r.endsWith(suffix));
}

/** Every built-in resource of the default group-versions, in discovery order, derived from their documents. */
export function deriveBuiltinResources(): BuiltinResource[] {
  return defaultGroupVersions.flatMap((gv) => resourcesOf(gv.group, gv.version));
}

/** Where the index of deriveBuiltinResources() is vendored beside the documents. */
export function catalogIndexURL(): URL {
  return openAPIVendorURL('catalog.json');
}

let all: BuiltinResource[] | undefined;

/** Every built-in resource of the default group-versions, in discovery order (from the vendored index). */
export function builtinResources(): BuiltinResource[] {
  all ??= JSON.parse(readFileSync(catalogIndexURL(), 'utf8')) as BuiltinResource[];
  return all;
}
