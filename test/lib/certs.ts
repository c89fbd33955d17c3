/**
 * Test certificates made with the `openssl` CLI: a CA, and serving certificates it signs for
 * 127.0.0.1 and localhost (plus any DNS names asked for, such as a service's
 * `<name>.<namespace>.svc`), and client certificates (CN the user, O the groups), in a
 * temporary directory. For tests of anything that serves or calls TLS: webhook servers, and the
 * API server's own serving certificate and client CA given by flag.
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
  /** A client certificate for `commonName` in `organizations`, signed by this CA. */
  client(commonName: string, organizations?: readonly string[]): ServingCertificate;
  /** Where the CA certificate is (for flags such as --client-ca-file). */
  certFile: string;
  /** Writes `pem` into the CA's directory as `name`; returns the path. */
  write(name: string, pem: string): string;
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
    client(commonName, organizations = []) {
      const n = ++serial;
      writeFileSync(join(dir, `ext${n}.cnf`), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n');
      const subj = [...organizations.map((o) => `/O=${o}`), `/CN=${commonName}`].join('');
      openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `c${n}.key`]);
      openssl(dir, ['req', '-new', '-key', `c${n}.key`, '-subj', subj, '-out', `c${n}.csr`]);
      openssl(dir, ['x509', '-req', '-in', `c${n}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', String(1000 + n), '-days', '1', '-sha256', '-extfile', `ext${n}.cnf`, '-out', `c${n}.crt`]);
      return { cert: readFileSync(join(dir, `c${n}.crt`), 'utf8'), key: readFileSync(join(dir, `c${n}.key`), 'utf8') };
    },
    certFile: join(dir, 'ca.crt'),
    write(name, pem) {
      writeFileSync(join(dir, name), pem);
      return join(dir, name);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
