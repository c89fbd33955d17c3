/**
 * The server's own certificates, kept in `DATA/pki/` as kubeadm keeps them under
 * /etc/kubernetes/pki: a CA (`ca.crt`, `ca.key`), the serving certificate it signs
 * (`apiserver.crt`, `apiserver.key`) and the admin's client certificate (`admin.crt`,
 * `admin.key`: CN `kubernetes-admin`, O `system:masters`). Made at the first start and reused
 * after; a certificate is issued again when it is missing, unreadable, not signed by the CA,
 * near its expiry, or (the serving one) when the names it must carry changed.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { issueCertificate } from './openssl.ts';

/** How long each kind lasts (kubeadm: a 10-year CA, 1-year leaves) and when a leaf is renewed. */
const caDays = 3650;
const leafDays = 365;
const renewWithinMs = 30 * 24 * 3600 * 1000;

export const adminCommonName = 'kubernetes-admin';
export const adminOrganization = 'system:masters';

export interface PKIFiles {
  dir: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
}

export function pkiFiles(dataDir: string): PKIFiles {
  const dir = join(dataDir, 'pki');
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    servingCert: join(dir, 'apiserver.crt'),
    servingKey: join(dir, 'apiserver.key'),
    adminCert: join(dir, 'admin.crt'),
    adminKey: join(dir, 'admin.key'),
  };
}

/** What the server and its kubeconfig are given: PEM texts. */
export interface ServerPKI {
  ca: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
  /** The certificates issued at this start (empty when every one was reused). */
  issued: ('ca' | 'serving' | 'admin')[];
}

/** A SAN as openssl's config writes it (`DNS:x`, `IP:1.2.3.4`), IPv6 expanded as Node prints it. */
export function sanEntry(name: string): string {
  return isIP(name) ? `IP:${name}` : `DNS:${name}`;
}

/** A SAN as `X509Certificate.subjectAltName` prints it, to compare a certificate's names with the wanted ones. */
function printedSAN(entry: string): string {
  if (!entry.startsWith('IP:')) return entry;
  const ip = entry.slice(3);
  return `IP Address:${isIP(ip) === 6 ? expandIPv6(ip) : ip}`;
}

/** `::1` as Node prints it in subjectAltName: `0:0:0:0:0:0:0:1` (upper-case hex groups without leading zeros). */
function expandIPv6(ip: string): string {
  let groups: string[];
  if (ip.includes('::')) {
    const [head, tail] = ip.split('::') as [string, string];
    const h = head === '' ? [] : head.split(':');
    const t = tail === '' ? [] : tail.split(':');
    groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  } else {
    groups = ip.split(':');
  }
  if (groups.length === 8 && groups[7]!.includes('.')) {
    const [a, b, c, d] = groups[7]!.split('.').map(Number) as [number, number, number, number];
    groups.splice(6, 2, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  } else if (groups[groups.length - 1]!.includes('.')) {
    const v4 = groups.pop()!.split('.').map(Number) as [number, number, number, number];
    groups.push(((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16));
  }
  return groups.map((g) => parseInt(g, 16).toString(16).toUpperCase()).join(':');
}

async function readCert(file: string): Promise<X509Certificate | undefined> {
  try {
    return new X509Certificate(await readFile(file));
  } catch {
    return undefined;
  }
}

async function readable(file: string): Promise<boolean> {
  try {
    await readFile(file);
    return true;
  } catch {
    return false;
  }
}

function nearExpiry(c: X509Certificate, now: number): boolean {
  return Date.parse(c.validTo) - now < renewWithinMs;
}

/** A leaf to keep: present with its key, signed by `ca`, not near expiry. */
async function usableLeaf(cert: string, key: string, ca: X509Certificate, now: number): Promise<X509Certificate | undefined> {
  const c = await readCert(cert);
  if (!c || !(await readable(key)) || !c.checkIssued(ca) || !c.verify(ca.publicKey) || nearExpiry(c, now)) return undefined;
  return c;
}

/**
 * Makes sure the data directory holds a CA, a serving certificate for exactly `sans` (entries
 * as `sanEntry` writes them) and the admin's client certificate, issuing what is missing or
 * stale; returns their PEM texts.
 */
export async function ensureServerPKI(dataDir: string, sans: readonly string[], now = Date.now()): Promise<ServerPKI> {
  const f = pkiFiles(dataDir);
  await mkdir(f.dir, { recursive: true, mode: 0o700 });
  const issued: ServerPKI['issued'] = [];
  let ca = await readCert(f.caCert);
  if (!ca || !ca.ca || !(await readable(f.caKey)) || nearExpiry(ca, now)) {
    await issueCertificate({ certFile: f.caCert, keyFile: f.caKey, commonName: 'crd-apiserver-ca', days: caDays, usage: 'ca' });
    ca = (await readCert(f.caCert))!;
    issued.push('ca');
  }
  const signer = { certFile: f.caCert, keyFile: f.caKey };
  const wanted = [...new Set(sans)];
  const serving = async () => {
    const c = await usableLeaf(f.servingCert, f.servingKey, ca, now);
    const have = new Set((c?.subjectAltName ?? '').split(', ').filter((s) => s !== ''));
    const want = new Set(wanted.map(printedSAN));
    const same = c !== undefined && have.size === want.size && [...want].every((s) => have.has(s));
    if (same) return;
    await issueCertificate({ certFile: f.servingCert, keyFile: f.servingKey, commonName: 'kube-apiserver', days: leafDays, usage: 'server', sans: wanted, ca: signer });
    issued.push('serving');
  };
  const admin = async () => {
    if (await usableLeaf(f.adminCert, f.adminKey, ca, now)) return;
    await issueCertificate({ certFile: f.adminCert, keyFile: f.adminKey, commonName: adminCommonName, organizations: [adminOrganization], days: leafDays, usage: 'client', ca: signer });
    issued.push('admin');
  };
  await Promise.all([serving(), admin()]);
  const [caPem, servingCert, servingKey, adminCert, adminKey] = await Promise.all([f.caCert, f.servingCert, f.servingKey, f.adminCert, f.adminKey].map((p) => readFile(p, 'utf8')));
  return { ca: caPem!, servingCert: servingCert!, servingKey: servingKey!, adminCert: adminCert!, adminKey: adminKey!, issued };
}
