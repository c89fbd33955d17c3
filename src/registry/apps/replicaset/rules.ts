/**
 * The ReplicaSet's native rules (ValidateReplicaSet, its update and status rules, the apps/v1
 * immutable selector): non-negative replicas and minReadySeconds, a required non-empty selector
 * that the template matches, the template a valid pod template restarting Always.
 */
import { Path, invalid, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import type { Obj } from '../../rest.ts';
import {
  selectorOf, selectorValue, validateImmutable, validateRequiredSelector, validateStatusCounters, validateTemplateForReplicas,
} from '../../core/podspec/controller.ts';
import { validateNonnegative } from '../../core/podspec/probes.ts';
import { num, rec, servedPodValidation, type PodValidationOptions, type Rec } from '../../core/podspec/values.ts';
import { podUpdateValidation } from '../../core/podspec/scheduling.ts';
import { controllerWarnings } from '../../core/pod/warnings.ts';

const specPath = Path.of('spec');
const statusPath = Path.of('status');

/** ValidateReplicaSetSpec (its empty-selector message names deployments, as upstream's does). */
export function validateReplicaSetSpec(obj: Obj, opts: PodValidationOptions): FieldError[] {
  const spec = rec(obj.spec) ?? {};
  const errs = validateNonnegative(num(spec.replicas), specPath.child('replicas'));
  errs.push(...validateNonnegative(num(spec.minReadySeconds), specPath.child('minReadySeconds')));
  const sel = rec(spec.selector);
  errs.push(...validateRequiredSelector(sel, 'deployment', specPath.child('selector')));
  const selector = selectorOf(sel);
  if (!selector) errs.push(invalid(specPath.child('selector'), selectorValue(sel), 'invalid label selector'));
  else errs.push(...validateTemplateForReplicas(rec(spec.template), selector, 'ReplicaSet', specPath.child('template'), opts));
  return errs;
}

const counters = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'observedGeneration'];

/** ValidateReplicaSetStatus */
export function validateReplicaSetStatus(status: Rec): FieldError[] {
  const errs = validateStatusCounters(status, counters, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], statusPath);
  if (num(status.availableReplicas) > num(status.readyReplicas)) {
    errs.push(invalid(statusPath.child('availableReplicas'), num(status.availableReplicas), 'cannot be greater than readyReplicas'));
  }
  return errs;
}

const templateOf = (o: Obj): Rec | undefined => rec(rec(o.spec)?.template);

export const replicaSetRules: NativeRules = {
  validate: (_ctx, obj) => validateReplicaSetSpec(obj, servedPodValidation),
  validateUpdate: (_ctx, obj, old) => [
    ...validateReplicaSetSpec(obj, podUpdateValidation(servedPodValidation, rec(rec(old.spec)?.template)?.spec)),
    ...validateImmutable(rec(obj.spec)?.selector, rec(old.spec)?.selector, specPath.child('selector'), selectorValue(rec(rec(obj.spec)?.selector))),
  ],
  warningsOnCreate: (_ctx, obj) => controllerWarnings(obj, specPath.child('template'), templateOf(obj)),
  warningsOnUpdate: (_ctx, obj, old) => controllerWarnings(obj, specPath.child('template'), templateOf(obj), { obj: old, template: templateOf(old) }),
  status: { validateUpdate: (_ctx, obj) => validateReplicaSetStatus(rec(obj.status) ?? {}) },
};
