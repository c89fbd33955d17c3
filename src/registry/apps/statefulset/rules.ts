/**
 * The StatefulSet's native rules (ValidateStatefulSet, ValidateStatefulSetUpdate, the status
 * rules, the apps/v1 immutable selector): podManagementPolicy and updateStrategy, the claim
 * retention policy, ordinals, non-negative replicas and minReadySeconds, a required non-empty
 * selector matching the template, the template restarting Always without a deadline. Its pod
 * spec is validated with the volumeClaimTemplates' names as volumes, since the controller adds
 * them. Updates may change only replicas, ordinals, template, updateStrategy,
 * revisionHistoryLimit, persistentVolumeClaimRetentionPolicy and minReadySeconds.
 */
import { Path, forbidden, invalid, notSupported, required, validateAnnotations, validateLabels, type FieldError } from '../../../apimachinery/index.ts';
import { deepCopyJSON } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import type { Obj } from '../../rest.ts';
import {
  selectorOf, selectorValue, validateAlwaysRestart, validateCollisionCount, validateImmutable, validatePositiveIntOrPercent, validateRequiredSelector,
  validateSelectorMatches, validateStatusCounters,
} from '../../core/podspec/controller.ts';
import { validateNonnegative } from '../../core/podspec/probes.ts';
import { validatePodSpec } from '../../core/podspec/validation.ts';
import { leftToDefault, num, optNum, rec, recs, semanticEqual, servedPodValidation, str, strMap, type PodValidationOptions, type Rec } from '../../core/podspec/values.ts';
import { podUpdateValidation } from '../../core/podspec/scheduling.ts';
import { controllerWarnings } from '../../core/pod/warnings.ts';

const specPath = Path.of('spec');
const statusPath = Path.of('status');
const retentionTypes = ['Retain', 'Delete'];

function validateRetentionPolicy(p: Rec, fldPath: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['whenDeleted', 'whenScaled']) {
    const v = str(p[k]);
    if (p[k] !== undefined && !retentionTypes.includes(v)) errs.push(notSupported(fldPath.child(k), v, retentionTypes));
  }
  return errs;
}

/** The template's pod spec, with each volumeClaimTemplate as the volume the controller gives the pod. */
function validateTemplateSpec(spec: Rec, fldPath: Path, opts: PodValidationOptions): FieldError[] {
  const template = rec(spec.template) ?? {};
  const podSpec = deepCopyJSON(rec(template.spec) ?? {}) as Rec;
  const claims = recs(spec.volumeClaimTemplates).map((c) => str(rec(c.metadata)?.name));
  const volumes = recs(podSpec.volumes);
  const missing = claims.filter((n) => n !== '' && !volumes.some((v) => str(v.name) === n));
  if (missing.length > 0) podSpec.volumes = [...volumes, ...missing.map((name) => ({ name, persistentVolumeClaim: { claimName: name } }))];
  return validatePodSpec(podSpec, fldPath, opts);
}

