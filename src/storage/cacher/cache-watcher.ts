/**
 * One client's watch on a resource cache (upstream's cacheWatcher): the events of its prefix after
 * its start revision, handed to `onEvent` from a microtask in revision order. Replayed history is
 * queued whole; live events count against a buffer of `capacity` events, and a watcher whose
 * buffer overflows is closed with WatcherEvictedError, as the cacher closes a watcher that does
 * not keep up (the client's stream ends and it watches again from its last resourceVersion).
 */
import { hasPrefix } from '../prefix.ts';
import type { Watch, WatchEvent, WatchOptions } from '../store.ts';

/** Ends a watch whose consumer fell behind; not an error the client sees (its stream just ends). */
export class WatcherEvictedError extends Error {
  constructor(readonly pending: number) {
    super(`watcher closed due to unresponsiveness: ${pending} events pending`);
    this.name = 'WatcherEvictedError';
  }
}

export class CacheWatcher implements Watch {
  private queue: WatchEvent[] = [];
  private draining = false;
  private done = false;
  /** Queued events that came from the live stream (replayed ones do not count against capacity). */
  private live = 0;

  constructor(
    readonly prefix: string,
    /** The highest revision queued so far: anything at or below it is skipped. */
    public lastRevision: number,
    private readonly opts: WatchOptions,
    private readonly capacity: number,
    private readonly detach: (w: CacheWatcher) => void,
  ) {}

  get active(): boolean {
    return !this.done;
  }

  /** Queues history (the ring's events after the start revision) without the buffer bound. */
  replay(events: WatchEvent[]): void {
    for (const ev of events) this.add(ev);
    this.live = 0;
    this.schedule();
  }

  /** Queues one live event; closes the watcher if its buffer is full. */
  dispatch(ev: WatchEvent): void {
    if (this.done || !this.add(ev)) return;
    if (++this.live > this.capacity) {
      this.fail(new WatcherEvictedError(this.queue.length));
      return;
    }
    this.schedule();
  }

  /** The cache has seen every change up to `revision` (for bookmarks). */
  progress(revision: number): void {
    if (this.done || revision <= this.lastRevision || this.queue.length > 0) return;
    this.lastRevision = revision;
    this.opts.onProgress?.(revision);
  }

  private add(ev: WatchEvent): boolean {
    if (this.done || ev.kv.modRevision <= this.lastRevision || !hasPrefix(ev.kv.key, this.prefix)) return false;
    this.queue.push(ev);
    this.lastRevision = ev.kv.modRevision;
    return true;
  }

  private schedule(): void {
    if (this.draining || this.queue.length === 0) return;
    this.draining = true;
    queueMicrotask(() => this.drain());
  }

  private drain(): void {
    this.draining = false;
    const queue = this.queue;
    this.queue = [];
    this.live = 0;
    for (let i = 0; i < queue.length && !this.done; i++) {
      try {
        this.opts.onEvent(queue[i]!);
      } catch (err) {
        this.fail(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  /** Stops with an error: onError is called once (from a microtask), then nothing more. */
  fail(err: Error): void {
    if (this.done) return;
    this.cancel();
    const onError = this.opts.onError;
    if (onError) queueMicrotask(() => onError(err));
  }

  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.queue = [];
    this.detach(this);
  }
}
