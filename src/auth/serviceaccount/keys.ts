/**
 * The ServiceAccount token keys: the signing key (--service-account-signing-key-file, else the
 * data directory's own, made at first start with mode 0600) and the public keys tokens are
 * verified with (--service-account-key-file: PEM public or private keys, or certificates, as
 * keyutil.ParsePublicKeysPEM reads them; else the signing key's public half).
 */
import { createPrivateKey, createPublicKey, generateKeyPair, X509Certificate, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** The file under the data directory that holds the generated signing key. */
export const signingKeyFileName = 'service-account.key';

const pemBlock = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** Every PEM block of `data`, with its type. */
function pemBlocks(data: string): Array<{ type: string; pem: string }> {
  return [...data.matchAll(pemBlock)].map((m) => ({ type: m[1]!, pem: m[0] }));
}

/** ParsePrivateKeyPEM: the first RSA or ECDSA private key of the file. */
export function parsePrivateKeyPEM(data: string): KeyObject {
  for (const b of pemBlocks(data)) {
    if (b.type !== 'PRIVATE KEY' && b.type !== 'RSA PRIVATE KEY' && b.type !== 'EC PRIVATE KEY') continue;
    try {
      const k = createPrivateKey(b.pem);
      if (k.asymmetricKeyType === 'rsa' || k.asymmetricKeyType === 'ec') return k;
    } catch {
      // not a key of these kinds: go on to the next block
    }
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

/** ParsePublicKeysPEM: every RSA or ECDSA public key the file holds (private keys and certificates give theirs). */
export function parsePublicKeysPEM(data: string): KeyObject[] {
  const out: KeyObject[] = [];
  for (const b of pemBlocks(data)) {
    try {
      let k: KeyObject | undefined;
      if (b.type === 'CERTIFICATE') k = new X509Certificate(b.pem).publicKey;
      else if (b.type === 'PUBLIC KEY' || b.type === 'RSA PUBLIC KEY') k = createPublicKey(b.pem);
      else if (b.type === 'PRIVATE KEY' || b.type === 'RSA PRIVATE KEY' || b.type === 'EC PRIVATE KEY') k = createPublicKey(createPrivateKey(b.pem));
      if (k && (k.asymmetricKeyType === 'rsa' || k.asymmetricKeyType === 'ec')) out.push(k);
    } catch {
      // blocks that are not keys are skipped, as upstream skips them
    }
  }
  if (out.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return out;
}

/** Reads the signing key file (`failed to parse service-account-issuer-key-file: ...` as kube-apiserver reports it). */
export function readSigningKeyFile(file: string): KeyObject {
  try {
    return parsePrivateKeyPEM(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`failed to parse service-account-issuer-key-file: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Reads the public keys of the --service-account-key-file files. */
export function readPublicKeyFiles(files: readonly string[]): KeyObject[] {
  return files.flatMap((f) => {
    try {
      return parsePublicKeysPEM(readFileSync(f, 'utf8'));
    } catch (e) {
      throw new Error(`failed to parse key file ${JSON.stringify(f)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
}

/** The data directory's signing key, generated (RSA 2048, PKCS#1 PEM, mode 0600) when missing. */
export async function dataDirSigningKey(dataDir: string): Promise<KeyObject> {
  const file = join(dataDir, signingKeyFileName);
  if (!existsSync(file)) {
    const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
    writeFileSync(file, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  }
  // Kept private even when an older file was made with a looser mode.
  chmodSync(file, 0o600);
  return readSigningKeyFile(file);
}
