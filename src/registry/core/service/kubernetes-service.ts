/**
 * The `kubernetes` Service in `default`, kept as kube-apiserver's kubernetesservice controller
 * and endpoint reconciler keep it: ClusterIP the service CIDR's first address, port 443 `https`
 * to the server's own port, no selector; its Endpoints and EndpointSlice name the server's
 * address. Created at start and reconciled every ten seconds (a deleted or changed one comes
 * back); every server runs it, as every kube-apiserver does.
 */
import { formatIP, isAlreadyExists, isNotFound } from '../../../apimachinery/index.ts';
import { jsonEqual } from '../../meta.ts';
import type { Obj, RESTStore } from '../../rest.ts';
import type { ServiceStore } from './store.ts';

export interface KubernetesServiceOptions {
  services: ServiceStore;
  endpoints?: RESTStore;
  endpointSlices?: RESTStore;
  /** The address and port the server is reached at. */
  host: string;
  port: number;
  intervalMs?: number;
  onError?: (err: unknown) => void;
}

const ns = 'default';
const name = 'kubernetes';

function serviceObject(clusterIP: string, port: number): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: ns, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }], clusterIP, sessionAffinity: 'None', type: 'ClusterIP' },
  };
}

function endpointsObject(host: string, port: number): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name, namespace: ns, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: host }], ports: [{ name: 'https', port, protocol: 'TCP' }] }],
  };
}

function endpointSliceObject(host: string, port: number): Obj {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, namespace: ns, labels: { 'kubernetes.io/service-name': name } },
    addressType: host.includes(':') ? 'IPv6' : 'IPv4',
    endpoints: [{ addresses: [host], conditions: { ready: true } }],
    ports: [{ name: 'https', port, protocol: 'TCP' }],
  };
}

/** Creates `want` when missing; puts back the fields `keys` names when they differ. */
async function ensure(store: RESTStore, want: Obj, keys: readonly string[]): Promise<void> {
  let cur: Obj | undefined;
  try {
    cur = await store.get(ns, name);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  if (!cur) {
    try {
      await store.create(ns, want, {});
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
    return;
  }
  const current = cur;
  if (keys.every((k) => jsonEqual(current[k], want[k]))) return;
  await store.update(
    ns,
    name,
    (c) => {
      const next = { ...(c ?? want) };
      for (const k of keys) next[k] = want[k];
      return next;
    },
    {},
  );
}

/** The ports and type the controller owns on the Service (others may add to the rest). */
function serviceDrifted(cur: Obj, port: number): boolean {
  const spec = (cur.spec ?? {}) as Record<string, unknown>;
  const ports = spec.ports as Array<Record<string, unknown>> | undefined;
  const p = ports?.[0];
  return spec.type !== 'ClusterIP' || ports?.length !== 1 || p?.name !== 'https' || p.port !== 443 || p.targetPort !== port || p.protocol !== 'TCP';
}

/** One reconcile: the Service, then its Endpoints and EndpointSlice. */
export async function reconcileKubernetesService(o: KubernetesServiceOptions): Promise<void> {
  const ip = formatIP(o.services.allocators.primary.firstAddress());
  let cur: Obj | undefined;
  try {
    cur = await o.services.get(ns, name);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  const want = serviceObject(ip, o.port);
  if (!cur) {
    try {
      await o.services.create(ns, want, {});
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  } else if (serviceDrifted(cur, o.port)) {
    await o.services.update(
      ns,
      name,
      (c) => {
        const next = { ...(c ?? want) };
        next.spec = { ...((c?.spec ?? {}) as Record<string, unknown>), type: 'ClusterIP', ports: (want.spec as Record<string, unknown>).ports };
        return next;
      },
      {},
    );
  }
  // A loopback address is what Endpoints and EndpointSlice validation refuses (`may not be in the
  // loopback range`): a server listening only on loopback has a kubernetes Service without them.
  if (isLoopback(o.host)) return;
  if (o.endpoints) await ensure(o.endpoints, endpointsObject(o.host, o.port), ['subsets']);
  if (o.endpointSlices) await ensure(o.endpointSlices, endpointSliceObject(o.host, o.port), ['addressType', 'endpoints', 'ports']);
}

function isLoopback(host: string): boolean {
  return /^127\./.test(host) || host === '::1' || host === 'localhost';
}

/** Reconciles now and every intervalMs (default 10s) until stopped. */
export function startKubernetesServiceController(o: KubernetesServiceOptions): { stop(): void; synced: Promise<void> } {
  let stopped = false;
  const onError = o.onError ?? (() => {});
  const run = () => (stopped ? Promise.resolve() : reconcileKubernetesService(o).catch(onError));
  const synced = run();
  const timer = setInterval(() => void run(), o.intervalMs ?? 10_000);
  timer.unref();
  return {
    synced,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
