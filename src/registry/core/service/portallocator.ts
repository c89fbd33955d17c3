/**
 * NodePort allocation from the node port range (pkg/registry/core/service/portallocator): the
 * allocated ports are a bitmap kept in storage as upstream keeps it — a v1 RangeAllocation at
 * `/registry/ranges/servicenodeports`, `data` the base64 of the big-endian bitmap (bit i is port
 * base+i) — and every change is a compare-and-swap on it, so servers sharing one etcd never hand
 * out one port twice. A PortOperation batches one request's changes: allocations are written at
 * once, releases only on commit, and a revert gives back what the request took.
 */
import { randomInt } from 'node:crypto';
import { ConflictError, type Store } from '../../../storage/index.ts';
import { AllocationError } from './ipallocator.ts';

export const nodePortRangeKey = '/registry/ranges/servicenodeports';

/** A port range as `--service-node-port-range` gives it (`30000-32767`, or one port). */
export interface PortRange {
  base: number;
  size: number;
}

/** Parses `low-high` (or `port`) as net.ParsePortRange does; undefined when it is not one. */
export function parsePortRange(text: string): PortRange | undefined {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  if (!m) return undefined;
  const lo = Number(m[1]);
  const hi = m[2] === undefined ? lo : Number(m[2]);
  if (lo < 0 || hi > 65535 || hi < lo) return undefined;
  return { base: lo, size: hi - lo + 1 };
}

export const formatPortRange = (r: PortRange) => `${r.base}-${r.base + r.size - 1}`;

function decodeBitmap(data: unknown): bigint {
  if (typeof data !== 'string' || data === '') return 0n;
  const hex = Buffer.from(data, 'base64').toString('hex');
  return hex === '' ? 0n : BigInt(`0x${hex}`);
}

function encodeBitmap(bits: bigint): string {
  if (bits === 0n) return '';
  let hex = bits.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Buffer.from(hex, 'hex').toString('base64');
}

const has = (bits: bigint, i: number) => ((bits >> BigInt(i)) & 1n) === 1n;

export class NodePortAllocator {
  /** Offsets below this are left to requested ports first. */
  private readonly dynamicStart: number;

  constructor(
    private readonly store: Store,
    readonly range: PortRange,
  ) {
    const block = Math.min(Math.max(16, Math.floor(range.size / 32)), 128);
    this.dynamicStart = range.size > block ? block : 0;
  }

  get rangeText(): string {
    return formatPortRange(this.range);
  }

  /** The bitmap now (0n when none is stored). */
  async snapshot(): Promise<bigint> {
    const kv = await this.store.get(nodePortRangeKey);
    if (!kv) return 0n;
    const obj = JSON.parse(kv.value) as Record<string, unknown>;
    return obj.range === this.rangeText ? decodeBitmap(obj.data) : 0n;
  }

  /** Applies `change` to the stored bitmap with compare-and-swap, retrying on conflicts; returns change's result. */
  async mutate<T>(change: (bits: bigint) => { bits: bigint; result: T }): Promise<T> {
    for (;;) {
      const kv = await this.store.get(nodePortRangeKey);
      let bits = 0n;
      if (kv) {
        const obj = JSON.parse(kv.value) as Record<string, unknown>;
        if (obj.range === this.rangeText) bits = decodeBitmap(obj.data);
      }
      const out = change(bits);
      if (kv && out.bits === bits) return out.result;
      const value = JSON.stringify({ kind: 'RangeAllocation', apiVersion: 'v1', metadata: { creationTimestamp: null }, range: this.rangeText, data: encodeBitmap(out.bits) });
      try {
        if (kv) await this.store.update(nodePortRangeKey, value, kv.modRevision);
        else await this.store.create(nodePortRangeKey, value);
        return out.result;
      } catch (e) {
        if (!(e instanceof ConflictError)) throw e;
      }
    }
  }

  private offset(port: number): number {
    const off = port - this.range.base;
    if (off < 0 || off >= this.range.size) {
      throw new AllocationError(`provided port is not in the valid range. The range of valid ports is ${this.rangeText}`);
    }
    return off;
  }

  /** Claims `port` (dryRun: checks it is free). */
  async allocate(port: number, dryRun: boolean): Promise<void> {
    const off = this.offset(port);
    if (dryRun) {
      if (has(await this.snapshot(), off)) throw new AllocationError('provided port is already allocated');
      return;
    }
    await this.mutate((bits) => {
      if (has(bits, off)) throw new AllocationError('provided port is already allocated');
      return { bits: bits | (1n << BigInt(off)), result: undefined };
    });
  }

  /** Claims a free port (dryRun: finds one). */
  async allocateNext(dryRun: boolean, avoid: ReadonlySet<number> = new Set()): Promise<number> {
    const pick = (bits: bigint): number => {
      const scan = (lo: number, hi: number): number | undefined => {
        const span = hi - lo;
        if (span <= 0) return undefined;
        const start = randomInt(0, span);
        for (let k = 0; k < span; k++) {
          const off = lo + ((start + k) % span);
          if (!has(bits, off) && !avoid.has(this.range.base + off)) return off;
        }
        return undefined;
      };
      const off = scan(this.dynamicStart, this.range.size) ?? scan(0, this.dynamicStart);
      if (off === undefined) throw new AllocationError('range is full');
      return off;
    };
    if (dryRun) return this.range.base + pick(await this.snapshot());
    return this.mutate((bits) => {
      const off = pick(bits);
      return { bits: bits | (1n << BigInt(off)), result: this.range.base + off };
    });
  }

  /** Gives ports back (those outside the range are ignored). */
  async release(ports: readonly number[]): Promise<void> {
    const offs = ports.map((p) => p - this.range.base).filter((o) => o >= 0 && o < this.range.size);
    if (offs.length === 0) return;
    await this.mutate((bits) => {
      let b = bits;
      for (const o of offs) b &= ~(1n << BigInt(o));
      return { bits: b, result: undefined };
    });
  }

  /** Replaces the bitmap with exactly `ports` (the repair after a restart). */
  async reset(ports: readonly number[]): Promise<void> {
    await this.mutate(() => {
      let b = 0n;
      for (const p of ports) {
        const o = p - this.range.base;
        if (o >= 0 && o < this.range.size) b |= 1n << BigInt(o);
      }
      return { bits: b, result: undefined };
    });
  }
}

/**
 * One request's node port changes (PortAllocationOperation): allocations happen at once (and are
 * given back on revert), releases wait for commit; a dry run claims nothing.
 */
export class PortOperation {
  private readonly allocated: number[] = [];
  private readonly releases: number[] = [];
  /** Ports this operation holds or was asked for (AllocateNext never returns them). */
  private readonly held = new Set<number>();

  constructor(
    private readonly alloc: NodePortAllocator,
    private readonly dryRun: boolean,
  ) {}

  async allocate(port: number): Promise<void> {
    if (this.held.has(port)) throw new AllocationError('provided port is already allocated');
    await this.alloc.allocate(port, this.dryRun);
    this.held.add(port);
    this.allocated.push(port);
  }

  async allocateNext(): Promise<number> {
    const port = await this.alloc.allocateNext(this.dryRun, this.held);
    this.held.add(port);
    this.allocated.push(port);
    return port;
  }

  releaseDeferred(port: number): void {
    this.releases.push(port);
  }

  async commit(): Promise<void> {
    if (!this.dryRun) await this.alloc.release(this.releases);
  }

  async revert(): Promise<void> {
    if (!this.dryRun) await this.alloc.release(this.allocated);
  }
}
