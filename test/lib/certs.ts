/**
 * Test certificates made with the `openssl` CLI: a CA, and serving certificates it signs for
 * 127.0.0.1 and localhost (plus any DNS names asked for, such as a service's
 * `<name>.<namespace>.svc`), in a temporary directory. For tests of anything that serves or
 * calls TLS: webhook servers here, later the API server's own serving and client certificates.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServingCertificate {
  /** PEM of the certificate and its key. */
  cert: string;
  key: string;
}

export interface TestCA {
  /** PEM of the CA certificate. */
  cert: string;
  /** The CA certificate as a webhook's `caBundle` (base64 of the PEM). */
  caBundle: string;
  /** A serving certificate for 127.0.0.1, ::1 and localhost, and `dnsNames`, signed by this CA. */
  serving(dnsNames?: readonly string[]): ServingCertificate;
  /** Removes the files. */
  remove(): void;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

/** Makes a CA (EC P-256, a day's validity) named `name`. */
export function makeTestCA(name = 'crd-apiserver test CA'): TestCA {
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-certs-'));
  openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key']);
  openssl(dir, ['req', '-x509', '-new', '-key', 'ca.key', '-sha256', '-days', '1', '-subj', `/CN=${name}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-out', 'ca.crt']);
  const cert = readFileSync(join(dir, 'ca.crt'), 'utf8');
  let serial = 0;
  return {
    cert,
    caBundle: Buffer.from(cert).toString('base64'),
    serving(dnsNames = []) {
      const n = ++serial;
      const names = ['DNS:localhost', ...dnsNames.map((d) => `DNS:${d}`), 'IP:127.0.0.1', 'IP:::1'].join(',');
      writeFileSync(join(dir, `ext${n}.cnf`), `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=${names}\n`);
      openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `s${n}.key`]);
      openssl(dir, ['req', '-new', '-key', `s${n}.key`, '-subj', '/CN=127.0.0.1', '-out', `s${n}.csr`]);
      openssl(dir, ['x509', '-req', '-in', `s${n}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', String(1000 + n), '-days', '1', '-sha256', '-extfile', `ext${n}.cnf`, '-out', `s${n}.crt`]);
      return { cert: readFileSync(join(dir, `s${n}.crt`), 'utf8'), key: readFileSync(join(dir, `s${n}.key`), 'utf8') };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
