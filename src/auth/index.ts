/**
 * The auth layer's public face: authorization (the privileged-groups and RBAC authorizers, their
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
export { bootstrapPolicy, reconcileBootstrapPolicy } from './rbac/bootstrap.ts';
export * from './serviceaccount/index.ts';
