/**
 * The PodTemplate's native rules (ValidatePodTemplate, ValidatePodTemplateUpdate): its
 * `template` is a valid pod template, on create and on every update; warnings as a pod's.
 */
import { Path } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { validatePodTemplateSpec } from '../podspec/validation.ts';
import { rec, servedPodValidation } from '../podspec/values.ts';
import { podUpdateValidation } from '../podspec/scheduling.ts';
import { controllerWarnings } from '../pod/warnings.ts';

const templatePath = Path.of('template');

export const podTemplateRules: NativeRules = {
  validate: (_ctx, obj) => validatePodTemplateSpec(obj.template, templatePath, servedPodValidation),
  validateUpdate: (_ctx, obj, old) => validatePodTemplateSpec(obj.template, templatePath, podUpdateValidation(servedPodValidation, rec(old.template)?.spec)),
  warningsOnCreate: (_ctx, obj) => controllerWarnings(obj, templatePath, rec(obj.template)).filter((w) => !w.startsWith('metadata.name:')),
  warningsOnUpdate: (_ctx, obj, old) => controllerWarnings(obj, templatePath, rec(obj.template), { obj: old, template: rec(old.template) }),
};
