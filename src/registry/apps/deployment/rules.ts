/**
 * The Deployment's native rules (ValidateDeployment, ValidateDeploymentUpdate, the status rules,
 * and the strategy's immutable selector in apps/v1): non-negative replicas, a required non-empty
 * selector matching the template, the template a valid pod template restarting Always, the
 * rollout strategy (Recreate without rollingUpdate; RollingUpdate's maxSurge/maxUnavailable not
 * both 0, maxUnavailable at most 100%), minReadySeconds, revisionHistoryLimit, and
 * progressDeadlineSeconds greater than minReadySeconds.
 */
import { Path, forbidden, invalid, notSupported, required, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import type { Obj } from '../../rest.ts';
import {
  intOrPercentValue, selectorOf, validateCollisionCount, validateImmutable, validateNotMoreThan100Percent, validatePositiveIntOrPercent,
  validateRequiredSelector, validateStatusCounters, validateTemplateForReplicas, selectorValue,
} from '../../core/podspec/controller.ts';
import { validateNonnegative } from '../../core/podspec/probes.ts';
import { leftToDefault, num, optNum, rec, servedPodValidation, str, type PodValidationOptions, type Rec } from '../../core/podspec/values.ts';
import { podUpdateValidation } from '../../core/podspec/scheduling.ts';
import { controllerWarnings } from '../../core/pod/warnings.ts';
import { GoJSONText, jsonEqual } from '../../../apimachinery/index.ts';

const specPath = Path.of('spec');
const statusPath = Path.of('status');

/** A DeploymentStrategy as Go marshals it (type, then rollingUpdate). */
function strategyValue(s: Rec): GoJSONText {
  const parts: string[] = [];
  if (str(s.type) !== '') parts.push(`"type":${JSON.stringify(s.type)}`);
  if (rec(s.rollingUpdate)) parts.push(`"rollingUpdate":${JSON.stringify(s.rollingUpdate)}`);
  return new GoJSONText(`{${parts.join(',')}}`);
}

/** ValidateDeploymentStrategy */
function validateStrategy(s: Rec, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (leftToDefault(s.type, opts)) return errs;
  const ru = rec(s.rollingUpdate);
  switch (s.type) {
    case 'Recreate':
      if (ru) errs.push(forbidden(fldPath.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
      break;
    case 'RollingUpdate': {
      if (!ru) {
        if (opts.defaultsApplied) errs.push(required(fldPath.child('rollingUpdate'), 'this should be defaulted and never be nil'));
        break;
      }
      const p = fldPath.child('rollingUpdate');
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, p.child('maxSurge')));
      // Absent values are the defaults (25%), never both 0.
      const unavailable = ru.maxUnavailable === undefined ? 1 : intOrPercentValue(ru.maxUnavailable);
      const surge = ru.maxSurge === undefined ? 1 : intOrPercentValue(ru.maxSurge);
      if (unavailable === 0 && surge === 0) errs.push(invalid(p.child('maxUnavailable'), ru.maxUnavailable ?? null, 'may not be 0 when `maxSurge` is 0'));
      errs.push(...validateNotMoreThan100Percent(ru.maxUnavailable, p.child('maxUnavailable')));
      break;
    }
    default:
      errs.push(notSupported(fldPath, strategyValue(s), ['Recreate', 'RollingUpdate']));
  }
  return errs;
}

/** ValidateDeploymentSpec */
export function validateDeploymentSpec(obj: Obj, opts: PodValidationOptions): FieldError[] {
  const spec = rec(obj.spec) ?? {};
  const errs = validateNonnegative(num(spec.replicas), specPath.child('replicas'));
  const sel = rec(spec.selector);
  errs.push(...validateRequiredSelector(sel, 'deployment', specPath.child('selector')));
  const selector = selectorOf(sel);
  if (!selector) errs.push(invalid(specPath.child('selector'), selectorValue(sel), 'invalid label selector'));
  else errs.push(...validateTemplateForReplicas(rec(spec.template), selector, 'ReplicaSet', specPath.child('template'), opts));
  errs.push(...validateStrategy(rec(spec.strategy) ?? {}, specPath.child('strategy'), opts));
  errs.push(...validateNonnegative(num(spec.minReadySeconds), specPath.child('minReadySeconds')));
  const rhl = optNum(spec.revisionHistoryLimit);
  if (rhl !== undefined) errs.push(...validateNonnegative(rhl, specPath.child('revisionHistoryLimit')));
  const pds = optNum(spec.progressDeadlineSeconds);
  if (pds !== undefined) {
    errs.push(...validateNonnegative(pds, specPath.child('progressDeadlineSeconds')));
    if (pds <= num(spec.minReadySeconds)) errs.push(invalid(specPath.child('progressDeadlineSeconds'), pds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

const counters = ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount'];

/** ValidateDeploymentStatus */
export function validateDeploymentStatus(status: Rec): FieldError[] {
  const errs = validateStatusCounters(status, counters, ['updatedReplicas', 'readyReplicas', 'availableReplicas'], statusPath);
  if (num(status.availableReplicas) > num(status.readyReplicas)) {
    errs.push(invalid(statusPath.child('availableReplicas'), num(status.availableReplicas), 'cannot be greater than readyReplicas'));
  }
  return errs;
}

const templateOf = (o: Obj): Rec | undefined => rec(rec(o.spec)?.template);

export const deploymentRules: NativeRules = {
  // Annotation changes bump the generation too: they are copied to the ReplicaSets.
  prepareForUpdate: (_ctx, obj, old) => {
    const m = rec(obj.metadata) ?? {};
    const o = rec(old.metadata) ?? {};
    if (jsonEqual(obj.spec, old.spec) && !jsonEqual(m.annotations ?? {}, o.annotations ?? {})) m.generation = num(o.generation) + 1;
  },
  validate: (_ctx, obj) => validateDeploymentSpec(obj, servedPodValidation),
  validateUpdate: (_ctx, obj, old) => [
    ...validateDeploymentSpec(obj, podUpdateValidation(servedPodValidation, rec(rec(old.spec)?.template)?.spec)),
    ...validateImmutable(rec(obj.spec)?.selector, rec(old.spec)?.selector, specPath.child('selector'), selectorValue(rec(rec(obj.spec)?.selector))),
  ],
  warningsOnCreate: (_ctx, obj) => controllerWarnings(obj, specPath.child('template'), templateOf(obj)),
  warningsOnUpdate: (_ctx, obj, old) => controllerWarnings(obj, specPath.child('template'), templateOf(obj), { obj: old, template: templateOf(old) }),
  status: {
    statusKeepsAnnotations: true,
    validateUpdate: (_ctx, obj, old) => [
      ...validateDeploymentStatus(rec(obj.status) ?? {}),
      ...validateCollisionCount(rec(obj.status) ?? {}, rec(old.status) ?? {}, statusPath),
    ],
  },
};
