/** Role's native rules (pkg/apis/rbac/validation ValidateRole): namespaced policy rules. */
import type { NativeRules } from '../../builtin/native.ts';
import { validateRules } from '../policyrule/validation.ts';

export const roleRules: NativeRules = {
  validate: (_ctx, obj) => validateRules(obj, true),
  validateUpdate: (_ctx, obj) => validateRules(obj, true),
};
