/**
 * apps/v1 DaemonSet defaulting (SetObjectDefaults_DaemonSet): SetDefaults_DaemonSet —
 * updateStrategy RollingUpdate with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10 —
 * then the template's pod spec defaults.
 */
import type { Defaulter } from '../../builtin/native.ts';
import { defaultPodTemplateSpec, defaultPtr, defaultZero, struct } from '../../core/podspec/defaults.ts';

/** SetObjectDefaults_DaemonSet. MUTATES the object. */
export const defaultDaemonSet: Defaulter = (obj) => {
  const spec = struct(obj, 'spec');
  const strategy = struct(spec, 'updateStrategy');
  defaultZero(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = struct(strategy, 'rollingUpdate');
    defaultPtr(rollingUpdate, 'maxUnavailable', 1);
    defaultPtr(rollingUpdate, 'maxSurge', 0);
  }
  defaultPtr(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplateSpec(struct(spec, 'template'));
};

export const daemonSetDefaulters: Readonly<Record<string, Defaulter>> = { 'apps/v1/daemonsets': defaultDaemonSet };
