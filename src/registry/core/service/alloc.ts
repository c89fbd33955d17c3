/**
 * What a Service write allocates and releases (pkg/registry/core/service/storage/alloc.go):
 * ipFamilies and ipFamilyPolicy filled from the cluster's families, clusterIPs from the service
 * CIDRs (requested ones honoured or refused), nodePorts for NodePort and LoadBalancer Services,
 * healthCheckNodePort for LoadBalancers with externalTrafficPolicy Local — on create, on updates
 * (type changes allocate or release) and on delete. Each write's changes form a transaction the
 * store commits once the object is stored, or reverts.
 */
import { newInternalError, newInvalid, parseIP, Path, invalid, type FieldError, type IP, type IPFamily, formatIP } from '../../../apimachinery/index.ts';
import type { Obj } from '../../rest.ts';
import { getName, getNamespace } from '../../meta.ts';
import { AllocationError, type IPAllocator } from './ipallocator.ts';
import { PortOperation, type NodePortAllocator } from './portallocator.ts';
import {
  clusterIPsOf,
  healthCheckNodePortOf,
  ipFamiliesOf,
  ipFamilyPolicyOf,
  needsHealthCheck,
  nodePortsOf,
  num,
  portsOf,
  selectorOf,
  setList,
  shouldAllocateNodePorts,
  specOf,
  typeOf,
} from './spec.ts';
import { validateServiceClusterIPsRelatedFields } from './validation.ts';

/** A write's allocations: commit once stored (deferred releases happen), revert when not (allocations given back). */
export interface Transaction {
  commit(): Promise<void>;
  revert(): Promise<void>;
}

const serviceKind = { group: '', kind: 'Service' };
const specPath = Path.of('spec');

