/**
 * Leases for keys written with a TTL, granted as kube-apiserver's lease manager grants them
 * (storage/etcd3/lease_manager.go): one lease serves every write whose TTL ends within a short
 * window of it, so that a burst of Events costs one LeaseGrant, not one per Event. The lease is
 * granted with that window added to the TTL, so no key expires before its own TTL has run.
 */

/** Upstream's defaults: reuse a lease for 5% of the TTL, at most 60 s, for at most 1000 keys. */
export const leaseReuseDurationSeconds = 60;
export const leaseReuseDurationPercent = 0.05;
export const leaseMaxAttachedObjectCount = 1000;

export type GrantLease = (ttlSeconds: number) => Promise<string>;

export class LeaseManager {
  private prevLeaseId = '';
  private prevExpiresAt = 0;
  private attached = 0;
  private granting: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly grant: GrantLease,
    private readonly now: () => number = Date.now,
  ) {}

  /** A lease id whose expiry is at least `ttlSeconds` and at most the reuse window later. */
  getLease(ttlSeconds: number): Promise<string> {
    // Serialised, so that concurrent writes reuse the lease the first of them granted.
    const run = this.granting.then(() => this.getLeaseNow(ttlSeconds));
    this.granting = run.catch(() => {});
    return run;
  }

  private async getLeaseNow(ttlSeconds: number): Promise<string> {
    const now = this.now();
    const reuse = Math.min(Math.floor(leaseReuseDurationPercent * ttlSeconds), leaseReuseDurationSeconds);
    const valid = now + ttlSeconds * 1000 < this.prevExpiresAt;
    const sufficient = now + (ttlSeconds + reuse) * 1000 > this.prevExpiresAt;
    this.attached++;
    if (this.prevLeaseId && valid && sufficient && this.attached <= leaseMaxAttachedObjectCount) return this.prevLeaseId;
    const ttl = ttlSeconds + reuse;
    const id = await this.grant(ttl);
    this.prevLeaseId = id;
    this.prevExpiresAt = now + ttl * 1000;
    this.attached = 1;
    return id;
  }
}
