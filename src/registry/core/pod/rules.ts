/**
 * The Pod's native rules (pkg/registry/core/pod/strategy.go with ValidatePodCreate,
 * ValidatePodUpdate and ValidatePodStatusUpdate): a created pod starts Pending with its QoS
 * class (and the SchedulingGated condition while it has scheduling gates), generation 1, bumped
 * when an update changes the spec; updates keep the stored status.
 */
import { Path, forbidden, invalid, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { jsonEqual, metaOf } from '../../meta.ts';
import type { Obj } from '../../rest.ts';
import { validateContainersOnlyForPod } from '../podspec/validate-containers.ts';
import { validatePodSpec } from '../podspec/validation.ts';
import { list, rec, recs, str, servedPodValidation, type PodValidationOptions, type Rec } from '../podspec/values.ts';
import { podUpdateValidation } from '../podspec/scheduling.ts';
import { computePodQOS } from './qos.ts';
import { validatePodStatusRules } from './status.ts';
import { validatePodUpdateRules } from './update.ts';
import { podSpecWarnings } from './warnings.ts';

const specPath = Path.of('spec');
const annotationsPath = Path.of('metadata', 'annotations');
const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

function annotationsOf(pod: Rec): Record<string, unknown> {
  return rec(rec(pod.metadata)?.annotations) ?? {};
}

/** ValidatePodSpecificAnnotations: a mirror pod names its node. */
function validatePodAnnotations(pod: Rec): FieldError[] {
  const a = annotationsOf(pod);
  if (a[mirrorPodAnnotation] !== undefined && str(rec(pod.spec)?.nodeName) === '') {
    return [invalid(annotationsPath.key(mirrorPodAnnotation), a[mirrorPodAnnotation], 'must set spec.nodeName if mirror pod annotation is set')];
  }
  return [];
}

/** ValidatePodSpecificAnnotationUpdates: the mirror pod annotation may not be added, changed or removed. */
function validatePodAnnotationUpdates(pod: Rec, old: Rec): FieldError[] {
  const errs: FieldError[] = [];
  const a = annotationsOf(pod);
  const o = annotationsOf(old);
  if (o[mirrorPodAnnotation] !== undefined && a[mirrorPodAnnotation] !== o[mirrorPodAnnotation]) {
    errs.push(forbidden(annotationsPath.key(mirrorPodAnnotation), 'may not remove or update mirror pod annotation'));
  }
  if (o[mirrorPodAnnotation] === undefined && a[mirrorPodAnnotation] !== undefined) {
    errs.push(forbidden(annotationsPath.key(mirrorPodAnnotation), 'may not add mirror pod annotation'));
  }
  return [...errs, ...validatePodAnnotations(pod)];
}

/** validatePodMetadataAndSpec after ObjectMeta: annotations, the spec, and the pod-only image rule. */
export function validatePodMetadataAndSpec(pod: Rec, opts: PodValidationOptions): FieldError[] {
  const spec = rec(pod.spec) ?? {};
  return [
    ...validatePodAnnotations(pod),
    ...validatePodSpec(spec, specPath, opts),
    ...validateContainersOnlyForPod(spec.containers, specPath.child('containers')),
    ...validateContainersOnlyForPod(spec.initContainers, specPath.child('initContainers')),
  ];
}

/** ValidatePodCreate after ObjectMeta. */
export function validatePodCreate(pod: Rec, opts: PodValidationOptions): FieldError[] {
  const errs = validatePodMetadataAndSpec(pod, opts);
  const spec = rec(pod.spec) ?? {};
  if (list(spec.ephemeralContainers).length > 0) errs.push(forbidden(specPath.child('ephemeralContainers'), 'cannot be set on create'));
  if (str(spec.nodeName) !== '' && list(spec.schedulingGates).length > 0) {
    errs.push(forbidden(specPath.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

/** ValidatePodUpdate after ObjectMeta's update rules. */
export function validatePodUpdate(pod: Rec, old: Rec, opts: PodValidationOptions): FieldError[] {
  return [...validatePodMetadataAndSpec(pod, opts), ...validatePodAnnotationUpdates(pod, old), ...validatePodUpdateRules(pod, old)];
}

/** The status a pod starts with (PrepareForCreate). */
export function initialPodStatus(pod: Obj): Rec {
  const status: Rec = { phase: 'Pending', qosClass: computePodQOS(pod) };
  if (recs(rec(pod.spec)?.schedulingGates).length > 0) {
    status.conditions = [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }];
  }
  return status;
}

function warnings(pod: Obj): string[] {
  return podSpecWarnings(pod.spec, rec(pod.metadata) ?? {}, specPath);
}

export const podRules: NativeRules = {
  prepareForCreate(_ctx, obj) {
    obj.status = initialPodStatus(obj);
    metaOf(obj).generation = 1;
  },
  prepareForUpdate(_ctx, obj, old) {
    const g = metaOf(old).generation;
    const gen = typeof g === 'number' ? g : 1;
    metaOf(obj).generation = jsonEqual(obj.spec, old.spec) ? gen : gen + 1;
  },
  validate: (_ctx, obj) => validatePodCreate(obj, servedPodValidation),
  validateUpdate: (_ctx, obj, old) => validatePodUpdate(obj, old, podUpdateValidation(servedPodValidation, old.spec)),
  warningsOnCreate: (_ctx, obj) => warnings(obj),
  warningsOnUpdate(_ctx, obj, old) {
    const before = new Set(warnings(old));
    return warnings(obj).filter((w) => !before.has(w));
  },
  status: {
    validateUpdate: (_ctx, obj, old) => validatePodStatusRules(obj, old),
  },
};
