/**
 * The in-flight limits (k8s.io/apiserver `pkg/server/filters/maxinflight.go`,
 * `--max-requests-inflight` and `--max-mutating-requests-inflight`): at most so many read-only
 * (get, list, watch) and so many mutating requests at once, each kind counted apart (a limit of 0
 * is no limit). Long-running requests are not counted, and a request from a member of
 * `system:masters` is served even past the limit; any other gets upstream's answer, a 429 with
 * `Retry-After: 1` and the text `Too many requests, please try again later.`.
 */
import type { ServerResponse } from 'node:http';
import type { UserInfo } from '../../registry/index.ts';

export interface InflightLimits {
  /** --max-requests-inflight (default 400). */
  readOnly: number;
  /** --max-mutating-requests-inflight (default 200). */
  mutating: number;
}

export const defaultInflightLimits: InflightLimits = { readOnly: 400, mutating: 200 };

const nonMutatingVerbs = new Set(['get', 'list', 'watch']);

/** tooManyRequests: http.Error's plain-text 429 with Retry-After. */
export function writeTooManyRequests(res: ServerResponse, retryAfter = '1'): void {
  const body = 'Too many requests, please try again later.\n';
  res.writeHead(429, {
    'Retry-After': retryAfter,
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

export class InflightLimiter {
  private readOnlyInUse = 0;
  private mutatingInUse = 0;

  constructor(readonly limits: InflightLimits) {}

  /** Requests in flight now (tests, metrics). */
  inUse(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnlyInUse, mutating: this.mutatingInUse };
  }

  /**
   * Counts the request (its RequestInfo verb, or the lower-cased method of a non-resource request)
   * until its response closes, or answers it with the 429 when its kind is at its limit; returns
   * false when it answered.
   */
  admit(res: ServerResponse, req: { verb: string; longRunning: boolean }, user: UserInfo): boolean {
    if (req.longRunning) return true;
    const mutating = !nonMutatingVerbs.has(req.verb);
    const limit = mutating ? this.limits.mutating : this.limits.readOnly;
    if (limit <= 0) return true;
    const inUse = mutating ? this.mutatingInUse : this.readOnlyInUse;
    if (inUse >= limit) {
      // A system:master is so powerful that it should always get an answer.
      if (user.groups.includes('system:masters')) return true;
      writeTooManyRequests(res);
      return false;
    }
    if (mutating) this.mutatingInUse++;
    else this.readOnlyInUse++;
    let released = false;
    res.once('close', () => {
      if (released) return;
      released = true;
      if (mutating) this.mutatingInUse--;
      else this.readOnlyInUse--;
    });
    return true;
  }
}
