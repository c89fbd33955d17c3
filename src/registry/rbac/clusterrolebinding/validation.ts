/**
 * ClusterRoleBinding's native rules (pkg/apis/rbac/validation ValidateClusterRoleBinding[Update]):
 * a ClusterRole only, service accounts with their namespace, a roleRef that never changes.
 */
import type { NativeRules } from '../../builtin/native.ts';
import { validateBinding, validateBindingUpdate } from '../policyrule/validation.ts';

export const clusterRoleBindingRules: NativeRules = {
  validate: (_ctx, obj) => validateBinding(obj, false),
  validateUpdate: (_ctx, obj, old) => validateBindingUpdate(obj, old, false),
};
