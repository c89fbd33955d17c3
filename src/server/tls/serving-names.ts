/**
 * The names the serving certificate carries: loopback (`localhost`, 127.0.0.1, ::1), the
 * in-cluster names of the `kubernetes` Service as kube-apiserver's own certificate has them, the
 * listen host (for a wildcard listen address, this machine's host name and addresses, since
 * clients reach it by those), and the `--tls-san` extras.
 */
import { hostname, networkInterfaces } from 'node:os';
import { isIP } from 'node:net';
import { sanEntry } from './pki.ts';

const serviceNames = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '0:0:0:0:0:0:0:0';
}

/** The SAN entries (`DNS:x`, `IP:y`) for a server listening on `host`, with `extras` (names or IPs). */
export function servingNames(host: string, extras: readonly string[] = []): string[] {
  const names = ['localhost', ...serviceNames, '127.0.0.1', '::1'];
  if (isWildcard(host)) {
    names.push(hostname());
    for (const addrs of Object.values(networkInterfaces())) {
      for (const a of addrs ?? []) if (!a.internal && !a.address.startsWith('fe80:')) names.push(a.address);
    }
  } else {
    names.push(host);
  }
  names.push(...extras);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const n of names) {
    const e = sanEntry(isIP(n) === 6 ? n.toLowerCase() : n);
    if (!seen.has(e)) {
      seen.add(e);
      out.push(e);
    }
  }
  return out;
}
