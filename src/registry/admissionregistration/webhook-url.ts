/**
 * A webhook's client address as kube-apiserver checks it (`k8s.io/apiserver/pkg/util/webhook`
 * validation.go: ValidateWebhookURL, ValidateWebhookService), over the parts of a URL Go's
 * `net/url.Parse` finds — scheme, user information, host, path, query, fragment — and its errors,
 * since the messages quote them (`url must be a valid URL: parse "...": ...`).
 */
import { invalid, isDNS1123Subdomain, isValidPortNum, required, type FieldError, type Path } from '../../apimachinery/index.ts';

/** The parts of a URL as Go's url.URL holds them. */
export interface GoURL {
  scheme: string;
  /** Opaque data after `scheme:` when no `/` follows. */
  opaque: string;
  /** The user information (`user` or `user:password`), undefined when none. */
  user?: string;
  host: string;
  path: string;
  rawQuery: string;
  fragment: string;
}

const isAlpha = (c: string) => /^[A-Za-z]$/.test(c);
const isSchemeChar = (c: string) => /^[A-Za-z0-9+.-]$/.test(c);

/** Go's url.Parse: the parts, or the error text after `parse "<url>": `. */
export function parseGoURL(raw: string): GoURL | { error: string } {
  const fail = (msg: string) => ({ error: `parse ${JSON.stringify(raw)}: ${msg}` });
  const hash = raw.indexOf('#');
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  let rest = hash < 0 ? raw : raw.slice(0, hash);
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(rest)) return fail('net/url: invalid control character in URL');
  if (rest === '' && hash >= 0) return { scheme: '', opaque: '', host: '', path: '', rawQuery: '', fragment };
  let scheme = '';
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (c === ':') {
      if (i === 0) return fail('missing protocol scheme');
      scheme = rest.slice(0, i).toLowerCase();
      rest = rest.slice(i + 1);
      break;
    }
    if (!(isAlpha(c) || (i > 0 && isSchemeChar(c)))) break;
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  const url: GoURL = { scheme, opaque: '', host: '', path: '', rawQuery, fragment };
  if (!rest.startsWith('/')) {
    if (scheme !== '') {
      url.opaque = rest;
      return url;
    }
    const slash = rest.indexOf('/');
    const first = slash < 0 ? rest : rest.slice(0, slash);
    if (first.includes(':')) return fail('first path segment in URL cannot contain colon');
  }
  if (rest.startsWith('//') && !rest.startsWith('///')) {
    const after = rest.slice(2);
    const slash = after.indexOf('/');
    const authority = slash < 0 ? after : after.slice(0, slash);
    rest = slash < 0 ? '' : after.slice(slash);
    const at = authority.lastIndexOf('@');
    let host = authority;
    if (at >= 0) {
      url.user = authority.slice(0, at);
      host = authority.slice(at + 1);
    }
    const hostError = checkHost(host);
    if (hostError !== undefined) return fail(hostError);
    url.host = host;
  }
  url.path = rest;
  return url;
}

/** Go's parseHost checks: a port after the last colon must be digits; no spaces or brackets out of place. */
function checkHost(host: string): string | undefined {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0) return 'missing \']\' in host';
    const port = host.slice(end + 1);
    if (port !== '' && !/^:\d*$/.test(port)) return `invalid port ${JSON.stringify(port)} after host`;
    return undefined;
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0) {
    const port = host.slice(colon);
    if (!/^:\d*$/.test(port)) return `invalid port ${JSON.stringify(port)} after host`;
  }
  const bad = /[ "<>\\^`{|}]/.exec(colon >= 0 ? host.slice(0, colon) : host);
  if (bad) return `invalid character ${JSON.stringify(bad[0])} in host name`;
  return undefined;
}

/** The host name of a Go URL host (without port or IPv6 brackets). */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** The port of a Go URL host ('' when none). */
export function portOf(host: string): string {
  const colon = host.lastIndexOf(':');
  if (colon < 0 || (host.startsWith('[') && colon < host.indexOf(']'))) return '';
  return host.slice(colon + 1);
}

const desiredFormat = '; desired format: https://host[/path]';

/** ValidateWebhookURL (forceHttps: webhooks must be called over TLS). */
export function validateWebhookURL(path: Path, raw: string, forceHttps: boolean): FieldError[] {
  const u = parseGoURL(raw);
  if ('error' in u) return [required(path, `url must be a valid URL: ${u.error}${desiredFormat}`)];
  const errs: FieldError[] = [];
  if (forceHttps && u.scheme !== 'https') errs.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${desiredFormat}`));
  if (u.host === '') errs.push(invalid(path, u.host, `host must be specified${desiredFormat}`));
  if (u.user !== undefined) errs.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') errs.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateWebhookService: name, namespace, port, and a path of DNS-subdomain segments. */
export function validateWebhookService(path: Path, namespace: string, name: string, urlPath: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (name === '') errs.push(required(path.child('name'), ''));
  if (namespace === '') errs.push(required(path.child('namespace'), ''));
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(path.child('port'), port, `port is not valid: ${portErrs.join(', ')}`));
  if (urlPath === undefined || urlPath === '/' || urlPath === '') return errs;
  const p = path.child('path');
  if (urlPath === '//') return [...errs, invalid(p, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalid(p, urlPath, "must start with a '/'"));
  let check = urlPath.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(invalid(p, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalid(p, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}
