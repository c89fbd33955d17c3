/**
 * LIST with Kubernetes semantics over the MVCC store, as etcd3's GetList and the watch cache
 * serve it: label/field selection, `limit`/`continue` as a consistent snapshot (every page is read
 * at the first page's revision), `remainingItemCount` when nothing is filtered, and the
 * resourceVersion / resourceVersionMatch rules:
 *
 * - unset: the latest state (a consistent read);
 * - "0": any state (served as the latest);
 * - N, NotOlderThan (or no match and no limit): the latest state, which must be at least N;
 * - N, Exact (or no match with a limit, the legacy form): the state at N.
 *
 * A compacted revision is 410 Expired; a continue token whose snapshot was compacted gets the
 * `inconsistent continue` answer with a fresh token that continues at the latest revision.
 */
import {
  newBadRequest,
  newResourceExpired,
  newTimeout,
  type StatusError,
} from '../apimachinery/index.ts';
import { CompactedError, FutureRevisionError } from '../storage/index.ts';
import type { GenericStore } from './generic-store.ts';
import { invalidListOptions, validateListOptions } from './list-options.ts';
import { decodeContinue, encodeContinue } from '../apimachinery/index.ts';
import { requireResourceVersion } from '../apimachinery/index.ts';
import type { ListOptions, Obj, ObjList } from './rest.ts';
import { buildPredicate, type Predicate } from './selection.ts';
import { decodeOwn, listItem, rememberSources, type Source } from './shared-objects.ts';

const expired = 'The resourceVersion for the provided list is too old.';
const continueExpired =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';
const inconsistentContinue =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** etcd3's maxLimit: the most keys one range read fetches while filling a filtered page. */
const maxLimit = 10_000;

/** storage.NewTooLargeResourceVersionError: 504 Timeout with a ResourceVersionTooLarge cause. */
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  const err = newTimeout(`Too large resource version: ${requested}, current: ${current}`, 1);
  err.status.details = {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  };
  return err;
}

export class Lister {
  constructor(private readonly s: GenericStore) {}

  /** A resourceVersion parameter as a revision (0: unset); 400 when it does not parse. */
  parseRV(rv: string): number {
    return requireResourceVersion(rv);
  }

  /**
   * Waits (up to the freshness timeout) until the store has reached `rev`, as the watch cache
   * waits for a resourceVersion it has not seen yet; then 504 Too large resource version.
   * Returns the current revision.
   */
  async waitFresh(rev: number): Promise<number> {
    let current = await this.s.store.currentRevision();
    if (current >= rev) return current;
    const deadline = Date.now() + this.s.freshnessTimeoutMs;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.min(20, Math.max(1, deadline - Date.now()))));
      current = await this.s.store.currentRevision();
      if (current >= rev) return current;
    }
    throw tooLargeResourceVersion(rev, current);
  }

  /** The predicate for a request's selectors (400 on a malformed selector or unsupported field). */
  predicate(opts: ListOptions): Predicate {
    return buildPredicate(this.s.strategy, opts.labelSelector, opts.fieldSelector);
  }

  async list(ns: string | undefined, opts: ListOptions): Promise<ObjList> {
    const errs = validateListOptions(opts);
    if (errs.length > 0) throw invalidListOptions(errs);
    const pred = this.predicate(opts);
    const rvText = opts.resourceVersion ?? '';
    const fromRV = this.parseRV(rvText);
    const match = opts.resourceVersionMatch ?? '';
    const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const paging = limit > 0;
    const keyPrefix = this.s.keys.root(ns);

    let startKey: string | undefined;
    let withRev = 0;
    let continuing = false;
    if (opts.continue) {
      let decoded: { key: string; rv: number };
      try {
        decoded = decodeContinue(opts.continue, keyPrefix);
      } catch (e) {
        throw newBadRequest(`invalid continue token: ${(e as Error).message}`);
      }
      if (rvText !== '' && rvText !== '0') {
        throw newBadRequest('specifying resource version is not allowed when using continue');
      }
      startKey = decoded.key;
      continuing = true;
      if (decoded.rv > 0) withRev = decoded.rv;
    } else if (fromRV > 0) {
      if (match === 'Exact' || (match === '' && paging)) withRev = fromRV;
    }
    // A minimum the answer must reach: waits for the store, then 504.
    const minRV = continuing ? 0 : fromRV;
    if (minRV > 0) await this.waitFresh(minRV);

    const items: Obj[] = [];
    const sources: Source[] = [];
    let fetchLimit = limit;
    let hasMore = false;
    let lastKey = '';
    let count = 0;
    let servedAt = 0;
    for (;;) {
      let res;
      try {
        res = await this.s.store.range(keyPrefix, {
          revision: withRev || undefined,
          startKey,
          limit: paging ? fetchLimit : undefined,
          resourcePrefix: this.s.keys.prefix,
        });
      } catch (e) {
        throw this.interpretRangeError(e, continuing, startKey ?? keyPrefix, keyPrefix);
      }
      if (servedAt === 0) count = res.count;
      servedAt = res.revision;
      hasMore = res.more;
      let filled = false;
      for (const kv of res.items) {
        if (paging && items.length >= limit) {
          hasMore = true;
          filled = true;
          break;
        }
        lastKey = kv.key;
        const n = sources.length;
        const obj = listItem(this.s, kv, sources);
        if (pred.matches(obj)) items.push(obj);
        else sources.length = n;
      }
      if (!hasMore || !paging || filled || items.length >= limit) break;
      // Filtering dropped items: fetch more, doubling as etcd3 does, at the same revision.
      fetchLimit = Math.min(fetchLimit * 2, maxLimit);
      startKey = lastKey + '\x00';
      if (withRev === 0) withRev = res.revision;
    }
    if (withRev === 0) withRev = servedAt;

    const list: ObjList = {
      apiVersion: this.s.apiVersion,
      kind: this.s.info.listKind,
      metadata: { resourceVersion: String(withRev) },
      items,
    };
    if (hasMore) {
      list.metadata.continue = encodeContinue(lastKey + '\x00', keyPrefix, withRev);
      // The count includes objects the selectors drop, so it is only given without selectors.
      if (pred.empty) list.metadata.remainingItemCount = count - limit;
    }
    rememberSources(list, sources);
    return list;
  }

  /** The current matching objects and the revision they were read at (initial watch events). */
  async snapshot(ns: string | undefined, pred: Predicate): Promise<{ items: Obj[]; revision: number }> {
    const res = await this.s.store.range(this.s.keys.root(ns), { resourcePrefix: this.s.keys.prefix });
    const items: Obj[] = [];
    for (const kv of res.items) {
      const obj = decodeOwn(this.s, kv);
      if (pred.matches(obj)) items.push(obj);
    }
    return { items, revision: res.revision };
  }

  /** interpretListError: compaction is 410 (with a fresh inconsistent token when paging). */
  private interpretRangeError(e: unknown, continuing: boolean, continueKey: string, keyPrefix: string): unknown {
    if (e instanceof CompactedError) {
      if (!continuing) return newResourceExpired(expired);
      let token: string;
      try {
        // rv -1: continue at the latest revision (0 would read as a bad token).
        token = encodeContinue(continueKey, keyPrefix, -1);
      } catch {
        return newResourceExpired(continueExpired);
      }
      const err = newResourceExpired(inconsistentContinue);
      err.status.metadata = { continue: token };
      return err;
    }
    if (e instanceof FutureRevisionError) return tooLargeResourceVersion(e.requested, e.current);
    return e;
  }
}
