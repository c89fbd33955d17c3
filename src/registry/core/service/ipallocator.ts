/**
 * ClusterIP allocation from the service CIDR as Kubernetes 1.35 does it
 * (pkg/registry/core/service/ipallocator, the IPAddress-backed allocator): each allocated address
 * is a networking.k8s.io/v1 IPAddress object named by the address, written to storage with
 * create-if-absent, so two Services — through one server or several on one etcd — can never hold
 * one address, and the allocation survives restarts with nothing to rebuild. Releasing deletes
 * the IPAddress. Random picks prefer the upper part of the range, leaving the lower block for
 * addresses clients ask for (upstream's dynamic/static split).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { cidrContains, cidrSize, formatCIDR, formatIP, formatRFC3339, parseIP, type CIDR, type IP } from '../../../apimachinery/index.ts';
import { ConflictError, type Store } from '../../../storage/index.ts';
import { resourcePrefix } from '../../keys.ts';

/** An allocator's refusal, with upstream's text (ErrAllocated, ErrNotInRange, ErrFull). */
export class AllocationError extends Error {}

/** What an address is allocated to (IPAddress spec.parentRef). */
export interface IPOwner {
  namespace: string;
  name: string;
}

const ipAddressPrefix = resourcePrefix('networking.k8s.io', 'ipaddresses');

export class IPAllocator {
  readonly family: CIDR['family'];
  /** Offsets (from the network address) of the first and last allocatable addresses. */
  private readonly first: bigint;
  private readonly last: bigint;
  /** Offsets below this are left to requested addresses first. */
  private readonly dynamicStart: bigint;

  constructor(
    private readonly store: Store,
    readonly cidr: CIDR,
  ) {
    this.family = cidr.family;
    const size = cidrSize(cidr);
    // The network address is never handed out, nor IPv4's broadcast address.
    this.first = size > 2n ? 1n : 0n;
    this.last = cidr.family === 'IPv4' && size > 2n ? size - 2n : size - 1n;
    const count = this.last - this.first + 1n;
    const block = count / 16n < 16n ? 16n : count / 16n > 256n ? 256n : count / 16n;
    this.dynamicStart = count > block ? this.first + block : this.first;
  }

  /** The range in messages (`10.96.0.0/12`). */
  get range(): string {
    return formatCIDR(this.cidr);
  }

  /** The CIDR's first allocatable address (the `kubernetes` Service's). */
  firstAddress(): IP {
    return { family: this.family, value: this.cidr.base + this.first };
  }

  private inRange(ip: IP): boolean {
    if (!cidrContains(this.cidr, ip)) return false;
    const off = ip.value - this.cidr.base;
    return off >= this.first && off <= this.last;
  }

  /** Allocate: claims `ip` for `owner`; with dryRun only checks that it could. */
  async allocate(ip: IP, owner: IPOwner, dryRun: boolean): Promise<void> {
    if (!this.inRange(ip)) throw new AllocationError(`the provided IP (${formatIP(ip)}) is not in the valid range. The range of valid IPs is ${this.range}`);
    if (!(await this.claim(ip, owner, dryRun))) throw new AllocationError('provided IP is already allocated');
  }

  /** AllocateNext: a free address, claimed for `owner` (dryRun: found, not claimed). */
  async allocateNext(owner: IPOwner, dryRun: boolean): Promise<IP> {
    const tryRange = async (lo: bigint, hi: bigint): Promise<IP | undefined> => {
      if (hi < lo) return undefined;
      const span = hi - lo + 1n;
      // A few random probes, then a walk from a random start (the range is sparse in practice).
      for (let i = 0; i < 8; i++) {
        const ip = { family: this.family, value: this.cidr.base + lo + randomBig(span) };
        if (await this.claim(ip, owner, dryRun)) return ip;
      }
      const taken = await this.allocated();
      const start = randomBig(span);
      for (let k = 0n; k < span; k++) {
        const ip = { family: this.family, value: this.cidr.base + lo + ((start + k) % span) };
        if (taken.has(ip.value)) continue;
        if (await this.claim(ip, owner, dryRun)) return ip;
      }
      return undefined;
    };
    const ip = (await tryRange(this.dynamicStart, this.last)) ?? (await tryRange(this.first, this.dynamicStart - 1n));
    if (!ip) throw new AllocationError('range is full');
    return ip;
  }

  /** Release: deletes the address's IPAddress (a missing one is already released). */
  async release(ip: IP): Promise<void> {
    const key = ipAddressPrefix + formatIP(ip);
    for (let i = 0; i < 5; i++) {
      const kv = await this.store.get(key);
      if (!kv) return;
      try {
        await this.store.delete(key, kv.modRevision);
        return;
      } catch (e) {
        if (!(e instanceof ConflictError)) throw e;
      }
    }
  }

  /** The addresses of this family held now. */
  private async allocated(): Promise<Set<bigint>> {
    const out = new Set<bigint>();
    const r = await this.store.range(ipAddressPrefix);
    for (const kv of r.items) {
      const ip = parseIP(kv.key.slice(ipAddressPrefix.length));
      if (ip && ip.family === this.family) out.add(ip.value);
    }
    return out;
  }

  /** Writes the IPAddress when absent; false when the address is held. */
  private async claim(ip: IP, owner: IPOwner, dryRun: boolean): Promise<boolean> {
    const name = formatIP(ip);
    const key = ipAddressPrefix + name;
    if (dryRun) return (await this.store.get(key)) === undefined;
    try {
      await this.store.create(key, JSON.stringify(ipAddressObject(name, this.family, owner)));
      return true;
    } catch (e) {
      if (e instanceof ConflictError && e.reason === 'exists') return false;
      throw e;
    }
  }
}

function randomBig(n: bigint): bigint {
  if (n <= 2n ** 47n) return BigInt(randomInt(0, Number(n)));
  return BigInt(randomInt(0, 2 ** 47)) % n;
}

/** The IPAddress upstream's allocator writes for a Service's address. */
function ipAddressObject(name: string, family: string, owner: IPOwner): Record<string, unknown> {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: {
      name,
      uid: randomUUID(),
      creationTimestamp: formatRFC3339(new Date()),
      labels: { 'ipaddress.kubernetes.io/ip-family': family, 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' },
    },
    spec: { parentRef: { group: '', resource: 'services', namespace: owner.namespace, name: owner.name } },
  };
}
