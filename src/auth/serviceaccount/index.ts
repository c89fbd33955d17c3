/**
 * ServiceAccount tokens: their keys, claims and signing, the issuer the server is configured with,
 * and the token authenticator the authentication chain runs.
 */
export { ServiceAccountTokens, defaultIssuer, ephemeralServiceAccountTokens, storeTokenGetter, type ServiceAccountTokenOptions } from './issuer.ts';
export { serviceAccountTokenAuthenticator, type ServiceAccountAuthenticatorOptions, type TokenAuthentication, type ServiceAccountTokenAuthenticator } from './authenticator.ts';
export { TokenInvalid, makeUsername, makeGroupNames, warnOnlyBoundTokenExpirationSeconds, type ServiceAccountTokenGetter } from './claims.ts';
export { dataDirSigningKey, readPublicKeyFiles, readSigningKeyFile, signingKeyFileName } from './keys.ts';
export { checkServiceAccountFlags, defaultServiceAccountFlags, serviceAccountTokensFromFlags, type ServiceAccountFlags } from './options.ts';
export { rootCABundle, selfSignedCA } from './root-ca.ts';
