/**
 * kube-apiserver's ServiceAccount token flags, checked and turned into the issuer the server
 * runs with: --service-account-issuer (repeatable; the first signs), --service-account-key-file
 * (repeatable), --service-account-signing-key-file (default: the data directory's key, made at
 * first start), --service-account-max-token-expiration, --service-account-extend-token-expiration
 * and --api-audiences. Errors read as kube-apiserver's.
 */
import { createPublicKey } from 'node:crypto';
import { dataDirSigningKey, readPublicKeyFiles, readSigningKeyFile } from './keys.ts';
import { ServiceAccountTokens } from './issuer.ts';

export interface ServiceAccountFlags {
  issuers: string[];
  keyFiles: string[];
  signingKeyFile?: string;
  /** Seconds; 0 for none. */
  maxTokenExpirationSeconds: number;
  extendTokenExpiration: boolean;
  apiAudiences: string[];
}

export const defaultServiceAccountFlags = (): ServiceAccountFlags => ({ issuers: [], keyFiles: [], maxTokenExpirationSeconds: 0, extendTokenExpiration: true, apiAudiences: [] });

/** ServiceAccountAuthenticationOptions.Validate: the issuers and the expiration bound. */
export function checkServiceAccountFlags(f: ServiceAccountFlags): void {
  const seen = new Set<string>();
  for (const iss of f.issuers) {
    if (iss.includes(':')) {
      try {
        new URL(iss);
      } catch (e) {
        throw new Error(`service-account-issuer ${JSON.stringify(iss)} contained a ':' but was not a valid URL: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (seen.has(iss)) throw new Error(`service-account-issuer ${JSON.stringify(iss)} is already specified`);
    seen.add(iss);
  }
  const s = f.maxTokenExpirationSeconds;
  if (s !== 0 && (s < 3600 || s > 2 ** 32)) throw new Error('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
}

/** The issuer the flags describe, with the data directory's key when no signing key file is named. */
export async function serviceAccountTokensFromFlags(dataDir: string, f: ServiceAccountFlags): Promise<ServiceAccountTokens> {
  const signingKey = f.signingKeyFile !== undefined ? readSigningKeyFile(f.signingKeyFile) : await dataDirSigningKey(dataDir);
  // Without key files the signing key verifies; with them, the files' keys do (as upstream).
  const publicKeys = f.keyFiles.length > 0 ? readPublicKeyFiles(f.keyFiles) : [createPublicKey(signingKey)];
  return new ServiceAccountTokens({
    signingKey,
    issuers: f.issuers,
    publicKeys,
    apiAudiences: f.apiAudiences,
    maxExpirationSeconds: f.maxTokenExpirationSeconds,
    extendExpiration: f.extendTokenExpiration,
  });
}
