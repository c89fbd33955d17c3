/** RoleBinding's native rules (pkg/apis/rbac/validation ValidateRoleBinding[Update]): a Role or ClusterRole, a roleRef that never changes. */
import type { NativeRules } from '../../builtin/native.ts';
import { validateBinding, validateBindingUpdate } from '../policyrule/validation.ts';

export const roleBindingRules: NativeRules = {
  validate: (_ctx, obj) => validateBinding(obj, true),
  validateUpdate: (_ctx, obj, old) => validateBindingUpdate(obj, old, true),
};
