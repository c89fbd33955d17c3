/**
 * How kube-apiserver reaches a node's kubelet (pkg/kubelet/client NodeConnectionInfoGetter): the
 * Node object's preferred address (Hostname, InternalDNS, InternalIP, ExternalDNS, ExternalIP, as
 * --kubelet-preferred-address-types defaults) and its kubelet port (10250 unless the node reports
 * one). This server runs no kubelets and dials none: a request that would go to a kubelet gets the
 * answer kube-apiserver gives when the connection is refused, with the URL it would have used.
 */
import type { Obj, RESTStore } from '../../rest.ts';

export interface KubeletConnection {
  host: string;
  port: number;
}

const preferredAddressTypes = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
const defaultKubeletPort = 10250;
const isRec = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** GetConnectionInfo: the node's address and port; a missing node is the nodes store's 404, no address a plain error. */
export async function kubeletConnection(nodes: RESTStore, nodeName: string): Promise<KubeletConnection> {
  const node: Obj = await nodes.get(undefined, nodeName);
  const status = isRec(node.status) ? node.status : {};
  const addresses = Array.isArray(status.addresses) ? status.addresses.filter(isRec) : [];
  let host: string | undefined;
  for (const t of preferredAddressTypes) {
    const a = addresses.find((x) => x.type === t && typeof x.address === 'string');
    if (a) {
      host = a.address as string;
      break;
    }
  }
  if (host === undefined) {
    // NoMatchError prints the []NodeAddress with %v.
    const known = addresses.map((a) => `{${String(a.type ?? '')} ${String(a.address ?? '')}}`).join(' ');
    throw new Error(`no preferred addresses found; known addresses: [${known}]`);
  }
  const de = isRec(status.daemonEndpoints) ? status.daemonEndpoints : {};
  const ke = isRec(de.kubeletEndpoint) ? de.kubeletEndpoint : {};
  const port = typeof ke.Port === 'number' && ke.Port > 0 ? ke.Port : defaultKubeletPort;
  return { host, port };
}

/** host:port as net.JoinHostPort writes it. */
export const joinHostPort = (host: string, port: number | string) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** The dial error a refused connection gives (`dial tcp 10.0.0.1:10250: connect: connection refused`). */
export const refused = (host: string, port: number | string) => `dial tcp ${joinHostPort(host, port)}: connect: connection refused`;

/** utilnet.SplitSchemeNamePort: `name`, `name:port` or `scheme:name:port` (scheme http, https or empty). */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  return name.length > 0 && ['', 'http', 'https'].includes(scheme) ? { scheme, name, port } : undefined;
}

/** What the proxy writes when it cannot reach the backend: 503, text. */
export function proxyUnreachable(err: string, url: string): { code: number; text: string; contentType: string } {
  return { code: 503, text: `Error: '${err}'\nTrying to reach: '${url}'`, contentType: 'text/plain; charset=utf-8' };
}
