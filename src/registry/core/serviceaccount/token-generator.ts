/**
 * What the registry asks of the ServiceAccount token issuer (serviceaccount.TokenGenerator and the
 * issuer's settings): the TokenRequest subresource and the tokens controller sign through it. The
 * keys and the token format belong to the auth layer, which implements this; the composition root
 * hands it to the registry.
 */

/** A bound object a token names. */
export interface TokenBoundRef {
  name: string;
  uid: string;
}

export interface BoundTokenRequest {
  serviceAccount: { namespace: string; name: string; uid: string };
  pod?: TokenBoundRef;
  secret?: TokenBoundRef;
  node?: TokenBoundRef;
  audiences: readonly string[];
  /** The token's real lifetime (the requested one, or the extension for pod tokens). */
  expirationSeconds: number;
  /** When the token turns stale before it expires (extended pod tokens), in seconds from now. */
  warnAfterSeconds?: number;
  /** Seconds since the epoch the token is issued at. */
  now: number;
}

export interface TokenGenerator {
  /** The API server's audiences (--api-audiences; default: the issuer). */
  readonly apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; 0 for none. */
  readonly maxExpirationSeconds: number;
  /** --service-account-extend-token-expiration: pod tokens of 3607 s live a year, warning after 3607 s. */
  readonly extendExpiration: boolean;
  /** How long an extended token lives, in seconds. */
  readonly maxExtendedExpirationSeconds: number;
  generateToken(r: BoundTokenRequest): string;
  /** A Secret-based token for the tokens controller (legacy claims, issuer `kubernetes/serviceaccount`). */
  generateLegacyToken(sa: { namespace: string; name: string; uid: string }, secretName: string): string;
}
