/**
 * The DaemonSet's native rules (ValidateDaemonSet, ValidateDaemonSetUpdate, the status rules,
 * the apps/v1 immutable selector): a valid, non-empty selector the template matches, the
 * template a valid pod template restarting Always without a deadline, non-negative
 * minReadySeconds, templateGeneration and revisionHistoryLimit, and the update strategy
 * (RollingUpdate: percentages at most 100%, exactly one of maxSurge and maxUnavailable non-zero).
 */
import { Path, invalid, notSupported, required, type FieldError, GoJSONText } from '../../../apimachinery/index.ts';
import { validateLabelSelector, type LabelSelector } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import type { Obj } from '../../rest.ts';
import {
  intOrPercentValue, selectorOf, selectorValue, validateAlwaysRestart, validateCollisionCount, validateImmutable, validateNotMoreThan100Percent,
  validatePositiveIntOrPercent, validateSelectorMatches, validateStatusCounters,
} from '../../core/podspec/controller.ts';
import { validateNonnegative } from '../../core/podspec/probes.ts';
import { validatePodTemplateSpec } from '../../core/podspec/validation.ts';
import { leftToDefault, num, optNum, rec, servedPodValidation, str, type PodValidationOptions, type Rec } from '../../core/podspec/values.ts';
import { podUpdateValidation } from '../../core/podspec/scheduling.ts';
import { controllerWarnings } from '../../core/pod/warnings.ts';

const specPath = Path.of('spec');
const statusPath = Path.of('status');

function validateUpdateStrategy(s: Rec, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  if (leftToDefault(s.type, opts)) return [];
  const errs: FieldError[] = [];
  switch (s.type) {
    case 'OnDelete':
      break;
    case 'RollingUpdate': {
      const ru = rec(s.rollingUpdate);
      if (!ru) return opts.defaultsApplied ? [required(fldPath.child('rollingUpdate'), '')] : [];
      const p = fldPath.child('rollingUpdate');
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, p.child('maxSurge')));
      errs.push(...validateNotMoreThan100Percent(ru.maxUnavailable, p.child('maxUnavailable')));
      errs.push(...validateNotMoreThan100Percent(ru.maxSurge, p.child('maxSurge')));
      // maxUnavailable defaults to 1, maxSurge to 0.
      const hasUnavailable = (ru.maxUnavailable === undefined ? 1 : intOrPercentValue(ru.maxUnavailable)) !== 0;
      const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) errs.push(invalid(p.child('maxSurge'), ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
      else if (!hasUnavailable && !hasSurge) errs.push(required(p.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
      break;
    }
    default: {
      const parts = [`"type":${JSON.stringify(str(s.type))}`];
      if (rec(s.rollingUpdate)) parts.push(`"rollingUpdate":${JSON.stringify(s.rollingUpdate)}`);
      errs.push(notSupported(fldPath, new GoJSONText(`{${parts.join(',')}}`), ['RollingUpdate', 'OnDelete']));
    }
  }
  return errs;
}

/** ValidateDaemonSetSpec */
export function validateDaemonSetSpec(obj: Obj, opts: PodValidationOptions): FieldError[] {
  const spec = rec(obj.spec) ?? {};
  const sel = rec(spec.selector);
  const errs = validateLabelSelector(sel as LabelSelector | undefined, {}, specPath.child('selector'));
  const template = rec(spec.template) ?? {};
  const tPath = specPath.child('template');
  const selector = selectorOf(sel);
  if (selector) errs.push(...validateSelectorMatches(selector, template, tPath));
  if (sel && Object.keys(rec(sel.matchLabels) ?? {}).length + (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0) === 0) {
    errs.push(invalid(specPath.child('selector'), selectorValue(sel), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(template, tPath, opts));
  errs.push(...validateAlwaysRestart(template, tPath, opts));
  const ads = optNum(rec(template.spec)?.activeDeadlineSeconds);
  if (ads !== undefined) errs.push(invalid(tPath.child('spec', 'activeDeadlineSeconds'), ads, 'activeDeadlineSeconds in DaemonSet is not Supported'));
  errs.push(...validateNonnegative(num(spec.minReadySeconds), specPath.child('minReadySeconds')));
  errs.push(...validateNonnegative(num(spec.templateGeneration), specPath.child('templateGeneration')));
  errs.push(...validateUpdateStrategy(rec(spec.updateStrategy) ?? {}, specPath.child('updateStrategy'), opts));
  const rhl = optNum(spec.revisionHistoryLimit);
  if (rhl !== undefined) errs.push(...validateNonnegative(rhl, specPath.child('revisionHistoryLimit')));
  return errs;
}

const counters = ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'];

const templateOf = (o: Obj): Rec | undefined => rec(rec(o.spec)?.template);

export const daemonSetRules: NativeRules = {
  validate: (_ctx, obj) => validateDaemonSetSpec(obj, servedPodValidation),
  validateUpdate: (_ctx, obj, old) => [
    ...validateDaemonSetSpec(obj, podUpdateValidation(servedPodValidation, rec(rec(old.spec)?.template)?.spec)),
    ...validateImmutable(rec(obj.spec)?.selector, rec(old.spec)?.selector, specPath.child('selector'), selectorValue(rec(rec(obj.spec)?.selector))),
  ],
  warningsOnCreate: (_ctx, obj) => controllerWarnings(obj, specPath.child('template'), templateOf(obj)),
  warningsOnUpdate: (_ctx, obj, old) => controllerWarnings(obj, specPath.child('template'), templateOf(obj), { obj: old, template: templateOf(old) }),
  status: {
    validateUpdate: (_ctx, obj, old) => [
      ...validateStatusCounters(rec(obj.status) ?? {}, counters, [], statusPath),
      ...validateCollisionCount(rec(obj.status) ?? {}, rec(old.status) ?? {}, statusPath),
    ],
  },
};
