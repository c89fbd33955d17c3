/**
 * The auth layer's public face: authentication (client certificates, bearer tokens, the token
 * file, anonymous requests), authorization (the privileged-groups and RBAC authorizers, their
 * union, the 403 texts), impersonation, and RBAC's objects as the authorizer reads them (the
 * watch-fed cache, the bootstrap policy reconciled at start), and ServiceAccount tokens (their
 * issuer, keys and authenticator).
 */
export {
  forbiddenMessage,
  privilegedGroups,
  systemPrivilegedGroup,
  unionAuthorizer,
  type AuthorizationAttributes,
  type AuthorizationResult,
  type Authorizer,
  type Decision,
} from './authorizer.ts';
export { impersonatedUser } from './impersonation.ts';
export { rbacAuthorizer, rbacRulesFor } from './rbac/authorizer.ts';
export { RBACCache, type RBACStores } from './rbac/cache.ts';
export { confirmNoEscalation, rbacEscalationChecks, rulesFor } from './rbac/escalation.ts';
export { breakdownRule, compactRules, compactString, covers, nonResourceURLCovers } from './rbac/covers.ts';
export { bootstrapPolicy, reconcileBootstrapPolicy } from './rbac/bootstrap.ts';
export {
  allAuthenticated,
  allUnauthenticated,
  anonymousUserName,
  newRequestAuthenticator,
  readTokenFile,
  tokenFileAuthenticator,
  type Authentication,
  type AuthenticationOptions,
  type AuthenticationRequest,
  type RequestAuthenticator,
  type TokenAuthenticator,
} from './authn/index.ts';
export * from './serviceaccount/index.ts';
