// The data directory's own CA certificate: OpenSSL must read every one made. Its serial is 16
// random bytes, and one starting with a zero byte before a byte < 0x80 was once written with a
// redundant leading zero, which OpenSSL refuses (`illegal padding`), about one start in 512.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { selfSignedCA } from './root-ca.ts';

test('every self-signed CA certificate parses, whatever its random serial', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 3000; i++) {
    const { cert } = selfSignedCA('crd-apiserver-root-ca');
    const x = new X509Certificate(cert);
    assert.equal(x.ca, true);
    assert.equal(x.subject, 'CN=crd-apiserver-root-ca');
    // The serial is printed as hex; it never starts with a padding zero byte before a low byte.
    assert.ok(!/^00[0-7]/i.test(x.serialNumber), x.serialNumber);
    seen.add(x.serialNumber);
  }
  assert.equal(seen.size, 3000);
});
