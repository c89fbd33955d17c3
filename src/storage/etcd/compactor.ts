/**
 * The compaction loop, as kube-apiserver runs it (storage/etcd3/compact.go): every interval
 * (`--etcd-compaction-interval`, default 5m; 0 disables) compact etcd at the revision seen one
 * interval earlier, so clients keep at least one interval of history to resume watches from.
 * Several servers on one etcd coordinate through `compact_rev_key`: a compare-and-swap on its
 * version lets one of them compact per interval, and the others follow its count.
 */

import type { KVClient } from 'etcd3';
import { compactRevKey } from './keys.ts';

/** Upstream's default `--etcd-compaction-interval`. */
export const defaultCompactionIntervalMs = 5 * 60 * 1000;

const CompareTarget = { Version: 0 } as const;
const CompareResult = { Equal: 0 } as const;

/**
 * One step: if compact_rev_key's version is still `time`, record `rev` there and compact at it
 * (not at all on the first step, rev 0). Returns the version and the current revision for the next
 * step; a lost compare-and-swap is no error (another server compacted).
 */
export async function compactStep(kv: KVClient, time: number, rev: number): Promise<{ time: number; rev: number }> {
  const key = Buffer.from(compactRevKey);
  const resp = await kv.txn({
    compare: [{ key, target: CompareTarget.Version, result: CompareResult.Equal, version: time }],
    success: [{ request_put: { key, value: Buffer.from(String(rev)) } }],
    failure: [{ request_range: { key } }],
  });
  const curRev = Number(resp.header.revision);
  if (!resp.succeeded) {
    const cur = resp.responses[0]?.response_range?.kvs?.[0];
    return { time: cur ? Number(cur.version) : 0, rev: curRev };
  }
  if (rev > 0) await kv.compact({ revision: rev });
  return { time: time + 1, rev: curRev };
}

export class Compactor {
  private timer: NodeJS.Timeout | undefined;
  private time = 0;
  private rev = 0;
  private stopped = false;

  /** Starts the loop (nothing when intervalMs <= 0). Errors are reported and the loop goes on. */
  constructor(
    private readonly kv: KVClient,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    if (intervalMs > 0) this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      compactStep(this.kv, this.time, this.rev).then(
        (next) => {
          this.time = next.time;
          this.rev = next.rev;
          this.schedule();
        },
        (err: unknown) => {
          this.onError(err);
          this.schedule();
        },
      );
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
