/**
 * The Service REST storage (pkg/registry/core/service/storage): the generic store whose writes
 * allocate — BeginCreate and BeginUpdate run the allocators before the strategy (committing once
 * the Service is stored, reverting when the write fails), AfterDelete gives back what the
 * Service held and removes its Endpoints, as upstream does. Services may be created by PUT.
 *
 * Allocation state lives in storage (IPAddress objects, the node port bitmap), so it survives
 * restarts and is shared by servers on one etcd; on the first write after start it is also
 * repaired from the stored Services (as upstream's repair controllers do), which re-claims what
 * a crash between allocation and write left claimed, and what Services written before held.
 */
import { parseCIDR, parseIP, formatIP, type CIDR } from '../../../apimachinery/index.ts';
import type { Store } from '../../../storage/index.ts';
import { GenericStore, type GenericStoreConfig } from '../../generic-store.ts';
import { resourcePrefix } from '../../keys.ts';
import { getName, getNamespace } from '../../meta.ts';
import type { ServiceNetworkOptions } from '../../kind.ts';
import type { Obj } from '../../rest.ts';
import { Allocators } from './alloc.ts';
import { IPAllocator } from './ipallocator.ts';
import { NodePortAllocator, parsePortRange, type PortRange } from './portallocator.ts';
import { patchAllocatedValues, normalizeClusterIPs } from './prepare.ts';
import { clusterIPsOf, healthCheckNodePortOf, nodePortsOf, typeOf } from './spec.ts';

export const defaultServiceClusterIPRange = '10.96.0.0/12';
export const defaultServiceNodePortRange = '30000-32767';

/** Checks the serve flags' ranges; throws with the flag's name on bad values. */
export function checkServiceNetwork(net: ServiceNetworkOptions): void {
  serviceRanges(net);
}

function serviceRanges(net: ServiceNetworkOptions): { cidrs: CIDR[]; ports: PortRange } {
  const ranges = (net.clusterIPRange ?? defaultServiceClusterIPRange).split(',').map((r) => r.trim());
  const cidrs = ranges.map((r) => {
    const c = parseCIDR(r);
    if (!c) throw new Error(`--service-cluster-ip-range: invalid CIDR ${JSON.stringify(r)}`);
    return c;
  });
  if (cidrs.length > 2 || (cidrs.length === 2 && cidrs[0]!.family === cidrs[1]!.family)) {
    throw new Error('--service-cluster-ip-range: at most two CIDRs, one of each IP family');
  }
  const ports = parsePortRange(net.nodePortRange ?? defaultServiceNodePortRange);
  if (!ports) throw new Error(`--service-node-port-range: invalid port range ${JSON.stringify(net.nodePortRange)}`);
  return { cidrs, ports };
}

/** The allocators over `store` for the given ranges (kube-apiserver's defaults where none are given). */
export function serviceAllocators(store: Store, net: ServiceNetworkOptions = {}): Allocators {
  const { cidrs, ports } = serviceRanges(net);
  return new Allocators(
    cidrs.map((c) => new IPAllocator(store, c)),
    new NodePortAllocator(store, ports),
  );
}

const ipAddressPrefix = resourcePrefix('networking.k8s.io', 'ipaddresses');
const servicePrefix = resourcePrefix('', 'services');
const endpointsPrefix = resourcePrefix('', 'endpoints');
/** How old an IPAddress of no Service must be before the repair removes it. */
const orphanGraceMs = 60_000;

export class ServiceStore extends GenericStore {
  private repaired: Promise<void> | undefined;

  constructor(
    cfg: Omit<GenericStoreConfig, 'hooks'>,
    readonly allocators: Allocators,
  ) {
    super({
      ...cfg,
      hooks: {
        beginCreate: async (ctx, obj) => {
          await this.repairOnce();
          normalizeClusterIPs(obj, undefined);
          const txn = await this.allocators.allocateCreate(obj, ctx.dryRun);
          return (ok) => (ok ? txn.commit() : txn.revert());
        },
        beginUpdate: async (ctx, obj, old) => {
          await this.repairOnce();
          normalizeClusterIPs(obj, old);
          patchAllocatedValues(obj, old);
          const txn = await this.allocators.allocateUpdate(obj, old, ctx.dryRun);
          return (ok) => (ok ? txn.commit() : txn.revert());
        },
        afterDelete: async (obj) => {
          await this.deleteEndpoints(obj);
          await this.allocators.release(obj);
        },
      },
    });
  }

  /** The Endpoints of the same name go with the Service (upstream's afterDelete). */
  private async deleteEndpoints(svc: Obj): Promise<void> {
    const key = `${endpointsPrefix}${getNamespace(svc)}/${getName(svc)}`;
    const kv = await this.store.get(key);
    if (!kv) return;
    try {
      await this.store.delete(key, kv.modRevision);
    } catch {
      // changed or gone meanwhile: the endpoints controller's business then
    }
  }

  private repairOnce(): Promise<void> {
    this.repaired ??= this.repair().catch((e: unknown) => {
      this.repaired = undefined;
      throw e;
    });
    return this.repaired;
  }

  /**
   * The allocation state made to match the stored Services: the node port bitmap rebuilt, every
   * clusterIP in range claimed by an IPAddress, IPAddresses of no stored Service removed.
   */
  async repair(): Promise<void> {
    const services = (await this.store.range(servicePrefix)).items.map((kv) => JSON.parse(kv.value) as Obj);
    const ports: number[] = [];
    const held = new Map<string, Obj>();
    for (const svc of services) {
      ports.push(...nodePortsOf(svc));
      if (healthCheckNodePortOf(svc) !== 0) ports.push(healthCheckNodePortOf(svc));
      if (typeOf(svc) === 'ExternalName') continue;
      for (const ip of clusterIPsOf(svc)) {
        const p = parseIP(ip);
        if (p) held.set(formatIP(p), svc);
      }
    }
    await this.allocators.nodePorts.reset(ports);
    const existing = await this.store.range(ipAddressPrefix);
    const present = new Set<string>();
    for (const kv of existing.items) {
      const name = kv.key.slice(ipAddressPrefix.length);
      present.add(name);
      const obj = JSON.parse(kv.value) as { metadata?: { labels?: Record<string, string>; creationTimestamp?: string } };
      if (obj.metadata?.labels?.['ipaddress.kubernetes.io/managed-by'] !== 'ipallocator.k8s.io' || held.has(name)) continue;
      // A young one may be a create under way on another server: left for a later repair.
      const born = Date.parse(obj.metadata?.creationTimestamp ?? '');
      if (!(Date.now() - born > orphanGraceMs)) continue;
      try {
        await this.store.delete(kv.key, kv.modRevision);
      } catch {
        // written meanwhile: it is someone's now
      }
    }
    for (const [name, svc] of held) {
      if (present.has(name)) continue;
      const ip = parseIP(name)!;
      try {
        await this.allocators.claimExisting(ip, { namespace: getNamespace(svc), name: getName(svc) });
      } catch {
        // out of every range now, or claimed meanwhile: nothing to repair
      }
    }
  }
}
