/**
 * Bearer tokens (`request/bearertoken`, `token/union`): the token of an `Authorization: Bearer
 * <token>` header asked of each token authenticator in turn. A header of another scheme, or
 * `Bearer` without a token, is no credential at all (the request may still be anonymous); a token
 * no authenticator knows is `invalid bearer token`, a 401.
 */
import type { Authentication, AuthenticationRequest, RequestAuthenticator, TokenAuthenticator } from './authenticator.ts';
import { notFound } from './authenticator.ts';

/** The token of the Authorization header, as bearertoken.go splits it; undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  const auth = (header ?? '').trim();
  if (auth === '') return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1]!;
  return token === '' ? undefined : token;
}

/**
 * The request authenticator over `tokens`. The list is read at every request, so authenticators
 * appended to it after the server was built (those that need the server's stores) take part.
 */
export function bearerTokenAuthenticator(tokens: readonly TokenAuthenticator[]): RequestAuthenticator {
  return {
    async authenticateRequest(req: AuthenticationRequest): Promise<Authentication> {
      const token = bearerToken(req.headers.authorization);
      if (token === undefined) return notFound;
      const errors: string[] = [];
      for (const t of tokens) {
        try {
          const user = await t.authenticateToken(token);
          if (user) return { user };
        } catch (e) {
          errors.push(e instanceof Error ? e.message : String(e));
        }
      }
      if (errors.length === 0) return { error: 'invalid bearer token' };
      return { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
    },
  };
}
