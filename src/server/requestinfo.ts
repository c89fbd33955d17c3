/**
 * RequestInfo for resource paths, as k8s.io/apiserver's RequestInfoFactory parses them:
 * `/api/v1/...` and `/apis/{group}/{version}/...`, an optional `namespaces/{ns}/` segment (where
 * `namespaces/{name}/status|finalize` is the namespaces resource itself), then
 * `{resource}[/{name}[/{subresource}]]`. The verb comes from the HTTP method and `watch`.
 */
import type { Query } from './http/query.ts';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface RequestInfo {
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  /** What follows a `proxy` subresource (`pods/x/proxy/a/b`: `a/b`), which proxies to that path. */
  subpath?: string;
  verb: Verb;
}

const namespaceSubresources = new Set(['status', 'finalize']);

/**
 * Parses a resource path. Returns undefined for paths that are not resource requests (discovery
 * documents such as `/apis/g/v`, or too many segments), which the caller answers itself.
 */
export function parseRequestInfo(method: string, segments: string[], query: Query): RequestInfo | undefined {
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api') {
    if (segments.length < 3) return undefined;
    group = '';
    version = segments[1]!;
    rest = segments.slice(2);
  } else if (segments[0] === 'apis') {
    if (segments.length < 4) return undefined;
    group = segments[1]!;
    version = segments[2]!;
    rest = segments.slice(3);
  } else {
    return undefined;
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !namespaceSubresources.has(rest[2]!)) rest = rest.slice(2);
  }
  // Only a proxy subresource takes a path after it.
  let subpath: string | undefined;
  if (rest.length > 3 && rest[2] === 'proxy') {
    subpath = rest.slice(3).join('/');
    rest = rest.slice(0, 3);
  }
  if (rest.length === 0 || rest.length > 3 || rest.some((s) => s === '')) return undefined;
  const [resource, name, subresource] = rest as [string, string | undefined, string | undefined];
  let verb: Verb;
  switch (method) {
    case 'GET':
    case 'HEAD':
      verb = name !== undefined ? 'get' : query.bool('watch') ? 'watch' : 'list';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name !== undefined ? 'delete' : 'deletecollection';
      break;
    default:
      return undefined;
  }
  const info: RequestInfo = { group, version, resource, verb };
  if (namespace !== undefined && !(resource === 'namespaces' && group === '')) info.namespace = namespace;
  if (name !== undefined) info.name = name;
  if (subresource !== undefined) info.subresource = subresource;
  if (subpath !== undefined) info.subpath = subpath;
  return info;
}
