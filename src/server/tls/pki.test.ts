/**
 * The data directory's certificates: made once with keys only the owner reads, reused on later
 * starts, the serving certificate issued again when its names change or it nears expiry, and
 * everything again when the CA is gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServerPKI, pkiFiles } from './pki.ts';
import { servingNames } from './serving-names.ts';

test('first start makes a CA, a serving and an admin certificate; later starts reuse them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pki-'));
  try {
    const sans = servingNames('127.0.0.1', ['api.example.com', '10.1.2.3']);
    const first = await ensureServerPKI(dir, sans);
    assert.deepEqual(first.issued.sort(), ['admin', 'ca', 'serving']);
    const f = pkiFiles(dir);
    for (const k of [f.caKey, f.servingKey, f.adminKey]) assert.equal(statSync(k).mode & 0o777, 0o600, k);
    const ca = new X509Certificate(first.ca);
    assert.ok(ca.ca);
    const serving = new X509Certificate(first.servingCert);
    assert.ok(serving.checkIssued(ca) && serving.verify(ca.publicKey));
    for (const n of ['DNS:localhost', 'DNS:kubernetes.default.svc', 'DNS:api.example.com', 'IP Address:127.0.0.1', 'IP Address:0:0:0:0:0:0:0:1', 'IP Address:10.1.2.3']) {
      assert.ok(serving.subjectAltName!.split(', ').includes(n), `${n} in ${serving.subjectAltName}`);
    }
    assert.equal(serving.keyUsage?.includes('1.3.6.1.5.5.7.3.1'), true, 'serverAuth');
    const admin = new X509Certificate(first.adminCert);
    assert.match(admin.subject, /^O=system:masters\nCN=kubernetes-admin$/);
    assert.equal(admin.keyUsage?.includes('1.3.6.1.5.5.7.3.2'), true, 'clientAuth');

    const again = await ensureServerPKI(dir, sans);
    assert.deepEqual(again.issued, []);
    assert.equal(again.servingCert, first.servingCert);

    const renamed = await ensureServerPKI(dir, servingNames('127.0.0.1', ['other.example.com']));
    assert.deepEqual(renamed.issued, ['serving']);
    assert.equal(renamed.ca, first.ca);
    assert.equal(renamed.adminCert, first.adminCert);
    assert.ok(new X509Certificate(renamed.servingCert).subjectAltName!.includes('DNS:other.example.com'));

    // 340 days on, the leaves (a year) are within 30 days of expiry; the CA (ten years) is not.
    const later = await ensureServerPKI(dir, servingNames('127.0.0.1', ['other.example.com']), Date.now() + 340 * 86400_000);
    assert.deepEqual(later.issued.sort(), ['admin', 'serving']);
    assert.equal(later.ca, first.ca);

    rmSync(f.caKey);
    const fresh = await ensureServerPKI(dir, sans);
    assert.deepEqual(fresh.issued.sort(), ['admin', 'ca', 'serving']);
    assert.notEqual(fresh.ca, first.ca);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serving names: loopback, the kubernetes Service names, the listen host and extras, once each', () => {
  assert.deepEqual(servingNames('127.0.0.1', ['localhost', 'x.example.com']), [
    'DNS:localhost',
    'DNS:kubernetes',
    'DNS:kubernetes.default',
    'DNS:kubernetes.default.svc',
    'DNS:kubernetes.default.svc.cluster.local',
    'IP:127.0.0.1',
    'IP:::1',
    'DNS:x.example.com',
  ]);
  assert.ok(servingNames('192.0.2.7').includes('IP:192.0.2.7'));
  assert.ok(servingNames('api.internal').includes('DNS:api.internal'));
});
