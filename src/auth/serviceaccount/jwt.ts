/**
 * Compact JWS tokens as ServiceAccount tokens use them (pkg/serviceaccount/jwt.go over go-jose):
 * RS256 with RSA keys, ES256/ES384/ES512 with ECDSA keys, a `kid` header computed from the public
 * key as upstream computes it, and claims serialized with sorted keys (go-jose normalizes claims
 * through a map, so real tokens carry them in name order). Verification only parses and checks
 * signatures; what the claims mean is claims.ts's business.
 */
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/** The JWS algorithm a key signs with (upstream's signerFromRSAPrivateKey / signerFromECDSAPrivateKey). */
export function algorithmOf(key: KeyObject): 'RS256' | 'ES256' | 'ES384' | 'ES512' {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    throw new Error(`unknown private key curve, must be 256, 384, or 521`);
  }
  throw new Error(`unknown private key type ${key.asymmetricKeyType}, must be *rsa.PrivateKey, *ecdsa.PrivateKey, or jose.OpaqueSigner`);
}

const hashOf: Record<string, string> = { RS256: 'sha256', ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' };

/** keyIDFromPublicKey: base64url(sha256(PKIX DER of the public key)), no padding. */
export function keyID(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

/** JSON with every object's keys in name order, as encoding/json writes a map. */
export function sortedJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJSON).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${sortedJSON(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Signs `claims` with `privateKey`: header `{alg, kid}`, the claims in name order. */
export function signJWT(privateKey: KeyObject, claims: Record<string, unknown>): string {
  const alg = algorithmOf(privateKey);
  const header = Buffer.from(JSON.stringify({ alg, kid: keyID(createPublicKey(privateKey)) })).toString('base64url');
  const payload = Buffer.from(sortedJSON(claims)).toString('base64url');
  const input = `${header}.${payload}`;
  const sig = sign(hashOf[alg]!, Buffer.from(input), alg === 'RS256' ? privateKey : { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}

/** A token split and decoded, not yet verified. */
export interface ParsedJWT {
  header: { alg?: unknown; kid?: unknown };
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

const base64url = /^[A-Za-z0-9_-]*$/;

function decodeJSON(part: string): Record<string, unknown> | undefined {
  if (!base64url.test(part)) return undefined;
  try {
    const v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The unverified issuer of a compact token (hasCorrectIssuer): undefined for anything that is
 * not three dot-separated parts with a JSON payload, and for JSON serializations.
 */
export function unverifiedIssuer(token: string): string | undefined {
  if (token.trim().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const payload = decodeJSON(parts[1]!);
  return payload && typeof payload.iss === 'string' ? payload.iss : undefined;
}

/** jwt.ParseSigned: undefined when the token is not a well-formed compact JWS of a supported algorithm. */
export function parseJWT(token: string): ParsedJWT | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const header = decodeJSON(parts[0]!);
  const payload = decodeJSON(parts[1]!);
  if (!header || !payload || !base64url.test(parts[2]!)) return undefined;
  if (typeof header.alg !== 'string' || !(header.alg in hashOf)) return undefined;
  return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2]!, 'base64url') };
}

/** go-jose's failures, as their texts read. */
export const errCryptoFailure = 'go-jose/go-jose: error in cryptographic primitive';
export const errUnsupportedKeyType = 'go-jose/go-jose: unsupported key type/format';

/** Checks the signature with one public key; the go-jose error text when it does not verify. */
export function verifyWith(jwt: ParsedJWT, publicKey: KeyObject): string | undefined {
  const alg = jwt.header.alg as string;
  const wantType = alg === 'RS256' ? 'rsa' : 'ec';
  if (publicKey.asymmetricKeyType !== wantType) return errUnsupportedKeyType;
  try {
    const ok = verify(hashOf[alg]!, Buffer.from(jwt.signingInput), alg === 'RS256' ? publicKey : { key: publicKey, dsaEncoding: 'ieee-p1363' }, jwt.signature);
    return ok ? undefined : errCryptoFailure;
  } catch {
    return errCryptoFailure;
  }
}
