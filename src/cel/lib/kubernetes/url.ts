/**
 * Kubernetes' URL library (k8s.io/apiserver/pkg/cel/library/urls.go): `url(string)` (an absolute
 * URI or absolute path, as Go's url.ParseRequestURI accepts), `isURL`, and the accessors
 * `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`. URLs are equal
 * when their Go String() forms are.
 */
import { BoolType, StringType, listOf, mapOf, structType } from '../../check/types.ts';
import { CelMap, errNoOverload, type Val } from '../../eval/values.ts';
import type { Library } from '../decls.ts';
import { err, fn, global, member } from '../define.ts';
import { nominalCost, stringCost } from './costs.ts';
import * as neturl from './net-url.ts';
import { LibraryValue } from './object.ts';

export const URL_TYPE_NAME = 'kubernetes.URL';
/** The checker's type of URL values. */
export const URLType = structType(URL_TYPE_NAME);

/** A CEL `kubernetes.URL` value. */
export class URLValue extends LibraryValue {
  constructor(readonly url: neturl.GoURL) {
    super(URL_TYPE_NAME, neturl.urlString(url));
  }
}

function stringToURL(s: string): Val {
  const r = neturl.parseRequestURI(s);
  if (typeof r === 'string') return err(`URL parse error during conversion from string: ${r}`);
  const u = neturl.parseURL(s);
  if (typeof u === 'string') return err(`URL parse error during conversion from string: ${u}`);
  return new URLValue(u);
}

function withURL(f: (u: neturl.GoURL) => Val) {
  return (v: Val): Val => (v instanceof URLValue ? f(v.url) : errNoOverload());
}

function getQuery(u: neturl.GoURL): Val {
  const m = new CelMap();
  for (const [k, vs] of neturl.query(u)) m.set(k, vs);
  return m;
}

const S = StringType;

export const urlLibrary: Library = {
  name: 'kubernetes.urls',
  functions: [
    fn('url', global('string_to_url', [S], URLType, stringToURL, { cost: stringCost })),
    fn('getScheme', member('url_get_scheme', [URLType], S, withURL((u) => u.scheme), { cost: nominalCost })),
    fn('getHost', member('url_get_host', [URLType], S, withURL((u) => u.host), { cost: nominalCost })),
    fn('getHostname', member('url_get_hostname', [URLType], S, withURL(neturl.hostname), { cost: nominalCost })),
    fn('getPort', member('url_get_port', [URLType], S, withURL(neturl.port), { cost: nominalCost })),
    fn('getEscapedPath', member('url_get_escaped_path', [URLType], S, withURL(neturl.escapedPath), { cost: nominalCost })),
    fn('getQuery', member('url_get_query', [URLType], mapOf(S, listOf(S)), withURL(getQuery), { cost: nominalCost })),
    // Upstream's CallCost has no case for isURL: it costs the default 1.
    fn('isURL', global('is_url_string', [S], BoolType, (s: string) => typeof neturl.parseRequestURI(s) !== 'string')),
  ],
};
