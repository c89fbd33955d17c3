/**
 * Calling a webhook (k8s.io/apiserver pkg/util/webhook client.go and client-go's REST client as
 * the dispatchers use it): an HTTPS POST of JSON to `clientConfig.url`, or to a service
 * (`https://<name>.<namespace>.svc:<port><path>`, verified as that name) at the address the
 * service resolver gives; the server verified against `caBundle`, or the system roots when it is
 * empty; `?timeout=<n>s` and a deadline of timeoutSeconds; one keep-alive agent per endpoint and
 * CA. Failures are reported in Go's words, as upstream prints them after `failed to call webhook:`
 * (`Post "https://...": dial tcp 127.0.0.1:1: connect: connection refused`, `... context deadline
 * exceeded`, `... tls: failed to verify certificate: x509: certificate signed by unknown
 * authority`), or a non-2xx answer as client-go reads it (its Status, or the generic message for
 * the code).
 */
import { X509Certificate } from 'node:crypto';
import { request as httpsRequest, Agent } from 'node:https';
import { posix } from 'node:path';
import { goJSONSyntaxError, newGenericServerResponse } from '../../apimachinery/index.ts';
import type { Obj } from '../../registry/index.ts';

/** Where a service's webhook listens (`serve --webhook-service-address NAMESPACE/NAME=HOST:PORT`). */
export interface ServiceResolver {
  /** ResolveEndpoint: `host:port`, or the error upstream's resolver reports. */
  resolve(namespace: string, name: string, port: number): { address: string } | { error: string };
}

/** A resolver over fixed addresses (`namespace/name` -> `host:port`), the service's port ignored. */
export function fixedServiceResolver(addresses: ReadonlyMap<string, string>): ServiceResolver {
  return {
    resolve(namespace, name) {
      const address = addresses.get(`${namespace}/${name}`);
      return address === undefined ? { error: `service ${JSON.stringify(name)} not found` } : { address };
    },
  };
}

/** The failure of one call: upstream's reason text after `failed calling webhook "x": `. */
export class CallFailure extends Error {}

const pemCertificate = /-----BEGIN CERTIFICATE-----\r?\n([A-Za-z0-9+/=\r\n]+?)-----END CERTIFICATE-----/g;

/**
 * The root certificates of a `caBundle` (base64 of PEM, as the API holds it): undefined when empty
 * (the system roots), else the PEM blocks that are certificates (x509's AppendCertsFromPEM);
 * throws the REST client's error when there is none.
 */
export function loadCABundle(caBundle: unknown): string | undefined {
  if (typeof caBundle !== 'string' || caBundle === '') return undefined;
  const text = Buffer.from(caBundle, 'base64').toString('latin1');
  const certs = [...text.matchAll(pemCertificate)].map((m) => m[0]).filter((pem) => {
    try {
      new X509Certificate(pem);
      return true;
    } catch {
      return false;
    }
  });
  if (certs.length === 0) throw new CallFailure('could not get REST client: unable to load root certificates: unable to parse bytes as PEM block');
  return certs.join('\n') + '\n';
}

/** A response body larger than this is refused (kube-apiserver reads at most what etcd could store). */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

interface Endpoint {
  /** The URL as Go's client prints it (with `?timeout=`). */
  url: string;
  /** Where to connect. */
  host: string;
  port: number;
  path: string;
  /** The name the certificate must carry. */
  servername: string;
  ca?: string;
}

const isIPv6 = (h: string) => h.includes(':');

