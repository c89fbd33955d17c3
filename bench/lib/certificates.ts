/**
 * cert-manager Certificates (cert-manager.io/v1) for the schema benchmark, in the shapes people
 * write: a plain ACME certificate, a full one with subject, key and usages, a CA, keystores, an mTLS
 * client certificate, and one read back with its status. The invalid variants each break one
 * schema rule (enum, required, type, int32 range, date-time format), as typical mistakes do.
 */
import type { Doc } from './manifests.ts';

function certificate(name: string, spec: Doc, status?: Doc): Doc {
  const o: Doc = {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name, namespace: 'default', labels: { 'app.kubernetes.io/name': name } },
    spec,
  };
  if (status) o.status = status;
  return o;
}

const letsencrypt = { name: 'letsencrypt-prod', kind: 'ClusterIssuer', group: 'cert-manager.io' };

/** Certificates the cert-manager CRD schema accepts. */
export function validCertificates(): Doc[] {
  return [
    certificate('example-com', {
      secretName: 'example-com-tls',
      dnsNames: ['example.com', 'www.example.com'],
      issuerRef: letsencrypt,
    }),
    certificate('example-full', {
      secretName: 'example-com-tls',
      secretTemplate: { annotations: { 'my-secret-annotation-1': 'foo' }, labels: { 'my-secret-label': 'foo' } },
      duration: '2160h',
      renewBefore: '360h',
      subject: { organizations: ['jetstack'], countries: ['GB'], localities: ['London'] },
      commonName: 'example.com',
      isCA: false,
      privateKey: { algorithm: 'RSA', encoding: 'PKCS1', size: 2048, rotationPolicy: 'Always' },
      usages: ['server auth', 'client auth'],
      dnsNames: ['example.com', 'www.example.com'],
      uris: ['spiffe://cluster.local/ns/sandbox/sa/example'],
      ipAddresses: ['192.168.0.5'],
      issuerRef: { name: 'ca-issuer', kind: 'Issuer', group: 'cert-manager.io' },
    }),
    certificate('selfsigned-ca', {
      isCA: true,
      commonName: 'my-selfsigned-ca',
      secretName: 'root-secret',
      privateKey: { algorithm: 'ECDSA', size: 256 },
      issuerRef: { name: 'selfsigned-issuer', kind: 'ClusterIssuer', group: 'cert-manager.io' },
    }),
    certificate('keystores', {
      secretName: 'app-keystores',
      dnsNames: ['app.internal.example.com'],
      keystores: {
        pkcs12: { create: true, passwordSecretRef: { name: 'keystore-password', key: 'password' } },
        jks: { create: true, passwordSecretRef: { name: 'keystore-password', key: 'password' } },
      },
      issuerRef: { name: 'internal-ca', kind: 'Issuer' },
    }),
    certificate('mtls-client', {
      secretName: 'client-tls',
      commonName: 'client.example.com',
      emailAddresses: ['ops@example.com'],
      usages: ['client auth', 'digital signature', 'key encipherment'],
      revisionHistoryLimit: 3,
      additionalOutputFormats: [{ type: 'CombinedPEM' }, { type: 'DER' }],
      privateKey: { algorithm: 'Ed25519', encoding: 'PKCS8' },
      issuerRef: { name: 'internal-ca', kind: 'Issuer' },
    }),
    certificate(
      'example-com-ready',
      { secretName: 'example-com-tls', dnsNames: ['example.com'], issuerRef: letsencrypt },
      {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'Ready',
            message: 'Certificate is up to date and has not expired',
            lastTransitionTime: '2025-03-01T10:00:00Z',
            observedGeneration: 1,
          },
        ],
        notBefore: '2025-03-01T09:00:00Z',
        notAfter: '2025-05-30T09:00:00Z',
        renewalTime: '2025-04-30T09:00:00Z',
        revision: 1,
      },
    ),
  ];
}

/** Certificates the schema rejects, each for one reason. */
export function invalidCertificates(): Doc[] {
  return [
    // a usage spelled as in openssl, not in the enum
    certificate('bad-usage', { secretName: 's', dnsNames: ['a.example.com'], usages: ['serverAuth'], issuerRef: letsencrypt }),
    // secretName is required
    certificate('no-secret', { dnsNames: ['a.example.com'], issuerRef: letsencrypt }),
    // a quoted key size
    certificate('string-size', { secretName: 's', dnsNames: ['a.example.com'], privateKey: { algorithm: 'RSA', size: '4096' }, issuerRef: letsencrypt }),
    // beyond int32
    certificate('huge-history', { secretName: 's', dnsNames: ['a.example.com'], revisionHistoryLimit: 2 ** 40, issuerRef: letsencrypt }),
    // issuerRef.name is required, and PFX is not an output format
    certificate('bad-ref', { secretName: 's', commonName: 'x', additionalOutputFormats: [{ type: 'PFX' }], issuerRef: { kind: 'Issuer' } }),
    // a status time that is not RFC 3339
    certificate(
      'bad-status-time',
      { secretName: 's', dnsNames: ['a.example.com'], issuerRef: letsencrypt },
      { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: 'yesterday' }], notAfter: '2025-05-30 09:00' },
    ),
  ];
}
