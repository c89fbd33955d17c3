/**
 * batch/v1 Job defaulting (SetObjectDefaults_Job), with Kubernetes 1.35's feature gates
 * (JobBackoffLimitPerIndex and JobPodReplacementPolicy GA): SetDefaults_Job — completions and
 * parallelism 1 when neither is given (parallelism 1 when only it is missing), backoffLimit 6
 * (MaxInt32 with a backoffLimitPerIndex), the object's labels from the template's when it has
 * none, completionMode NonIndexed, suspend false, the pod failure policy's condition patterns'
 * status True, podReplacementPolicy Failed with a pod failure policy and TerminatingOrFailed
 * without, manualSelector false — then the template's pod spec defaults.
 */
import type { Defaulter } from '../../builtin/native.ts';
import { defaultPodTemplateSpec, defaultPtr, defaultZero, isEmpty, isNil, isRec, items, ptr, struct } from '../../core/podspec/defaults.ts';

const maxInt32 = 2147483647;

/** SetObjectDefaults_Job. MUTATES the object. */
export const defaultJob: Defaulter = (obj) => {
  const spec = struct(obj, 'spec');
  if (isNil(spec, 'completions') && isNil(spec, 'parallelism')) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  defaultPtr(spec, 'parallelism', 1);
  defaultPtr(spec, 'backoffLimit', isNil(spec, 'backoffLimitPerIndex') ? 6 : maxInt32);
  const template = struct(spec, 'template');
  const labels = ptr(template, 'metadata')?.labels;
  if (isRec(labels) && Object.keys(labels).length > 0) {
    const meta = struct(obj, 'metadata');
    if (isEmpty(meta, 'labels')) meta.labels = { ...labels };
  }
  defaultPtr(spec, 'completionMode', 'NonIndexed');
  defaultPtr(spec, 'suspend', false);
  const podFailurePolicy = ptr(spec, 'podFailurePolicy');
  if (podFailurePolicy) {
    for (const rule of items(podFailurePolicy, 'rules')) {
      for (const pattern of items(rule, 'onPodConditions')) defaultZero(pattern, 'status', 'True');
    }
  }
  defaultPtr(spec, 'podReplacementPolicy', podFailurePolicy ? 'Failed' : 'TerminatingOrFailed');
  defaultPtr(spec, 'manualSelector', false);
  defaultPodTemplateSpec(template);
};

export const jobDefaulters: Readonly<Record<string, Defaulter>> = { 'batch/v1/jobs': defaultJob };
