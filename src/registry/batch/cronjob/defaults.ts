/**
 * batch/v1 CronJob defaulting (SetObjectDefaults_CronJob): SetDefaults_CronJob —
 * concurrencyPolicy Allow, suspend false, successfulJobsHistoryLimit 3, failedJobsHistoryLimit
 * 1 — then the job template's pod spec defaults. The job template's own spec is not defaulted
 * (SetDefaults_Job is a Job's, not a JobSpec's): its Jobs get those when they are created.
 */
import type { Defaulter } from '../../builtin/native.ts';
import { defaultPodTemplateSpec, defaultPtr, defaultZero, struct } from '../../core/podspec/defaults.ts';

/** SetObjectDefaults_CronJob. MUTATES the object. */
export const defaultCronJob: Defaulter = (obj) => {
  const spec = struct(obj, 'spec');
  defaultZero(spec, 'concurrencyPolicy', 'Allow');
  defaultPtr(spec, 'suspend', false);
  defaultPtr(spec, 'successfulJobsHistoryLimit', 3);
  defaultPtr(spec, 'failedJobsHistoryLimit', 1);
  defaultPodTemplateSpec(struct(struct(struct(spec, 'jobTemplate'), 'spec'), 'template'));
};

export const cronJobDefaulters: Readonly<Record<string, Defaulter>> = { 'batch/v1/cronjobs': defaultCronJob };
