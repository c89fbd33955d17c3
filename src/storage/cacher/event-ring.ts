/**
 * The watch cache's window of recent events for one resource, as upstream's watchCache keeps its
 * cyclic buffer: events in revision order, at most `capacity` of them. The capacity starts small
 * and doubles, up to an upper bound, whenever the event it would evict is younger than the fresh
 * duration (watch_cache.go's resizeCacheLocked: 100 to 100*1024 events, 75 s), so a busy resource
 * keeps about the last 75 s of history and an idle one stays small. A ring may also be bounded by
 * bytes (the cacher's backlog of every resource's events is): past `maxBytes` of keys and values
 * the oldest events go whatever their age.
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

/** What one kept event costs besides its strings (the event, its KeyValue, the slots): an estimate. */
export const eventOverhead = 128;

/** The bytes an event's key and values take, with the overhead (strings shared with a cache count too). */
function eventBytes(ev: WatchEvent): number {
  return ev.kv.key.length + ev.kv.value.length + (ev.prev ? ev.prev.value.length : 0) + eventOverhead;
}

export class EventRing {
  // Parallel arrays, not an entry object per event: the times stay unboxed doubles.
  private events: WatchEvent[] = [];
  private times: number[] = [];
  private start = 0;
  private capacity: number;
  private bytes = 0;
  /** The revision of the newest event evicted (0: none): states before it can no longer be rebuilt. */
  evictedThrough = 0;

  constructor(
    private readonly sizing: RingSizing,
    private readonly now: () => number = Date.now,
    /** The most bytes of keys and values kept (Infinity: bounded by events only). */
    private readonly maxBytes = Infinity,
  ) {
    this.capacity = Math.max(1, sizing.initialCapacity);
  }

  get length(): number {
    return this.events.length - this.start;
  }

  /** The revision of the oldest event kept, or undefined when empty. */
  oldestRevision(): number | undefined {
    return this.length > 0 ? this.events[this.start]!.kv.modRevision : undefined;
  }

  push(ev: WatchEvent): void {
    const at = this.now();
    if (this.length >= this.capacity) {
      if (at - this.times[this.start]! < this.sizing.freshMs && this.capacity < this.sizing.maxCapacity) {
        this.capacity = Math.min(this.capacity * 2, this.sizing.maxCapacity);
      } else {
        this.dropOldest();
      }
    }
    this.events.push(ev);
    this.times.push(at);
    if (this.maxBytes === Infinity) return;
    this.bytes += eventBytes(ev);
    while (this.bytes > this.maxBytes && this.length > 1) this.dropOldest();
  }

  private dropOldest(): void {
    const ev = this.events[this.start]!;
    this.evictedThrough = ev.kv.modRevision;
    if (this.maxBytes !== Infinity) this.bytes -= eventBytes(ev);
    this.events[this.start] = undefined as unknown as WatchEvent;
    this.start++;
    // Reclaim the evicted prefix now and then: amortised O(1) per event.
    if (this.start > 1024 && this.start * 2 > this.events.length) {
      this.events = this.events.slice(this.start);
      this.times = this.times.slice(this.start);
      this.start = 0;
    }
  }

  /** Events with modRevision > `revision`, oldest first. */
  since(revision: number): WatchEvent[] {
    let lo = this.start;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.kv.modRevision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo);
  }
}
