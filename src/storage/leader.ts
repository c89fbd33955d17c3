/**
 * Leader election over the Store contract, the way client-go's leaderelection does it with a
 * coordination.k8s.io/v1 Lease (kube-controller-manager's `--leader-elect`): the Lease object at
 * `/registry/leases/<namespace>/<name>` names its holder; the holder renews it every retry period,
 * a candidate takes it over once it has seen no renewal for a whole lease duration (timed by its
 * own clock from when it observed the record change, so clock skew between machines does not
 * matter), and every write is a compare-and-swap on the record's revision, so two candidates can
 * never both win. A holder that cannot renew within the renew deadline stops leading; one that
 * stops cleanly releases the lease so that the next candidate need not wait.
 *
 * It needs only the Store contract, so it works on every backend; with several servers it is what
 * lets controllers that must run once run on exactly one of them.
 */

import { ConflictError, type KeyValue, type Store } from './store.ts';

export interface LeaderElectionOptions {
  store: Store;
  /** The Lease's name and namespace (default namespace `kube-system`, as upstream's components). */
  name: string;
  namespace?: string;
  /** This candidate's identity (unique per process: host name and a random suffix, as upstream). */
  identity: string;
  /** client-go's defaults as kube-controller-manager sets them: 15 s, 10 s, 2 s. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  onStartedLeading: () => void;
  onStoppedLeading: () => void;
  /** Called when the observed holder changes (including to this candidate). */
  onNewLeader?: (identity: string) => void;
  onError?: (err: unknown) => void;
  now?: () => number;
}

export interface LeaderElector {
  isLeader(): boolean;
  /** The holder last observed ('' when none). */
  leader(): string;
  /** Stop campaigning; a leader releases the Lease first. Idempotent. */
  stop(): Promise<void>;
}

/** The spec of a coordination.k8s.io/v1 Lease, as stored. */
interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** The key kube-apiserver keeps a Lease under. */
export function leaseKey(namespace: string, name: string): string {
  return `/registry/leases/${namespace}/${name}`;
}

/** metav1.MicroTime's wire format: RFC 3339 with microseconds, UTC. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Start campaigning at once; the first attempt runs before the returned promise's next tick. */
export function runLeaderElection(opts: LeaderElectionOptions): LeaderElector {
  return new Elector(opts);
}

class Elector implements LeaderElector {
  private readonly key: string;
  private readonly namespace: string;
  private readonly leaseMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;
  private leading = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  /** The record as last read or written, and when (by our clock) it last changed. */
  private observed: KeyValue | undefined;
  private observedSpec: LeaseSpec = {};
  private observedAt = 0;
  private lastRenew = 0;
  private holder = '';

  constructor(private readonly opts: LeaderElectionOptions) {
    this.namespace = opts.namespace ?? 'kube-system';
    this.key = leaseKey(this.namespace, opts.name);
    this.leaseMs = opts.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = opts.renewDeadlineMs ?? 10_000;
    this.retryMs = opts.retryPeriodMs ?? 2_000;
    this.now = opts.now ?? Date.now;
    this.tick();
  }

  isLeader(): boolean {
    return this.leading;
  }

  leader(): string {
    return this.holder;
  }

  private tick(): void {
    if (this.stopped) return;
    this.running = this.attempt().finally(() => {
      if (this.stopped) return;
      this.timer = setTimeout(() => this.tick(), this.retryMs);
      this.timer.unref();
    });
  }

  private async attempt(): Promise<void> {
    let ok = false;
    try {
      ok = await this.tryAcquireOrRenew();
    } catch (e) {
      if (!(e instanceof ConflictError)) this.opts.onError?.(e);
    }
    const now = this.now();
    if (ok) {
      this.lastRenew = now;
      if (!this.leading) {
        this.leading = true;
        this.opts.onStartedLeading();
      }
    } else if (this.leading && now - this.lastRenew >= this.renewDeadlineMs) {
      // Could not renew in time: another candidate may take over, so stop acting as leader.
      this.leading = false;
      this.opts.onStoppedLeading();
    }
  }

  private setHolder(identity: string): void {
    if (identity === this.holder) return;
    this.holder = identity;
    this.opts.onNewLeader?.(identity);
  }

  private observe(kv: KeyValue | undefined, spec: LeaseSpec): void {
    if (kv?.modRevision !== this.observed?.modRevision) this.observedAt = this.now();
    this.observed = kv;
    this.observedSpec = spec;
    this.setHolder(spec.holderIdentity ?? '');
  }

  private leaseObject(spec: LeaseSpec, prev?: Record<string, unknown>): string {
    const meta = (prev?.metadata as Record<string, unknown> | undefined) ?? { name: this.opts.name, namespace: this.namespace };
    return JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: meta, spec });
  }

  /** One round of client-go's tryAcquireOrRenew; true when this candidate holds the Lease after it. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const s = this.opts.store;
    const now = this.now();
    const me = this.opts.identity;
    const durationSeconds = Math.max(1, Math.round(this.leaseMs / 1000));
    const fresh: LeaseSpec = { holderIdentity: me, leaseDurationSeconds: durationSeconds, acquireTime: microTime(now), renewTime: microTime(now), leaseTransitions: 0 };
    const kv = await s.get(this.key);
    if (!kv) {
      const created = await s.create(this.key, this.leaseObject(fresh));
      this.observe(created, fresh);
      return true;
    }
    const obj = JSON.parse(kv.value) as Record<string, unknown>;
    const spec = (obj.spec ?? {}) as LeaseSpec;
    this.observe(kv, spec);
    const holder = spec.holderIdentity ?? '';
    const heldMs = (spec.leaseDurationSeconds ?? durationSeconds) * 1000;
    if (holder !== '' && holder !== me && this.observedAt + heldMs > now) return false;
    const next: LeaseSpec =
      holder === me
        ? { ...spec, leaseDurationSeconds: durationSeconds, renewTime: microTime(now) }
        : { ...fresh, leaseTransitions: (spec.leaseTransitions ?? 0) + 1 };
    const updated = await s.update(this.key, this.leaseObject(next, obj), kv.modRevision);
    this.observe(updated, next);
    return true;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    if (!this.leading) return;
    this.leading = false;
    // ReleaseOnCancel: an empty holder and a 1 s duration let the next candidate take over at once.
    const kv = this.observed;
    if (kv) {
      try {
        const obj = JSON.parse(kv.value) as Record<string, unknown>;
        const released: LeaseSpec = { ...this.observedSpec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime(this.now()) };
        await this.opts.store.update(this.key, this.leaseObject(released, obj), kv.modRevision);
      } catch (e) {
        if (!(e instanceof ConflictError)) this.opts.onError?.(e);
      }
    }
    this.opts.onStoppedLeading();
  }
}
