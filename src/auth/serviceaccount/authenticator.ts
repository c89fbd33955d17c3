/**
 * The ServiceAccount token authenticator (pkg/serviceaccount/jwt.go's jwtTokenAuthenticator, for
 * the bound issuers and the legacy one): a token whose unverified issuer is not one of ours is
 * none of its business (null, so that other authenticators may try); one that is must verify with
 * one of the public keys, name an accepted issuer, share an audience with the request's, and pass
 * the claims' validator — else it throws TokenInvalid with upstream's text.
 */
import type { KeyObject } from 'node:crypto';
import type { UserInfo } from '../../registry/index.ts';
import { keyID, parseJWT, unverifiedIssuer, verifyWith } from './jwt.ts';
import { legacyIssuer, TokenInvalid, userInfoOf, validateBound, validateLegacy, type ServiceAccountTokenGetter } from './claims.ts';

export interface ServiceAccountAuthenticatorOptions {
  /** --service-account-issuer values: the first signs, all are accepted. */
  issuers: readonly string[];
  publicKeys: readonly KeyObject[];
  /** The API server's audiences, used when the token or the request names none. */
  apiAudiences: readonly string[];
  getter: ServiceAccountTokenGetter;
  /** Accept Secret-based tokens (issuer `kubernetes/serviceaccount`); default true. */
  legacy?: boolean;
  /** --service-account-lookup: check a Secret-based token against its Secret and ServiceAccount (default true). */
  lookup?: boolean;
  /** The clock, in seconds since the epoch (tests). */
  now?: () => number;
}

/** authenticator.Response: the user, and the audiences the token is good for. */
export interface TokenAuthentication {
  user: UserInfo;
  audiences: string[];
}

/** A token authenticator of the chain's shape (authn's TokenAuthenticator), with the audiences a TokenReview asks about. */
export interface ServiceAccountTokenAuthenticator {
  /** The token's user for the API server's audiences; null when the token is not ours; throws TokenInvalid when it is but fails. */
  authenticateToken(token: string): Promise<UserInfo | null>;
  /** The same for the given audiences (a TokenReview's spec.audiences), with the audiences it is good for. */
  authenticate(token: string, audiences?: readonly string[]): Promise<TokenAuthentication | null>;
}

/** aggregate's Error(): one message alone, several in brackets. */
function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

/** Go's %q of a []string: ["a" "b"]. */
const quotedList = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

export function serviceAccountTokenAuthenticator(o: ServiceAccountAuthenticatorOptions): ServiceAccountTokenAuthenticator {
  const bound = new Set(o.issuers);
  const legacy = o.legacy !== false;
  const now = o.now ?? (() => Math.floor(Date.now() / 1000));
  const keys = o.publicKeys.map((k) => ({ kid: keyID(k), key: k }));
  const authenticate = async (token: string, requested?: readonly string[]): Promise<TokenAuthentication | null> => {
    const iss = unverifiedIssuer(token);
    const isLegacy = legacy && iss === legacyIssuer;
    if (iss === undefined || (!bound.has(iss) && !isLegacy)) return null;
    const jwt = parseJWT(token);
    if (!jwt) return null;
    // Keys of the token's kid first; all of them when none matches (tokens of keys without one).
    const kid = typeof jwt.header.kid === 'string' ? jwt.header.kid : '';
    const byKid = keys.filter((k) => k.kid === kid);
    const errs: string[] = [];
    let verified = false;
    for (const k of byKid.length > 0 ? byKid : keys) {
      const e = verifyWith(jwt, k.key);
      if (e === undefined) {
        verified = true;
        break;
      }
      errs.push(e);
    }
    // No key to try is no opinion (an empty aggregate is no error upstream).
    if (!verified && errs.length === 0) return null;
    if (!verified) throw new TokenInvalid(aggregate(errs));
    const claims = jwt.payload;
    const issuer = typeof claims.iss === 'string' ? claims.iss : '';
    if (isLegacy ? issuer !== legacyIssuer : !bound.has(issuer)) throw new TokenInvalid(`token issuer ${JSON.stringify(issuer)} is invalid`);
    const aud = claims.aud;
    let tokenAudiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
    // Only the API server's audiences are allowed for tokens without any (legacy tokens).
    if (tokenAudiences.length === 0) tokenAudiences = [...o.apiAudiences];
    const want = requested && requested.length > 0 ? requested : o.apiAudiences;
    const auds = tokenAudiences.filter((a) => want.includes(a));
    if (auds.length === 0 && o.apiAudiences.length !== 0) {
      throw new TokenInvalid(`token audiences ${quotedList(tokenAudiences)} is invalid for the target audiences ${quotedList(want)}`);
    }
    const info = isLegacy ? await validateLegacy(token, claims, o.getter, o.lookup !== false) : await validateBound(claims, o.getter, now());
    return { user: userInfoOf(info), audiences: auds };
  };
  return {
    authenticate,
    async authenticateToken(token) {
      return (await authenticate(token))?.user ?? null;
    },
  };
}
