/**
 * apps/v1 Deployment defaulting (SetObjectDefaults_Deployment): SetDefaults_Deployment —
 * replicas 1, strategy RollingUpdate with maxUnavailable and maxSurge 25%, revisionHistoryLimit
 * 10, progressDeadlineSeconds 600 — then the template's pod spec defaults.
 */
import type { Defaulter } from '../../builtin/native.ts';
import { defaultPodTemplateSpec, defaultPtr, defaultZero, struct } from '../../core/podspec/defaults.ts';

/** SetObjectDefaults_Deployment. MUTATES the object. */
export const defaultDeployment: Defaulter = (obj) => {
  const spec = struct(obj, 'spec');
  defaultPtr(spec, 'replicas', 1);
  const strategy = struct(spec, 'strategy');
  defaultZero(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = struct(strategy, 'rollingUpdate');
    defaultPtr(rollingUpdate, 'maxUnavailable', '25%');
    defaultPtr(rollingUpdate, 'maxSurge', '25%');
  }
  defaultPtr(spec, 'revisionHistoryLimit', 10);
  defaultPtr(spec, 'progressDeadlineSeconds', 600);
  defaultPodTemplateSpec(struct(spec, 'template'));
};

export const deploymentDefaulters: Readonly<Record<string, Defaulter>> = { 'apps/v1/deployments': defaultDeployment };