/** ValidateStatefulSetSpec */
export function validateStatefulSetSpec(obj: Obj, opts: PodValidationOptions): FieldError[] {
  const spec = rec(obj.spec) ?? {};
  const errs: FieldError[] = [];
  const pmp = spec.podManagementPolicy;
  if (!leftToDefault(pmp, opts)) {
    if (str(pmp) === '') errs.push(required(specPath.child('podManagementPolicy'), ''));
    else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(invalid(specPath.child('podManagementPolicy'), str(pmp), "must be 'OrderedReady' or 'Parallel'"));
  }
  const us = rec(spec.updateStrategy) ?? {};
  const usPath = specPath.child('updateStrategy');
  if (!leftToDefault(us.type, opts)) {
    const ru = rec(us.rollingUpdate);
    switch (us.type) {
      case '':
      case undefined:
        errs.push(required(usPath, ''));
        break;
      case 'OnDelete':
        if (ru) errs.push(invalid(usPath.child('rollingUpdate'), ru, "only allowed for updateStrategy 'RollingUpdate'"));
        break;
      case 'RollingUpdate':
        if (ru) {
          const p = usPath.child('rollingUpdate');
          errs.push(...validateNonnegative(num(ru.partition), p.child('partition')));
          if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) {
            errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')));
            if (ru.maxUnavailable === 0 || ru.maxUnavailable === '0%') errs.push(invalid(p.child('maxUnavailable'), ru.maxUnavailable, 'must be greater than 0'));
          }
        }
        break;
      default:
        errs.push(invalid(usPath, us, "must be 'RollingUpdate' or 'OnDelete'"));
    }
  }
  const retention = rec(spec.persistentVolumeClaimRetentionPolicy);
  if (retention) errs.push(...validateRetentionPolicy(retention, specPath.child('persistentVolumeClaimRetentionPolicy')));
  const ordinals = rec(spec.ordinals);
  if (ordinals) errs.push(...validateNonnegative(num(ordinals.start), specPath.child('ordinals.start')));
  errs.push(...validateNonnegative(num(spec.replicas), specPath.child('replicas')));
  errs.push(...validateNonnegative(num(spec.minReadySeconds), specPath.child('minReadySeconds')));
  const sel = rec(spec.selector);
  errs.push(...validateRequiredSelector(sel, 'statefulset', specPath.child('selector')));
  const selector = selectorOf(sel);
  const template = rec(spec.template);
  const tPath = specPath.child('template');
  if (!selector) errs.push(invalid(specPath.child('selector'), selectorValue(sel), ''));
  else if (!template) errs.push(required(tPath, ''));
  else {
    errs.push(...validateSelectorMatches(selector, template, tPath));
    const meta = rec(template.metadata) ?? {};
    errs.push(...validateLabels(strMap(meta.labels), tPath.child('labels')));
    errs.push(...validateAnnotations(strMap(meta.annotations), tPath.child('annotations')));
    errs.push(...validateTemplateSpec(spec, tPath.child('spec'), opts));
  }
  errs.push(...validateAlwaysRestart(template ?? {}, tPath, opts));
  if (optNum(rec(template?.spec)?.activeDeadlineSeconds) !== undefined) {
    errs.push(forbidden(tPath.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in StatefulSet is not Supported'));
  }
  return errs;
}

const mutableFields = ['replicas', 'ordinals', 'template', 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy'];

/** ValidateStatefulSetUpdate's rule: nothing else in the spec may change. */
export function validateStatefulSetSpecUpdate(obj: Obj, old: Obj): FieldError[] {
  const strip = (o: Obj): Rec => {
    const s = { ...(rec(o.spec) ?? {}) };
    for (const k of mutableFields) delete s[k];
    return s;
  };
  if (semanticEqual(strip(obj), strip(old))) return [];
  return [
    forbidden(
      specPath,
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

const counters = ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'];

export function validateStatefulSetStatus(status: Rec): FieldError[] {
  const errs = validateStatusCounters(status, counters, ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'], statusPath);
  if (num(status.availableReplicas) > num(status.readyReplicas)) {
    errs.push(invalid(statusPath.child('availableReplicas'), num(status.availableReplicas), 'cannot be greater than status.readyReplicas'));
  }
  return errs;
}

const templateOf = (o: Obj): Rec | undefined => rec(rec(o.spec)?.template);

export const statefulSetRules: NativeRules = {
  validate: (_ctx, obj) => validateStatefulSetSpec(obj, servedPodValidation),
  validateUpdate: (_ctx, obj, old) => [
    ...validateStatefulSetSpec(obj, podUpdateValidation(servedPodValidation, rec(rec(old.spec)?.template)?.spec)),
    ...validateStatefulSetSpecUpdate(obj, old),
    ...validateImmutable(rec(obj.spec)?.selector, rec(old.spec)?.selector, specPath.child('selector'), selectorValue(rec(rec(obj.spec)?.selector))),
  ],
  warningsOnCreate: (_ctx, obj) => controllerWarnings(obj, specPath.child('template'), templateOf(obj)),
  warningsOnUpdate: (_ctx, obj, old) => controllerWarnings(obj, specPath.child('template'), templateOf(obj), { obj: old, template: templateOf(old) }),
  status: {
    validateUpdate: (_ctx, obj, old) => [
      ...validateStatefulSetStatus(rec(obj.status) ?? {}),
      ...validateCollisionCount(rec(obj.status) ?? {}, rec(old.status) ?? {}, statusPath),
    ],
  },
};
