/**
 * Watch fan-out for a backend that commits in this process (the SQLite store): after each commit
 * the backend publishes the committed events, and every watcher whose prefix matches receives them
 * in revision order. A watch from an old revision first replays history read from the backend's log,
 * then continues live. The process is single-threaded and the backend publishes synchronously right
 * after its commit, so reading history and subscribing in the same synchronous step leaves no gap and
 * no duplicate: every revision <= the current one comes from the log, every later one from publish.
 *
 * Events are handed to `onEvent` from a microtask, never from inside `watch()` or `publish()`: a
 * writer never waits on a consumer, and a consumer can cancel before its first event. Consumers that
 * cannot keep up buffer on their side (the registry does).
 */

import { CompactedError, type Watch, type WatchEvent, type WatchOptions } from './store.ts';
import { hasPrefix } from './prefix.ts';

/** What the broadcaster needs from its backend; every method is synchronous. */
export interface EventLog {
  currentRevision(): number;
  compactedRevision(): number;
  /** Every change under `prefix` with modRevision > afterRevision, in revision order. */
  history(prefix: string, afterRevision: number): WatchEvent[];
}

/** Raised to live watchers when the broadcaster closes (the store is closing). */
export class WatchClosedError extends Error {
  constructor() {
    super('storage is closed');
    this.name = 'WatchClosedError';
  }
}

class Watcher implements Watch {
  private queue: WatchEvent[] = [];
  private draining = false;
  private done = false;

  constructor(
    readonly prefix: string,
    /** The highest revision queued so far: publish skips anything at or below it. */
    public lastRevision: number,
    private readonly opts: WatchOptions,
    private readonly detach: (w: Watcher) => void,
  ) {}

  get active(): boolean {
    return !this.done;
  }

  push(events: WatchEvent[]): void {
    if (this.done) return;
    for (const ev of events) {
      if (ev.kv.modRevision <= this.lastRevision || !hasPrefix(ev.kv.key, this.prefix)) continue;
      this.queue.push(ev);
      this.lastRevision = ev.kv.modRevision;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.draining || this.queue.length === 0) return;
    this.draining = true;
    queueMicrotask(() => this.drain());
  }

  private drain(): void {
    this.draining = false;
    // Events pushed while draining are picked up by this same loop. An index, not shift(): a long
    // replay must not cost quadratic time.
    const queue = this.queue;
    let i = 0;
    while (!this.done && i < queue.length) {
      const ev = queue[i++]!;
      try {
        this.opts.onEvent(ev);
      } catch (err) {
        this.fail(err instanceof Error ? err : new Error(String(err)));
      }
    }
    if (this.queue === queue) this.queue = [];
  }

  /** Stop with an error: onError is called once, then nothing more. */
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

/** Fans committed events out to watchers; one per store. */
export class Broadcaster {
  private readonly watchers = new Set<Watcher>();
  private closed = false;

  constructor(private readonly log: EventLog) {}

  /** Number of live watchers (for tests and metrics). */
  get size(): number {
    return this.watchers.size;
  }

  /**
   * Watch `prefix` for changes after `opts.afterRevision`. If that revision is older than the
   * compacted revision the watch fails with CompactedError: through `onError` when given (the
   * returned watch is then already cancelled), else thrown. A revision ahead of the current one waits
   * for it.
   */
  watch(prefix: string, opts: WatchOptions): Watch {
    if (this.closed) throw new WatchClosedError();
    const compacted = this.log.compactedRevision();
    const after = opts.afterRevision;
    const watcher = new Watcher(prefix, after, opts, (w) => this.watchers.delete(w));
    if (after < compacted) {
      const err = new CompactedError(after, compacted);
      if (!opts.onError) throw err;
      watcher.fail(err);
      return watcher;
    }
    // Replay and subscribe in one synchronous step: no commit can land in between.
    const current = this.log.currentRevision();
    if (after < current) watcher.push(this.log.history(prefix, after));
    if (watcher.lastRevision < current) watcher.lastRevision = current;
    this.watchers.add(watcher);
    return watcher;
  }

  /** Deliver events just committed, in revision order, to every matching watcher. */
  publish(events: WatchEvent[]): void {
    if (events.length === 0) return;
    for (const w of this.watchers) w.push(events);
  }

  /** Fail every live watcher with WatchClosedError and refuse new ones. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.watchers]) w.fail(new WatchClosedError());
  }
}
