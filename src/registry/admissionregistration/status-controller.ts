/**
 * The ValidatingAdmissionPolicy status controller (kube-controller-manager's
 * validatingadmissionpolicy-status controller): each policy's `status.observedGeneration`
 * follows its `metadata.generation`, and `status.typeChecking` holds the warnings of type-checking
 * its expressions against the kinds it matches (`typeChecking: {}` when there are none). Type
 * checking needs the matched kinds' schemas: a PolicyTypeChecker supplies them (type-checker.ts,
 * which the server installs); without one, typeChecking is left unset rather than claiming an
 * empty result.
 */
import { isConflict, isNotFound } from '../../apimachinery/index.ts';
import { runController, type Controller } from '../controllers/loop.ts';
import { deepCopy, jsonEqual, metaOf } from '../meta.ts';
import type { Obj, RESTStore } from '../rest.ts';
import { objectAt } from './values.ts';

/** One warning of the type checker (ExpressionWarning): the expression's field and what was found. */
export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

export interface PolicyTypeChecker {
  /** The warnings of type-checking a policy's expressions against the kinds it matches. */
  check(policy: Obj): Promise<ExpressionWarning[]> | ExpressionWarning[];
}

/** The field manager upstream's controller writes status under. */
export const statusControllerFieldManager = 'validatingadmissionpolicy-status-controller';

export interface PolicyStatusControllerOptions {
  typeChecker?: PolicyTypeChecker;
  onError?: (err: unknown) => void;
}

/** The status a policy should have (a copy of its status with the controller's fields set). */
export async function desiredPolicyStatus(policy: Obj, typeChecker?: PolicyTypeChecker): Promise<Record<string, unknown>> {
  const status: Record<string, unknown> = deepCopy(objectAt(policy.status) ?? {});
  const generation = metaOf(policy).generation;
  if (typeof generation === 'number') status.observedGeneration = generation;
  if (typeChecker) {
    const warnings = await typeChecker.check(policy);
    // An empty warning list is omitted, as the Go type's omitempty does: `typeChecking: {}`.
    status.typeChecking = warnings.length === 0 ? {} : { expressionWarnings: warnings };
  }
  return status;
}

/** Runs the controller over the ValidatingAdmissionPolicy store; writes go through the status subresource. */
export function startPolicyStatusController(policies: RESTStore, opts: PolicyStatusControllerOptions = {}): Controller {
  return runController(
    policies,
    async (key) => {
      let policy: Obj;
      try {
        policy = await policies.get(undefined, key.name);
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      const status = await desiredPolicyStatus(policy, opts.typeChecker);
      if (jsonEqual(status, policy.status ?? {})) return;
      const next = deepCopy(policy);
      next.status = status;
      try {
        await policies.update(undefined, key.name, () => next, { subresource: 'status', fieldManager: statusControllerFieldManager });
      } catch (e) {
        // A newer generation was written meanwhile: its own event reconciles it again.
        if (isConflict(e)) return { requeueAfterMs: 0 };
        if (isNotFound(e)) return;
        throw e;
      }
    },
    { onError: (_k, e) => opts.onError?.(e) },
  );
}
