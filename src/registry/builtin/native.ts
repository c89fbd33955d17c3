/**
 * What a built-in kind brings from its own folder on top of the strategy every built-in kind
 * starts from (`strategy.ts`): its Go defaulters (per served version) and its native rules —
 * kube-apiserver's `pkg/apis/<group>/validation` and the kind-specific parts of
 * `pkg/registry/<group>/<kind>/strategy.go`. A kind's folder (`src/registry/<group>/<kind>/`)
 * exports these; `native-index.ts` lists them, so that adding a kind's semantics is one new
 * folder and one line there.
 *
 * Native validation replaces the OpenAPI schema's checks for the kind, as on a cluster (where
 * built-in kinds are never validated against their OpenAPI schema: the Go decoder checks the
 * types, which the codec does here too, and the native rules say the rest). ObjectMeta (with
 * the kind's name rule) is still validated first by the common strategy.
 */
import type { FieldError } from '../../apimachinery/index.ts';
import type { Obj } from '../rest.ts';
import type { RequestContext } from '../strategy.ts';

/** A version's defaulting (MUTATES the object): what Go's generated defaulter of the type does. */
export type Defaulter = (obj: Obj) => void;

/** The kind-specific parts of a strategy for one endpoint (the resource or its status). */
export interface EndpointRules {
  /** After the common PrepareForCreate (status cleared, generation 1). */
  prepareForCreate?(ctx: RequestContext, obj: Obj): void;
  /** After the common PrepareForUpdate (status or spec kept from the stored object, generation). */
  prepareForUpdate?(ctx: RequestContext, obj: Obj, old: Obj): void;
  /** Native validation of a create, in place of the schema's (errors in upstream's order). */
  validate?(ctx: RequestContext, obj: Obj): FieldError[];
  /** Native validation of an update (the new object's rules and the update rules), in place of the schema's. */
  validateUpdate?(ctx: RequestContext, obj: Obj, old: Obj): FieldError[];
  warningsOnCreate?(ctx: RequestContext, obj: Obj): string[];
  /**
   * A status write keeps the request's annotations (a Deployment's status strategy resets only
   * spec and labels: the deployment controller writes the revision annotation with the status).
   */
  statusKeepsAnnotations?: boolean;
  warningsOnUpdate?(ctx: RequestContext, obj: Obj, old: Obj): string[];
}

/** A kind's native rules: its main resource's, and its status subresource's. */
export interface NativeRules extends EndpointRules {
  status?: EndpointRules;
}
