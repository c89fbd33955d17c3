/**
 * Certificates for TLS to etcd in tests, made with the `openssl` CLI: a CA, a server certificate
 * for 127.0.0.1 and localhost, and a client certificate, all signed by that CA (EC P-256 keys, so
 * generating them takes milliseconds). What --etcd-cafile/--etcd-certfile/--etcd-keyfile name.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  caFile: string;
  /** The server's certificate and key (for the etcd members). */
  serverCertFile: string;
  serverKeyFile: string;
  /** The client's certificate and key (for the store). */
  clientCertFile: string;
  clientKeyFile: string;
  /** A CA that signed none of the above (for negative tests). */
  otherCaFile: string;
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function makeCA(dir: string, name: string): void {
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);
  openssl(['req', '-x509', '-new', '-key', `${name}.key`, '-sha256', '-days', '2', '-subj', `/CN=${name}`, '-out', `${name}.crt`], dir);
}

function makeLeaf(dir: string, name: string, ext: string): void {
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);
  openssl(['req', '-new', '-key', `${name}.key`, '-subj', `/CN=${name}`, '-out', `${name}.csr`], dir);
  writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(
    ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-sha256', '-extfile', `${name}.ext`, '-out', `${name}.crt`],
    dir,
  );
}

/** Make a fresh set in a temporary directory; `remove()` deletes it. */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'crd-apiserver-certs-'));
  makeCA(dir, 'ca');
  makeCA(dir, 'other-ca');
  makeLeaf(dir, 'server', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n');
  makeLeaf(dir, 'client', 'extendedKeyUsage=clientAuth\n');
  return {
    dir,
    caFile: join(dir, 'ca.crt'),
    serverCertFile: join(dir, 'server.crt'),
    serverKeyFile: join(dir, 'server.key'),
    clientCertFile: join(dir, 'client.crt'),
    clientKeyFile: join(dir, 'client.key'),
    otherCaFile: join(dir, 'other-ca.crt'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The TLS files of a cluster served with these certificates, for startEtcdCluster. */
export function clusterTLS(c: TestCertificates) {
  return {
    caFile: c.caFile,
    certFile: c.serverCertFile,
    keyFile: c.serverKeyFile,
    ca: readFileSync(c.caFile),
    cert: readFileSync(c.clientCertFile),
    key: readFileSync(c.clientKeyFile),
  };
}
