/**
 * The watch cache's window of recent events for one resource, as upstream's watchCache keeps its
 * cyclic buffer: events in revision order, at most `capacity` of them. The capacity starts small
 * and doubles, up to an upper bound, whenever the event it would evict is younger than the fresh
 * duration (watch_cache.go's resizeCacheLocked: 100 to 100*1024 events, 75 s), so a busy resource
 * keeps about the last 75 s of history and an idle one stays small.
 */
import type { WatchEvent } from '../store.ts';

export interface RingSizing {
  /** Events kept at first (upstream's defaultLowerBoundCapacity: 100). */
  initialCapacity: number;
  /** The most events ever kept (defaultUpperBoundCapacity: 100 * 1024). */
  maxCapacity: number;
  /** An event younger than this is not evicted while the ring may still grow (eventFreshDuration: 75 s). */
  freshMs: number;
}

export const defaultRingSizing: RingSizing = { initialCapacity: 100, maxCapacity: 100 * 1024, freshMs: 75_000 };

interface Entry {
  ev: WatchEvent;
  at: number;
}

export class EventRing {
  private entries: Entry[] = [];
  private start = 0;
  private capacity: number;
  /** The revision of the newest event evicted (0: none): states before it can no longer be rebuilt. */
  evictedThrough = 0;

  constructor(
    private readonly sizing: RingSizing,
    private readonly now: () => number = Date.now,
  ) {
    this.capacity = Math.max(1, sizing.initialCapacity);
  }

  get length(): number {
    return this.entries.length - this.start;
  }

  /** The revision of the oldest event kept, or undefined when empty. */
  oldestRevision(): number | undefined {
    return this.length > 0 ? this.entries[this.start]!.ev.kv.modRevision : undefined;
  }

  push(ev: WatchEvent): void {
    const at = this.now();
    if (this.length >= this.capacity) {
      const oldest = this.entries[this.start]!;
      if (at - oldest.at < this.sizing.freshMs && this.capacity < this.sizing.maxCapacity) {
        this.capacity = Math.min(this.capacity * 2, this.sizing.maxCapacity);
      } else {
        this.dropOldest();
      }
    }
    this.entries.push({ ev, at });
  }

  private dropOldest(): void {
    this.evictedThrough = this.entries[this.start]!.ev.kv.modRevision;
    this.entries[this.start] = undefined as unknown as Entry;
    this.start++;
    // Reclaim the evicted prefix now and then: amortised O(1) per event.
    if (this.start > 1024 && this.start * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.start);
      this.start = 0;
    }
  }

  /** Events with modRevision > `revision`, oldest first. */
  since(revision: number): WatchEvent[] {
    let lo = this.start;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.ev.kv.modRevision <= revision) lo = mid + 1;
      else hi = mid;
    }
    const out: WatchEvent[] = new Array(this.entries.length - lo);
    for (let i = lo; i < this.entries.length; i++) out[i - lo] = this.entries[i]!.ev;
    return out;
  }
}
