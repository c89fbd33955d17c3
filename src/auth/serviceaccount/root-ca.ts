/**
 * The CA bundle pods are given to verify the API server with (kube-controller-manager's
 * --root-ca-file, published as kube-root-ca.crt and written into token Secrets): the named file,
 * else the data directory's `ca.crt` (the serving CA, where one is kept there), else a self-signed
 * CA certificate made once for the data directory, so that pods' projected volumes have a bundle
 * to mount even while the server serves plain HTTP.
 */
import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The data directory's own CA files, made when no other CA is found. */
export const fallbackCAFiles = { cert: 'root-ca.crt', key: 'root-ca.key' };

function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  const len = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, body]);
}
const seq = (...c: Buffer[]) => der(0x30, ...c);
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const v of rest) {
    const enc = [v & 0x7f];
    for (let x = v >> 7; x > 0; x >>= 7) enc.unshift((x & 0x7f) | 0x80);
    bytes.push(...enc);
  }
  return der(0x06, Buffer.from(bytes));
}
/** A non-negative INTEGER from big-endian bytes, in DER's minimal form (OpenSSL refuses a redundant leading zero: `illegal padding`). */
function integer(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0 && !(b[i + 1]! & 0x80)) i++;
  const v = b.subarray(i);
  return der(0x02, v[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
}
const utcTime = (d: Date) => der(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z'));
const name = (cn: string) => seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from(cn)))));

/** A self-signed CA certificate (ECDSA P-256, ten years) for `cn`, as PEM, with its key. */
export function selfSignedCA(cn: string, now = new Date()): { cert: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaWithSHA256 = seq(oid('1.2.840.10045.4.3.2'));
  const notAfter = new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const basicConstraints = seq(oid('2.5.29.19'), der(0x01, Buffer.from([0xff])), der(0x04, seq(der(0x01, Buffer.from([0xff])))));
  // digitalSignature, keyEncipherment, keyCertSign
  const keyUsage = seq(oid('2.5.29.15'), der(0x01, Buffer.from([0xff])), der(0x04, der(0x03, Buffer.from([0x02, 0xa4]))));
  const tbs = seq(
    der(0xa0, integer(Buffer.from([2]))),
    integer(randomBytes(16)),
    ecdsaWithSHA256,
    name(cn),
    seq(utcTime(now), utcTime(notAfter)),
    name(cn),
    publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, seq(basicConstraints, keyUsage)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const cert = seq(tbs, ecdsaWithSHA256, der(0x03, Buffer.from([0]), signature));
  const b64 = cert.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return { cert: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`, key: privateKey.export({ type: 'sec1', format: 'pem' }) as string };
}

/** Reads a CA bundle, checking that its first block is a certificate. */
function readBundle(file: string): string {
  const pem = readFileSync(file, 'utf8');
  try {
    new X509Certificate(pem);
  } catch (e) {
    throw new Error(`error reading root-ca-file at ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return pem;
}

/** The root CA bundle: `file` when given, else the data directory's ca.crt, else its own generated CA. */
export function rootCABundle(dataDir: string, file?: string): string {
  if (file !== undefined) return readBundle(file);
  const serving = join(dataDir, 'ca.crt');
  if (existsSync(serving)) return readBundle(serving);
  const own = join(dataDir, fallbackCAFiles.cert);
  if (!existsSync(own)) {
    const ca = selfSignedCA('crd-apiserver-root-ca');
    writeFileSync(join(dataDir, fallbackCAFiles.key), ca.key, { mode: 0o600 });
    writeFileSync(own, ca.cert, { mode: 0o644 });
  }
  return readBundle(own);
}