function invalidService(svc: Obj, errs: FieldError[]): Error {
  return newInvalid(serviceKind, getName(svc), errs);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const familyOf = (ip: string): IPFamily => parseIP(ip)?.family ?? 'IPv4';
const strPtr = (v: string | undefined): unknown => (v === undefined ? null : v);

export class Allocators {
  private readonly byFamily = new Map<IPFamily, IPAllocator>();
  readonly defaultFamily: IPFamily;

  constructor(
    ipAllocators: readonly IPAllocator[],
    readonly nodePorts: NodePortAllocator,
  ) {
    for (const a of ipAllocators) this.byFamily.set(a.family, a);
    this.defaultFamily = ipAllocators[0]!.family;
  }

  /** The primary CIDR's allocator. */
  get primary(): IPAllocator {
    return this.byFamily.get(this.defaultFamily)!;
  }

  /** initIPFamilyFields (MUTATES svc): policy and families defaulted and checked against the cluster's families. */
  initIPFamilyFields(svc: Obj, old: Obj | undefined): void {
    if (typeOf(svc) === 'ExternalName') return;
    const s = specOf(svc);
    if (isMatchingPreferDualStack(svc, old)) return;
    if (ipFamilyPolicyOf(svc) === undefined) {
      const oldPolicy = old ? ipFamilyPolicyOf(old) : undefined;
      if (oldPolicy !== undefined) s.ipFamilyPolicy = oldPolicy;
      else if (s.clusterIP === 'None' && Object.keys(selectorOf(svc) ?? {}).length === 0) s.ipFamilyPolicy = 'RequireDualStack';
      else s.ipFamilyPolicy = 'SingleStack';
    }
    const pre = validateServiceClusterIPsRelatedFields(svc);
    if (pre.length > 0) throw invalidService(svc, pre);
    const el: FieldError[] = [];
    const policyPath = specPath.child('ipFamilyPolicy');
    if (old) {
      if (ipFamilyPolicyOf(svc) === 'SingleStack') {
        if (sameList(clusterIPsOf(old), clusterIPsOf(svc)) && clusterIPsOf(svc).length > 1) s.clusterIPs = clusterIPsOf(svc).slice(0, 1);
        if (sameList(ipFamiliesOf(old), ipFamiliesOf(svc)) && ipFamiliesOf(svc).length > 1) s.ipFamilies = ipFamiliesOf(svc).slice(0, 1);
      } else {
        if (clusterIPsOf(svc).length < clusterIPsOf(old).length) {
          el.push(invalid(policyPath, strPtr(ipFamilyPolicyOf(svc)), "must be 'SingleStack' to release the secondary cluster IP"));
        }
        if (ipFamiliesOf(svc).length < ipFamiliesOf(old).length) {
          el.push(invalid(policyPath, strPtr(ipFamilyPolicyOf(svc)), "must be 'SingleStack' to release the secondary IP family"));
        }
      }
    }
    if (ipFamilyPolicyOf(svc) === 'SingleStack') {
      if (clusterIPsOf(svc).length === 2) el.push(invalid(policyPath, 'SingleStack', "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
      if (ipFamiliesOf(svc).length === 2) el.push(invalid(policyPath, 'SingleStack', "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
    const ips = clusterIPsOf(svc);
    const families = ipFamiliesOf(svc);
    for (let i = 0; i < ips.length; i++) {
      if (ips[i] === 'None') break;
      const fam = familyOf(ips[i]!);
      if (i >= families.length) {
        if (!this.byFamily.has(fam)) el.push(invalid(specPath.child('clusterIPs').index(i), ips, `${fam} is not configured on this cluster`));
        else families.push(fam);
      }
    }
    setList(s, 'ipFamilies', families);
    if (el.length > 0) throw invalidService(svc, el);
    if (s.clusterIP === 'None' && Object.keys(selectorOf(svc) ?? {}).length === 0) {
      const fams = ipFamiliesOf(svc);
      if (fams.length === 0) fams.push(this.defaultFamily);
      if (fams.length < 2 && ipFamilyPolicyOf(svc) !== 'SingleStack') fams.push(fams[0] === 'IPv4' ? 'IPv6' : 'IPv4');
      s.ipFamilies = fams;
      return;
    }
    if (ipFamilyPolicyOf(svc) === 'RequireDualStack' && this.byFamily.size < 2) {
      el.push(invalid(policyPath, 'RequireDualStack', 'this cluster is not configured for dual-stack services'));
    }
    ipFamiliesOf(svc).forEach((f, i) => {
      if (!this.byFamily.has(f as IPFamily)) el.push(invalid(specPath.child('ipFamilies').index(i), f, 'not configured on this cluster'));
    });
    if (el.length > 0) throw invalidService(svc, el);
    const fams = ipFamiliesOf(svc);
    if (fams.length === 0) fams.push(this.defaultFamily);
    if (ipFamilyPolicyOf(svc) !== 'SingleStack' && fams.length === 1 && this.byFamily.size === 2) fams.push(fams[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    s.ipFamilies = fams;
  }

  /** allocIPs: each family's requested address claimed, or a free one; rolls back what it took on failure. */
  private async allocIPs(svc: Obj, toAlloc: ReadonlyArray<[IPFamily, string]>, dryRun: boolean): Promise<Map<IPFamily, IP>> {
    const owner = { namespace: getNamespace(svc), name: getName(svc) };
    const got = new Map<IPFamily, IP>();
    try {
      for (const [family, ip] of toAlloc) {
        const a = this.byFamily.get(family)!;
        if (ip === '') {
          try {
            got.set(family, await a.allocateNext(owner, dryRun));
          } catch (e) {
            if (e instanceof AllocationError) throw newInternalError(`failed to allocate a serviceIP: ${e.message}`);
            throw e;
          }
        } else {
          const parsed = parseIP(ip)!;
          try {
            await a.allocate(parsed, owner, dryRun);
          } catch (e) {
            if (!(e instanceof AllocationError)) throw e;
            throw invalidService(svc, [invalid(specPath.child('clusterIPs'), clusterIPsOf(svc), `failed to allocate IP ${ip}: ${e.message}`)]);
          }
          got.set(family, parsed);
        }
      }
    } catch (e) {
      if (!dryRun) await this.releaseIPs(got);
      throw e;
    }
    return got;
  }

  private async releaseIPs(ips: ReadonlyMap<IPFamily, IP>): Promise<void> {
    for (const [family, ip] of ips) await this.byFamily.get(family)?.release(ip);
  }

  /** allocClusterIPs (MUTATES svc): fills clusterIPs (and clusterIP) for every family; headless and ExternalName get none. */
  private async allocClusterIPs(svc: Obj, dryRun: boolean): Promise<Map<IPFamily, IP>> {
    if (typeOf(svc) === 'ExternalName') return new Map();
    const ips = clusterIPsOf(svc);
    if (ips[0] === 'None') return new Map();
    const families = ipFamiliesOf(svc) as IPFamily[];
    const toAlloc: Array<[IPFamily, string]> = families.map((f, i) => [f, ips[i] ?? '']);
    const got = await this.allocIPs(svc, toAlloc, dryRun);
    const s = specOf(svc);
    const out = families.map((f, i) => (got.has(f) ? formatIP(got.get(f)!) : (ips[i] ?? '')));
    s.clusterIPs = out;
    s.clusterIP = out[0];
    return got;
  }

  /** allocateCreate (MUTATES svc). */
  async allocateCreate(svc: Obj, dryRun: boolean): Promise<Transaction> {
    this.initIPFamilyFields(svc, undefined);
    const ips = await this.allocClusterIPs(svc, dryRun);
    const op = new PortOperation(this.nodePorts, dryRun);
    try {
      if (typeOf(svc) === 'NodePort' || typeOf(svc) === 'LoadBalancer') await initNodePorts(svc, op);
      if (needsHealthCheck(svc)) await allocHealthCheckNodePort(svc, op);
    } catch (e) {
      await op.revert();
      if (!dryRun) await this.releaseIPs(ips);
      throw e;
    }
    return {
      commit: () => op.commit(),
      revert: async () => {
        await op.revert();
        if (!dryRun) await this.releaseIPs(ips);
      },
    };
  }

  /** allocateUpdate (MUTATES svc): type changes allocate or release clusterIPs and node ports. */
  async allocateUpdate(svc: Obj, old: Obj, dryRun: boolean): Promise<Transaction> {
    this.initIPFamilyFields(svc, old);
    const { allocated, toRelease } = await this.updateClusterIPs(svc, old, dryRun);
    const op = new PortOperation(this.nodePorts, dryRun);
    try {
      const wasNodePort = typeOf(old) === 'NodePort' || typeOf(old) === 'LoadBalancer';
      const isNodePort = typeOf(svc) === 'NodePort' || typeOf(svc) === 'LoadBalancer';
      if (wasNodePort && (typeOf(svc) === 'ExternalName' || typeOf(svc) === 'ClusterIP')) for (const p of nodePortsOf(old)) op.releaseDeferred(p);
      if (isNodePort) await updateNodePorts(svc, old, op);
      await updateHealthCheckNodePort(svc, old, op);
    } catch (e) {
      await op.revert();
      if (!dryRun) await this.releaseIPs(allocated);
      throw e;
    }
    return {
      commit: async () => {
        await op.commit();
        if (!dryRun) await this.releaseIPs(toRelease);
      },
      revert: async () => {
        await op.revert();
        if (!dryRun) await this.releaseIPs(allocated);
      },
    };
  }

  private async updateClusterIPs(svc: Obj, old: Obj, dryRun: boolean): Promise<{ allocated: Map<IPFamily, IP>; toRelease: Map<IPFamily, IP> }> {
    const none = { allocated: new Map<IPFamily, IP>(), toRelease: new Map<IPFamily, IP>() };
    if (isMatchingPreferDualStack(svc, old)) return none;
    if (typeOf(old) === 'ExternalName' && typeOf(svc) !== 'ExternalName') return { allocated: await this.allocClusterIPs(svc, dryRun), toRelease: new Map() };
    const oldIPs = clusterIPsOf(old);
    if (oldIPs[0] === 'None') return none;
    const byFamily = (fams: string[], ips: string[]) => {
      const m = new Map<IPFamily, IP>();
      fams.forEach((f, i) => {
        const ip = ips[i] !== undefined ? parseIP(ips[i]!) : undefined;
        if (ip) m.set(f as IPFamily, ip);
      });
      return m;
    };
    if (typeOf(old) !== 'ExternalName' && typeOf(svc) === 'ExternalName') return { allocated: new Map(), toRelease: byFamily(ipFamiliesOf(old), oldIPs) };
    const oldF = ipFamiliesOf(old);
    const newF = ipFamiliesOf(svc);
    if (oldF.length === 1 && newF.length === 2) {
      const ips = clusterIPsOf(svc);
      const second = ips[1] ?? '';
      const got = await this.allocIPs(svc, [[newF[1] as IPFamily, second]], dryRun);
      const ip = got.get(newF[1] as IPFamily);
      specOf(svc).clusterIPs = [ips[0] ?? '', ip ? formatIP(ip) : second];
      return { allocated: got, toRelease: new Map() };
    }
    if (oldF.length === 2 && newF.length === 1) return { allocated: new Map(), toRelease: byFamily([oldF[1]!], [oldIPs[1]!]) };
    return none;
  }

  /** Claims an address a stored Service already holds (the repair); throws when it is out of range or held. */
  async claimExisting(ip: IP, owner: { namespace: string; name: string }): Promise<void> {
    const a = this.byFamily.get(ip.family);
    if (!a) throw new AllocationError(`${ip.family} is not configured on this cluster`);
    await a.allocate(ip, owner, false);
  }

  /** What a deleted Service held, given back (the store's AfterDelete). */
  async release(svc: Obj): Promise<void> {
    if (typeOf(svc) !== 'ExternalName') {
      const ips = clusterIPsOf(svc);
      if (ips[0] !== 'None') {
        const m = new Map<IPFamily, IP>();
        for (const ip of ips) {
          const p = parseIP(ip);
          if (p) m.set(p.family, p);
        }
        await this.releaseIPs(m);
      }
    }
    const ports = nodePortsOf(svc);
    if (healthCheckNodePortOf(svc) !== 0) ports.push(healthCheckNodePortOf(svc));
    await this.nodePorts.release(ports);
  }
}

/** isMatchingPreferDualStackClusterIPFields: an update that leaves a PreferDualStack Service's IP fields as they were. */
function isMatchingPreferDualStack(svc: Obj, old: Obj | undefined): boolean {
  if (!old || typeOf(old) === 'ExternalName') return false;
  if (ipFamilyPolicyOf(old) !== 'PreferDualStack' || ipFamilyPolicyOf(svc) !== 'PreferDualStack') return false;
  return sameList(clusterIPsOf(old), clusterIPsOf(svc)) && sameList(ipFamiliesOf(old), ipFamiliesOf(svc));
}

function nodePortError(svc: Obj, i: number, port: number, e: unknown): Error {
  if (!(e instanceof AllocationError)) return e as Error;
  return invalidService(svc, [invalid(specPath.child('ports').index(i).child('nodePort'), port, e.message)]);
}

/** A free nodePort; a full range is an internal error, as upstream words it. */
async function nextNodePort(op: PortOperation): Promise<number> {
  try {
    return await op.allocateNext();
  } catch (e) {
    if (e instanceof AllocationError) throw newInternalError(`failed to allocate a nodePort: ${e.message}`);
    throw e;
  }
}

/** initNodePorts (MUTATES svc): ports sharing a port number share a nodePort; requested ones are claimed. */
async function initNodePorts(svc: Obj, op: PortOperation): Promise<void> {
  const ports = portsOf(svc);
  const byPort = new Map<number, number>();
  for (let i = 0; i < ports.length; i++) {
    const sp = ports[i]!;
    if (num(sp.nodePort) === 0 && !shouldAllocateNodePorts(svc)) continue;
    const allocated = byPort.get(num(sp.port)) ?? 0;
    if (allocated === 0) {
      const np = ports.slice(i).find((p) => num(p.port) === num(sp.port) && num(p.nodePort) !== 0);
      const requested = np ? num(np.nodePort) : 0;
      if (requested !== 0) {
        try {
          await op.allocate(requested);
        } catch (e) {
          throw nodePortError(svc, i, requested, e);
        }
        sp.nodePort = requested;
        byPort.set(num(sp.port), requested);
      } else {
        const port = await nextNodePort(op);
        sp.nodePort = port;
        byPort.set(num(sp.port), port);
      }
    } else if (num(sp.nodePort) !== allocated) {
      if (num(sp.nodePort) === 0) sp.nodePort = allocated;
      else {
        try {
          await op.allocate(num(sp.nodePort));
        } catch (e) {
          throw nodePortError(svc, i, num(sp.nodePort), e);
        }
      }
    }
  }
}

/** allocHealthCheckNodePort (MUTATES svc). */
async function allocHealthCheckNodePort(svc: Obj, op: PortOperation): Promise<void> {
  const hc = healthCheckNodePortOf(svc);
  if (hc !== 0) {
    try {
      await op.allocate(hc);
    } catch (e) {
      if (e instanceof AllocationError) throw newInternalError(`failed to allocate requested HealthCheck NodePort ${hc}: ${e.message}`);
      throw e;
    }
    return;
  }
  try {
    specOf(svc).healthCheckNodePort = await op.allocateNext();
  } catch (e) {
    if (e instanceof AllocationError) throw newInternalError(`failed to allocate a HealthCheck NodePort 0: ${e.message}`);
    throw e;
  }
}

/** updateNodePorts (MUTATES svc): new nodePorts claimed, missing ones allocated, dropped ones released on commit. */
async function updateNodePorts(svc: Obj, old: Obj, op: PortOperation): Promise<void> {
  const oldPorts = nodePortsOf(old);
  const claimed = new Set<number>();
  const seen = new Set<string>();
  const ports = portsOf(svc);
  for (let i = 0; i < ports.length; i++) {
    const sp = ports[i]!;
    if (num(sp.nodePort) === 0 && !shouldAllocateNodePorts(svc)) continue;
    let np = num(sp.nodePort);
    if (np !== 0) {
      if (!oldPorts.includes(np) && !claimed.has(np)) {
        try {
          await op.allocate(np);
        } catch (e) {
          throw nodePortError(svc, i, np, e);
        }
        claimed.add(np);
      }
    } else {
      np = await nextNodePort(op);
      sp.nodePort = np;
    }
    const key = `${String(sp.protocol)}/${np}`;
    if (seen.has(key)) throw newInternalError(`duplicate nodePort: {${String(sp.protocol)} ${np}}`);
    seen.add(key);
  }
  const now = nodePortsOf(svc);
  for (const p of oldPorts) if (!now.includes(p)) op.releaseDeferred(p);
}

/** updateHealthCheckNodePort (MUTATES svc): allocated when a Service starts needing one, released when it stops. */
async function updateHealthCheckNodePort(svc: Obj, old: Obj, op: PortOperation): Promise<void> {
  const needed = needsHealthCheck(old);
  const needs = needsHealthCheck(svc);
  if (!needed && needs) await allocHealthCheckNodePort(svc, op);
  else if (needed && !needs) {
    const hc = healthCheckNodePortOf(old);
    if (hc !== 0) op.releaseDeferred(hc);
    delete specOf(svc).healthCheckNodePort;
  }
}
