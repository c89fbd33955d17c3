/**
 * How the admission policy kinds are served: their defaults, strategies and — for
 * MutatingAdmissionPolicy and its binding, served at v1beta1 (Kubernetes 1.35's version, whose
 * gate this server turns on) and v1 (1.36's) — one storage for both versions. The two versions
 * have the same schema, so converting between them changes only apiVersion (which the converted
 * store sets); objects are stored as v1.
 */
import type { VersionConversion } from '../builtin/converted-store.ts';
import type { Obj } from '../rest.ts';
import { admissionGroup } from './defaults.ts';

export { admissionPolicyDefaults } from './defaults.ts';
export { admissionPolicyStrategy } from './strategy.ts';

/** v1beta1 and v1 objects of the mutating policy kinds have the same fields. */
const sameFields: VersionConversion = { toStorage: (obj: Obj) => obj, fromStorage: (obj: Obj) => obj };

/** Resources served over another version's storage (`group/version/resource` served -> stored). */
export const admissionPolicyStorage: ReadonlyArray<{ served: string; stored: string; conversion: VersionConversion }> = ['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings'].map((r) => ({
  served: `${admissionGroup}/v1beta1/${r}`,
  stored: `${admissionGroup}/v1/${r}`,
  conversion: sameFields,
}));
