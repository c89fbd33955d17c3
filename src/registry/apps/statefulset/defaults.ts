/**
 * apps/v1 StatefulSet defaulting (SetObjectDefaults_StatefulSet), with Kubernetes 1.35's feature
 * gates (MaxUnavailableStatefulSet beta and on, StatefulSetAutoDeletePVC GA):
 * SetDefaults_StatefulSet — podManagementPolicy OrderedReady; an updateStrategy without a type
 * is RollingUpdate (a given RollingUpdate strategy gets rollingUpdate only if it names one),
 * whose partition is 0 and maxUnavailable 1; persistentVolumeClaimRetentionPolicy Retain on
 * delete and on scale; replicas 1; revisionHistoryLimit 10 — then the template's pod spec
 * defaults and each volumeClaimTemplate's PersistentVolumeClaim defaults (status phase
 * Pending, volumeMode Filesystem, resource lists at milli precision).
 */
import type { Defaulter } from '../../builtin/native.ts';
import { defaultClaimSpec, defaultPodTemplateSpec, defaultPtr, defaultResourceList, defaultZero, items, ptr, struct, type Rec } from '../../core/podspec/defaults.ts';

/** SetObjectDefaults_PersistentVolumeClaim's parts, on a claim template. MUTATES `claim`. */
function defaultClaimTemplate(claim: Rec): void {
  const status = struct(claim, 'status');
  defaultZero(status, 'phase', 'Pending');
  defaultClaimSpec(struct(claim, 'spec'));
  defaultResourceList(status, 'capacity');
  defaultResourceList(status, 'allocatedResources');
}

/** SetObjectDefaults_StatefulSet. MUTATES the object. */
export const defaultStatefulSet: Defaulter = (obj) => {
  const spec = struct(obj, 'spec');
  defaultZero(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = struct(spec, 'updateStrategy');
  if (strategy.type === undefined || strategy.type === null || strategy.type === '') {
    strategy.type = 'RollingUpdate';
    defaultPtr(strategy, 'rollingUpdate', {});
  }
  const rollingUpdate = ptr(strategy, 'rollingUpdate');
  if (strategy.type === 'RollingUpdate' && rollingUpdate) {
    defaultPtr(rollingUpdate, 'partition', 0);
    defaultPtr(rollingUpdate, 'maxUnavailable', 1);
  }
  const retention = struct(spec, 'persistentVolumeClaimRetentionPolicy');
  defaultZero(retention, 'whenDeleted', 'Retain');
  defaultZero(retention, 'whenScaled', 'Retain');
  defaultPtr(spec, 'replicas', 1);
  defaultPtr(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplateSpec(struct(spec, 'template'));
  for (const claim of items(spec, 'volumeClaimTemplates')) defaultClaimTemplate(claim);
};

export const statefulSetDefaulters: Readonly<Record<string, Defaulter>> = { 'apps/v1/statefulsets': defaultStatefulSet };
