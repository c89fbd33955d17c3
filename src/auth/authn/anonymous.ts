/**
 * Anonymous requests (`request/anonymous`): a request with no credentials any authenticator
 * knows is `system:anonymous` in `system:unauthenticated`, reaching what RBAC grants that group
 * (the bootstrap policy's `system:public-info-viewer`: /version, /healthz, /readyz, /livez).
 */
import { allUnauthenticated, anonymousUserName, type RequestAuthenticator } from './authenticator.ts';

/** A fresh user per request, since later stages may extend what they are given. */
export const anonymousAuthenticator: RequestAuthenticator = {
  authenticateRequest: () => ({ user: { username: anonymousUserName, groups: [allUnauthenticated] } }),
};
