/**
 * The request authenticator kube-apiserver builds from its flags
 * (`pkg/kubeapiserver/authenticator/config.go`): client certificates, then bearer tokens (the
 * token file's, then any other token authenticator given), `system:authenticated` added to whom
 * they find, and, with anonymous auth on (`--anonymous-auth`, the default), `system:anonymous`
 * for a request that carries no credential any of them knows and none that failed.
 */
import type { RequestAuthenticator, TokenAuthenticator } from './authenticator.ts';
import { anonymousAuthenticator } from './anonymous.ts';
import { bearerTokenAuthenticator } from './bearertoken.ts';
import { authenticatedGroupAdder, failOnError, unionAuthenticator } from './union.ts';
import { x509Authenticator } from './x509.ts';

export interface AuthenticationOptions {
  /** Authenticate the client certificates the TLS handshake verified (the server has a client CA). */
  clientCertificates?: boolean;
  /** Token authenticators, asked in order; appended to after start-up by those that need the server's stores. */
  tokenAuthenticators?: TokenAuthenticator[];
  /** Let requests without credentials in as `system:anonymous` (default true, as `--anonymous-auth`). */
  anonymous?: boolean;
}

/** The chain for `options`; `tokens` is the live list the bearer authenticator reads at each request. */
export function newRequestAuthenticator(options: AuthenticationOptions, tokens: readonly TokenAuthenticator[]): RequestAuthenticator {
  const chain: RequestAuthenticator[] = [];
  if (options.clientCertificates) chain.push(x509Authenticator());
  chain.push(bearerTokenAuthenticator(tokens));
  const authenticated = authenticatedGroupAdder(unionAuthenticator(...chain));
  return options.anonymous === false ? authenticated : failOnError(authenticated, anonymousAuthenticator);
}
