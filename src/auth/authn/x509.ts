/**
 * Client certificates (`request/x509`): a certificate the TLS handshake received, verified
 * against the client CA bundle, names the user by its subject's CommonName and the groups by its
 * Organizations, with the certificate's SHA-256 as the credential id
 * (`authentication.kubernetes.io/credential-id: X509SHA256=<hex>`). A certificate the CA did not
 * sign (or expired, or not for client auth) fails the request; one without a CommonName is no
 * credential. The handshake asks for a certificate without requiring one (`requestCert`, not
 * `rejectUnauthorized`), as Go's `tls.RequestClientCert`, so that requests without one can use
 * tokens or be anonymous. A connection's certificate is judged once.
 */
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { Authentication, RequestAuthenticator } from './authenticator.ts';
import { notFound } from './authenticator.ts';

export const credentialIDKey = 'authentication.kubernetes.io/credential-id';

/** Go's x509 wording for OpenSSL's verification failures. */
function verifyError(code: string): string {
  switch (code) {
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'CERT_SIGNATURE_FAILURE':
      return 'x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return 'x509: certificate has expired or is not yet valid';
    case 'INVALID_PURPOSE':
      return 'x509: certificate specifies an incompatible key usage';
    default:
      return `x509: ${code}`;
  }
}

function list(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The user a verified certificate names (CommonNameUserConversion). */
export function certificateUser(cert: PeerCertificate): Authentication {
  const cn = list(cert.subject?.CN)[0] ?? '';
  if (cn === '') return notFound;
  const id = `X509SHA256=${cert.fingerprint256.replace(/:/g, '').toLowerCase()}`;
  return { user: { username: cn, groups: list(cert.subject.O), extra: { [credentialIDKey]: [id] } } };
}

function judge(socket: TLSSocket): Authentication {
  const cert = socket.getPeerCertificate();
  if (!cert || Object.keys(cert).length === 0) return notFound;
  if (!socket.authorized) {
    const code = socket.authorizationError instanceof Error ? ((socket.authorizationError as { code?: string }).code ?? socket.authorizationError.message) : String(socket.authorizationError);
    return { error: verifyError(code) };
  }
  return certificateUser(cert);
}

/**
 * The authenticator over the client certificate of a TLS connection the server verified with its
 * client CA bundle (the `ca` of its TLS options). Plain connections have no certificate.
 */
export function x509Authenticator(): RequestAuthenticator {
  const judged = new WeakMap<object, Authentication>();
  return {
    authenticateRequest(req) {
      const socket = req.socket as Partial<TLSSocket>;
      if (typeof socket.getPeerCertificate !== 'function') return notFound;
      let r = judged.get(socket);
      if (r === undefined) {
        r = judge(socket as TLSSocket);
        judged.set(socket, r);
      }
      // A fresh copy: later stages may extend the user they are given.
      return r.user ? { user: { ...r.user, groups: [...r.user.groups] } } : r;
    },
  };
}
