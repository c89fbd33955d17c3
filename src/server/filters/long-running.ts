/**
 * Which requests are long-running (kube-apiserver's BasicLongRunningRequestCheck with the verbs
 * `watch` and `proxy` and the subresources `attach`, `exec`, `proxy`, `log` and `portforward`):
 * the in-flight limits, the request timeout and the audit's ResponseStarted stage treat them apart.
 */
import type { IncomingMessage } from 'node:http';
import { Query } from '../http/query.ts';
import { parseRequestInfo, type RequestInfo } from '../requestinfo.ts';
import { splitPath, splitTarget } from '../server.ts';

const longRunningVerbs = new Set(['watch', 'proxy']);
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** The path and query of a request target, its segments decoded. */
export function targetOf(url: string): { pathname: string; segments: string[]; query: Query } {
  const { pathname, params } = splitTarget(url);
  return { pathname, segments: splitPath(pathname), query: new Query(params) };
}

/** The request's RequestInfo, for resource requests (`/api/...`, `/apis/...`). */
export function requestInfoOf(req: IncomingMessage): RequestInfo | undefined {
  const t = targetOf(req.url ?? '/');
  if (t.segments[0] !== 'api' && t.segments[0] !== 'apis') return undefined;
  return parseRequestInfo((req.method ?? 'GET').toUpperCase(), t.segments, t.query);
}

/** BasicLongRunningRequestCheck. */
export function isLongRunning(info: RequestInfo | undefined, path: string): boolean {
  if (info === undefined) return path.startsWith('/debug/pprof/');
  return longRunningVerbs.has(info.verb) || (info.subresource !== undefined && longRunningSubresources.has(info.subresource));
}
