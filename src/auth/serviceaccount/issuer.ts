/**
 * The ServiceAccount token issuer as the server is configured with it (kube-apiserver's
 * --service-account-* flags): the signing key, the issuers, the public keys, the API audiences and
 * the expiration limits. It gives the registry its TokenGenerator (TokenRequest, the tokens
 * controller) and builds the authenticator over the objects the validators read.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { RESTStore, TokenGenerator } from '../../registry/index.ts';
import { boundClaims, expirationExtensionSeconds, legacyClaims, type ServiceAccountTokenGetter } from './claims.ts';
import { signJWT } from './jwt.ts';
import { serviceAccountTokenAuthenticator, type ServiceAccountTokenAuthenticator } from './authenticator.ts';

/** kube-apiserver's --service-account-issuer default here: the in-cluster name of the API server. */
export const defaultIssuer = 'https://kubernetes.default.svc.cluster.local';

export interface ServiceAccountTokenOptions {
  signingKey: KeyObject;
  /** --service-account-issuer (default [defaultIssuer]); the first is written into tokens. */
  issuers?: readonly string[];
  /** --service-account-key-file keys (default: the signing key's public key). */
  publicKeys?: readonly KeyObject[];
  /** --api-audiences (default: the first issuer). */
  apiAudiences?: readonly string[];
  /** --service-account-max-token-expiration in seconds (0: none). */
  maxExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true). */
  extendExpiration?: boolean;
}

/** The lookups the validators make, over the served stores (`find` gives the core/v1 store of a resource). */
export function storeTokenGetter(find: (resource: string) => RESTStore | undefined): ServiceAccountTokenGetter {
  const get = (resource: string, ns: string | undefined, name: string) => {
    const s = find(resource);
    if (!s) throw new Error(`${resource} are not served`);
    return s.get(ns, name);
  };
  return {
    getServiceAccount: (ns, name) => get('serviceaccounts', ns, name),
    getPod: (ns, name) => get('pods', ns, name),
    getSecret: (ns, name) => get('secrets', ns, name),
    getNode: (name) => get('nodes', undefined, name),
  };
}

export class ServiceAccountTokens {
  readonly issuers: readonly string[];
  readonly publicKeys: readonly KeyObject[];
  readonly generator: TokenGenerator;

  constructor(readonly options: ServiceAccountTokenOptions) {
    this.issuers = options.issuers && options.issuers.length > 0 ? options.issuers : [defaultIssuer];
    this.publicKeys = options.publicKeys && options.publicKeys.length > 0 ? options.publicKeys : [createPublicKey(options.signingKey)];
    const issuer = this.issuers[0]!;
    const key = options.signingKey;
    this.generator = {
      apiAudiences: options.apiAudiences && options.apiAudiences.length > 0 ? options.apiAudiences : [issuer],
      maxExpirationSeconds: options.maxExpirationSeconds ?? 0,
      extendExpiration: options.extendExpiration !== false,
      maxExtendedExpirationSeconds: expirationExtensionSeconds,
      generateToken: (r) => signJWT(key, boundClaims({ issuer, ...r })),
      generateLegacyToken: (sa, secretName) => signJWT(key, legacyClaims(sa, secretName)),
    };
  }

  /** The authenticator of these tokens, reading ServiceAccounts, Pods, Secrets and Nodes through `getter`. */
  authenticator(getter: ServiceAccountTokenGetter): ServiceAccountTokenAuthenticator {
    return serviceAccountTokenAuthenticator({ issuers: this.issuers, publicKeys: this.publicKeys, apiAudiences: this.generator.apiAudiences, getter });
  }
}

/** Tokens signed with a key made for this process only (servers built without a configured key: tests, embedding). */
export function ephemeralServiceAccountTokens(): ServiceAccountTokens {
  return new ServiceAccountTokens({ signingKey: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey });
}
