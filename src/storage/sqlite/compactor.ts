/**
 * The periodic compactor of the SQLite store, after kube-apiserver's (storage/etcd3/compact.go):
 * every interval it compacts to the revision it saw at the previous tick, so at least one full
 * interval of history (5 to 10 minutes with the default) is always kept for watches that resume
 * from an older resourceVersion. Like kine's compact-min-retain, it also never compacts the newest
 * `retentionRevisions` revisions, so a burst of writes does not outrun reconnecting watchers.
 */

/** When and how far the compactor compacts. */
export interface CompactionPolicy {
  /** Milliseconds between compactions; 0 disables the compactor. Default 300000 (5 minutes). */
  compactIntervalMs: number;
  /** Revisions behind the current one that are never compacted. Default 1000. */
  retentionRevisions: number;
}

export const defaultCompactionPolicy: CompactionPolicy = {
  compactIntervalMs: 5 * 60 * 1000,
  retentionRevisions: 1000,
};

/** What the compactor drives (the store). */
export interface Compactable {
  currentRevision(): Promise<number>;
  compactedRevision(): Promise<number>;
  compact(revision: number): Promise<void>;
}

/**
 * The revision one compactor tick compacts to, or undefined for none: the revision seen at the
 * previous tick, held back to keep `retention` revisions, and only if newer than the compacted one.
 */
export function compactionTarget(previousTick: number, current: number, compacted: number, retention: number): number | undefined {
  const target = Math.min(previousTick, current - retention);
  return target > compacted ? target : undefined;
}

/** Runs compaction on a timer (unref'd, so it never keeps the process alive). */
export class Compactor {
  private timer: NodeJS.Timeout | undefined;
  private lastSeen = 0;
  private readonly policy: CompactionPolicy;

  constructor(
    private readonly store: Compactable,
    policy: Partial<CompactionPolicy> = {},
  ) {
    this.policy = {
      compactIntervalMs: policy.compactIntervalMs ?? defaultCompactionPolicy.compactIntervalMs,
      retentionRevisions: Math.max(0, policy.retentionRevisions ?? defaultCompactionPolicy.retentionRevisions),
    };
    if (this.policy.compactIntervalMs > 0) {
      this.timer = setInterval(() => void this.tick(), this.policy.compactIntervalMs);
      this.timer.unref();
    }
  }

  /** One compaction step; errors are swallowed (the next tick retries), as kube-apiserver logs them. */
  async tick(): Promise<void> {
    try {
      const [current, compacted] = [await this.store.currentRevision(), await this.store.compactedRevision()];
      const target = compactionTarget(this.lastSeen, current, compacted, this.policy.retentionRevisions);
      this.lastSeen = current;
      if (target !== undefined) await this.store.compact(target);
    } catch {
      // Closed store or a compaction racing an explicit one: nothing to do until the next tick.
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
