/**
 * Combining authenticators as kube-apiserver's chain does (`request/union`, `request/group`):
 * the first user any of them finds wins, the errors of the others only matter when none finds
 * one; `system:authenticated` is added to every authenticated user; and anonymous requests
 * (`union.NewFailOnError`) are allowed only when no authenticator failed, so that a bad token or
 * an untrusted certificate is a 401 rather than an anonymous request.
 */
import type { Authentication, AuthenticationRequest, RequestAuthenticator } from './authenticator.ts';
import { allAuthenticated, allUnauthenticated, anonymousUserName, notFound } from './authenticator.ts';

/** union.New: each in turn until one finds the user; else the failures, joined, or nothing found. */
export function unionAuthenticator(...authenticators: RequestAuthenticator[]): RequestAuthenticator {
  return {
    async authenticateRequest(req: AuthenticationRequest): Promise<Authentication> {
      const errors: string[] = [];
      for (const a of authenticators) {
        const r = await a.authenticateRequest(req);
        if (r.user) return r;
        if (r.error !== undefined) errors.push(r.error);
      }
      return errors.length === 0 ? notFound : { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
    },
  };
}

/** group.NewAuthenticatedGroupAdder: `system:authenticated` for every user but the anonymous one. */
export function authenticatedGroupAdder(inner: RequestAuthenticator): RequestAuthenticator {
  return {
    async authenticateRequest(req) {
      const r = await inner.authenticateRequest(req);
      const u = r.user;
      if (!u || u.username === anonymousUserName || u.groups.includes(allAuthenticated) || u.groups.includes(allUnauthenticated)) return r;
      return { user: { ...u, groups: [...u.groups, allAuthenticated] } };
    },
  };
}

/** union.NewFailOnError: `fallback` only when `first` found nothing and failed nowhere. */
export function failOnError(first: RequestAuthenticator, fallback: RequestAuthenticator): RequestAuthenticator {
  return {
    async authenticateRequest(req) {
      const r = await first.authenticateRequest(req);
      if (r.user || r.error !== undefined) return r;
      return fallback.authenticateRequest(req);
    },
  };
}
