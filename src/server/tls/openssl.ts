/**
 * Certificates issued with the `openssl` CLI (OpenSSL 3): a self-signed CA, and leaf
 * certificates the CA signs, each with a fresh ECDSA P-256 key. One `openssl req` process per
 * certificate (key, request and signature at once), so that a first start costs a few
 * milliseconds per certificate. Node 20's crypto can read certificates but not issue them, and the
 * CLI is present wherever this server is built; nothing else here calls it.
 */
import { execFile } from 'node:child_process';
import { chmod, rename } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A subject as openssl's `-subj` writes it: `/O=g1/O=g2/CN=name` (values escaped for openssl). */
export function subjectArg(cn: string, organizations: readonly string[] = []): string {
  const esc = (v: string) => v.replace(/[\\/+=]/g, (c) => `\\${c}`);
  return [...organizations.map((o) => `/O=${esc(o)}`), `/CN=${esc(cn)}`].join('');
}

export interface IssueRequest {
  /** Where the PEM certificate and key go (written under temporary names, then renamed). */
  certFile: string;
  keyFile: string;
  commonName: string;
  organizations?: readonly string[];
  days: number;
  /** `ca`, a serving certificate (`server`, with `sans` such as `DNS:localhost`, `IP:127.0.0.1`) or a client certificate. */
  usage: 'ca' | 'server' | 'client';
  sans?: readonly string[];
  /** The signer; absent for the self-signed CA. */
  ca?: { certFile: string; keyFile: string };
}

const extensions: Record<IssueRequest['usage'], string[]> = {
  ca: ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,digitalSignature,keyEncipherment,keyCertSign'],
  server: ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment', 'extendedKeyUsage=serverAuth'],
  client: ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment', 'extendedKeyUsage=clientAuth'],
};

/** Issues one certificate and its key (mode 0600). Rejects with openssl's own message when it fails. */
export async function issueCertificate(r: IssueRequest): Promise<void> {
  const tmpCert = `${r.certFile}.tmp-${process.pid}`;
  const tmpKey = `${r.keyFile}.tmp-${process.pid}`;
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-sha256', '-days', String(r.days), '-subj', subjectArg(r.commonName, r.organizations)];
  if (r.ca) args.push('-CA', r.ca.certFile, '-CAkey', r.ca.keyFile);
  // A signed leaf must not inherit the config file's v3_ca extensions; `-addext` gives its own.
  for (const e of extensions[r.usage]) args.push('-addext', e);
  if (r.sans && r.sans.length > 0) args.push('-addext', `subjectAltName=${r.sans.join(',')}`);
  args.push('-keyout', tmpKey, '-out', tmpCert);
  try {
    await run('openssl', args, { env: { ...process.env, OPENSSL_CONF: '/dev/null' } });
  } catch (e) {
    const err = e as { stderr?: string; code?: string; message: string };
    if (err.code === 'ENOENT') throw new Error('the openssl command is needed to create certificates (or give --tls-cert-file and --tls-private-key-file)');
    throw new Error(`openssl failed: ${(err.stderr ?? err.message).trim()}`);
  }
  await chmod(tmpKey, 0o600);
  await rename(tmpKey, r.keyFile);
  await rename(tmpCert, r.certFile);
}
