/**
 * ServiceAccount's native rules (pkg/apis/core/validation ValidateServiceAccount[Update]): only
 * its ObjectMeta, which the common strategy checks, so none of the schema's checks stand in;
 * and the serviceaccount strategy's warning on the deprecated mountable-secrets annotation.
 */
import type { NativeRules } from '../../builtin/native.ts';
import { rec } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

const enforceMountableSecrets = 'kubernetes.io/enforce-mountable-secrets';

function warnings(obj: Obj): string[] {
  return Object.hasOwn(rec(rec(obj.metadata).annotations), enforceMountableSecrets)
    ? [`metadata.annotations[${enforceMountableSecrets}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`]
    : [];
}

export const serviceAccountRules: NativeRules = {
  validate: () => [],
  validateUpdate: () => [],
  warningsOnCreate: (_ctx, obj) => warnings(obj),
  warningsOnUpdate: (_ctx, obj) => warnings(obj),
};