/** Go's Duration.String() of whole seconds, as client-go's Timeout(...) writes the query parameter. */
function goSeconds(s: number): string {
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${s % 60}s` : `${Math.floor(m / 60)}h${m % 60}m${s % 60}s`;
}

/** x509's text for Node's certificate verification codes. */
function x509Error(e: NodeJS.ErrnoException & { reason?: string }, servername: string): string {
  switch (e.code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID': {
      // Node: "Host: x. is not in the cert's altnames: DNS:a, IP Address:b" or "IP: x is not in the cert's list: b".
      const names = /(?:altnames|list): (.*)$/.exec(e.reason ?? '')?.[1] ?? '';
      const valid = names.split(', ').map((n) => n.replace(/^(DNS|IP Address):/, '')).join(', ');
      return `x509: certificate is valid for ${valid}, not ${servername}`;
    }
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return 'x509: certificate has expired or is not yet valid';
    default:
      return 'x509: certificate signed by unknown authority';
  }
}

const tlsCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);

/** A Node socket error in the words of Go's net/http. */
function goNetError(e: NodeJS.ErrnoException & { address?: string; port?: number }, ep: Endpoint): string {
  const addr = `${isIPv6(ep.host) ? `[${ep.host}]` : ep.host}:${ep.port}`;
  if (e.code !== undefined && tlsCodes.has(e.code)) return `tls: failed to verify certificate: ${x509Error(e, ep.servername)}`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${addr}: connect: connection refused`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${ep.host}: no such host`;
    case 'EHOSTUNREACH':
      return `dial tcp ${addr}: connect: no route to host`;
    case 'ECONNRESET':
    case 'EPIPE':
      return 'EOF';
    default:
      return e.message;
  }
}

/** The webhook clients of one plugin (ClientManager): agents cached per endpoint and CA. */
export class WebhookClients {
  private readonly agents = new Map<string, Agent>();

  constructor(private readonly resolver: ServiceResolver | undefined) {}

  /** hookClientConfig: the endpoint of a webhook's clientConfig, or the REST client error. */
  private endpoint(clientConfig: Obj, timeoutSeconds: number | undefined): Endpoint {
    const query = timeoutSeconds !== undefined ? `?timeout=${goSeconds(timeoutSeconds)}` : '';
    const ca = loadCABundle(clientConfig.caBundle);
    const service = clientConfig.service as Obj | undefined | null;
    if (service !== undefined && service !== null) {
      const name = String(service.name ?? '');
      const namespace = String(service.namespace ?? '');
      const port = typeof service.port === 'number' ? service.port : 443;
      const servername = `${name}.${namespace}.svc`;
      const path = posix.join('/', typeof service.path === 'string' ? service.path : '');
      const url = `https://${servername}:${port}${path}${query}`;
      const r = this.resolver?.resolve(namespace, name, port) ?? { error: `service ${JSON.stringify(name)} not found` };
      if ('error' in r) throw new CallFailure(`failed to call webhook: Post ${JSON.stringify(url)}: ${r.error}`);
      const colon = r.address.lastIndexOf(':');
      const host = r.address.slice(0, colon).replace(/^\[|\]$/g, '');
      return { url, host, port: Number(r.address.slice(colon + 1)), path: path + query, servername, ca };
    }
    if (typeof clientConfig.url !== 'string' || clientConfig.url === '') throw new CallFailure('webhook configuration must have either service or URL');
    let u: URL;
    try {
      u = new URL(clientConfig.url);
    } catch (e) {
      throw new CallFailure(`Unparsable URL: ${e instanceof Error ? e.message : String(e)}`);
    }
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const path = posix.join('/', u.pathname);
    return { url: `${u.protocol}//${u.host}${path}${query}`, host, port: u.port === '' ? 443 : Number(u.port), path: path + query, servername: host, ca };
  }

  private agent(ep: Endpoint): Agent {
    const key = `${ep.host}\0${ep.port}\0${ep.servername}\0${ep.ca ?? ''}`;
    let a = this.agents.get(key);
    if (a === undefined) {
      a = new Agent({ keepAlive: true, ...(ep.ca !== undefined ? { ca: ep.ca } : {}) });
      this.agents.set(key, a);
    }
    return a;
  }

  /**
   * POSTs `body` to the webhook and resolves with the decoded JSON answer; throws CallFailure
   * with upstream's reason (`could not get REST client: ...`, `failed to call webhook: ...`).
   */
  async post(clientConfig: Obj, timeoutSeconds: number | undefined, body: Obj): Promise<unknown> {
    const ep = this.endpoint(clientConfig, timeoutSeconds);
    const payload = Buffer.from(JSON.stringify(body));
    const post = (detail: string) => new CallFailure(`failed to call webhook: Post ${JSON.stringify(ep.url)}: ${detail}`);
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      let settled = false;
      const done = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        f();
      };
      const req = httpsRequest(
        {
          host: ep.host,
          port: ep.port,
          path: ep.path,
          method: 'POST',
          agent: this.agent(ep),
          // Node refuses an IP address as the TLS server name; it checks IP SANs without one.
          ...(/^[\d.]+$/.test(ep.servername) || isIPv6(ep.servername) ? {} : { servername: ep.servername }),
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': payload.length, 'User-Agent': 'crd-apiserver-admission' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_RESPONSE_BYTES) {
              req.destroy();
              done(() => reject(post('response body too large')));
            } else chunks.push(c);
          });
          res.on('end', () => done(() => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })));
          res.on('error', (e) => done(() => reject(post(goNetError(e, ep)))));
        },
      );
      const timer =
        timeoutSeconds !== undefined
          ? setTimeout(() => {
              req.destroy();
              done(() => reject(post('context deadline exceeded')));
            }, timeoutSeconds * 1000)
          : undefined;
      req.on('error', (e) => done(() => reject(post(goNetError(e, ep)))));
      req.end(payload);
    });
    if (status < 200 || status > 299) throw new CallFailure(`failed to call webhook: ${statusErrorMessage(status, text)}`);
    const syntax = goJSONSyntaxError(text);
    if (syntax !== undefined) throw new CallFailure(`failed to call webhook: couldn't get version/kind; json parse error: ${syntax}`);
    return JSON.parse(text) as unknown;
  }

  close(): void {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }
}

/** client-go's transformResponse for a non-2xx answer: the Status it carries, else the code's message. */
function statusErrorMessage(code: number, text: string): string {
  try {
    const s = JSON.parse(text) as { kind?: unknown; status?: unknown; message?: unknown };
    if (s.kind === 'Status' && s.status === 'Failure' && typeof s.message === 'string') return s.message;
  } catch {
    // not a Status: the generic message below
  }
  return newGenericServerResponse(code, 'POST', { group: '', resource: '' }, '', text.trim() === '' ? 'unknown' : text.trim(), 0, true).message;
}
