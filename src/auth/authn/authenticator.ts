/**
 * Authentication as k8s.io/apiserver's `authenticator` package frames it: a request
 * authenticator finds the request's user, finds no credentials it knows (so that the next one may
 * try), or fails (the credentials are there and wrong: a 401, never an anonymous request); a token
 * authenticator answers for a bearer token alone. Other token authenticators (ServiceAccount
 * tokens, ...) plug in through `TokenAuthenticator`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../../registry/index.ts';

/** What authenticators read of a request: its headers and the connection (a TLS socket when served over TLS). */
export interface AuthenticationRequest {
  headers: IncomingHttpHeaders;
  socket: object;
}

/** The user, or no user with the reason credentials were refused (`error`) or none found (no `error`). */
export type Authentication = { user: UserInfo; error?: undefined } | { user?: undefined; error?: string };

/** authenticator.Request. */
export interface RequestAuthenticator {
  authenticateRequest(req: AuthenticationRequest): Authentication | Promise<Authentication>;
}

/**
 * authenticator.Token: the user a bearer token stands for, or null when this authenticator does
 * not know the token. Throwing (or rejecting) reports a token it recognises but refuses (expired,
 * revoked), with the reason as the error's message.
 */
export interface TokenAuthenticator {
  authenticateToken(token: string): Promise<UserInfo | null>;
}

export const anonymousUserName = 'system:anonymous';
export const allUnauthenticated = 'system:unauthenticated';
export const allAuthenticated = 'system:authenticated';

export const notFound: Authentication = {};
