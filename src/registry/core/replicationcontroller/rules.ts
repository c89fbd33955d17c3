/**
 * The ReplicationController's native rules (ValidateReplicationController and its update and
 * status rules): a non-empty selector map that the template's labels match, a template that is
 * a valid pod template restarting Always, non-negative replicas and minReadySeconds; status
 * counters non-negative and no greater than status.replicas.
 */
import { Path, required, selectorFromSet, type FieldError } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import type { Obj } from '../../rest.ts';
import { validateStatusCounters, validateTemplateForReplicas } from '../podspec/controller.ts';
import { validateNonnegative } from '../podspec/probes.ts';
import { num, rec, servedPodValidation, strMap, type PodValidationOptions } from '../podspec/values.ts';
import { podUpdateValidation } from '../podspec/scheduling.ts';
import { controllerWarnings } from '../pod/warnings.ts';

const specPath = Path.of('spec');
const statusPath = Path.of('status');

/** ValidateReplicationControllerSpec */
export function validateRCSpec(obj: Obj, opts: PodValidationOptions): FieldError[] {
  const spec = rec(obj.spec) ?? {};
  const template = rec(spec.template);
  // SetDefaults_ReplicationController selects the template's labels when no selector is given.
  const given = strMap(spec.selector);
  const selectorMap = Object.keys(given).length === 0 && !opts.defaultsApplied ? strMap(rec(template?.metadata)?.labels) : given;
  const errs = validateNonnegative(num(spec.minReadySeconds), specPath.child('minReadySeconds'));
  if (Object.keys(selectorMap).length === 0) errs.push(required(specPath.child('selector'), ''));
  errs.push(...validateNonnegative(num(spec.replicas), specPath.child('replicas')));
  errs.push(...validateTemplateForReplicas(template, selectorFromSet(selectorMap), 'ReplicationController', specPath.child('template'), opts));
  return errs;
}

const counters = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'];

export const replicationControllerRules: NativeRules = {
  validate: (_ctx, obj) => validateRCSpec(obj, servedPodValidation),
  validateUpdate: (_ctx, obj, old) => validateRCSpec(obj, podUpdateValidation(servedPodValidation, rec(rec(old.spec)?.template)?.spec)),
  warningsOnCreate: (_ctx, obj) => controllerWarnings(obj, specPath.child('template'), rec(rec(obj.spec)?.template)),
  warningsOnUpdate: (_ctx, obj, old) =>
    controllerWarnings(obj, specPath.child('template'), rec(rec(obj.spec)?.template), { obj: old, template: rec(rec(old.spec)?.template) }),
  status: {
    validateUpdate(_ctx, obj) {
      const status = rec(obj.status) ?? {};
      const errs = validateStatusCounters(status, counters, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], statusPath);
      if (num(status.availableReplicas) > num(status.readyReplicas)) {
        errs.push({ type: 'FieldValueInvalid', field: statusPath.child('availableReplicas').toString(), badValue: num(status.availableReplicas), detail: 'cannot be greater than readyReplicas' });
      }
      return errs;
    },
  },
};
