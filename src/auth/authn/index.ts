/**
 * Authentication's public face: the request and token authenticator interfaces, the chain
 * kube-apiserver builds (client certificates, bearer tokens, anonymous), and the token file.
 */
export {
  allAuthenticated,
  allUnauthenticated,
  anonymousUserName,
  type Authentication,
  type AuthenticationRequest,
  type RequestAuthenticator,
  type TokenAuthenticator,
} from './authenticator.ts';
export { newRequestAuthenticator, type AuthenticationOptions } from './chain.ts';
export { bearerToken } from './bearertoken.ts';
export { parseTokenFile, readTokenFile, tokenFileAuthenticator } from './tokenfile.ts';
export { certificateUser, credentialIDKey } from './x509.ts';
