/**
 * The built-in kinds' own semantics, one entry per kind folder: defaulters by
 * `group/version/resource` of the served version, native rules by `group/resource` (the rules
 * run on the object in its storage version, as upstream's run on the internal type).
 */
import type { Defaulter, NativeRules } from './native.ts';
import type { Store } from '../../storage/index.ts';
import type { WriteHooks } from '../generic-store.ts';
import { resourceWriteHooks } from '../resource/admin-access.ts';
import { podDefaulters } from '../core/pod/defaults.ts';
import { podTemplateDefaulters } from '../core/podtemplate/defaults.ts';
import { replicationControllerDefaulters } from '../core/replicationcontroller/defaults.ts';
import { deploymentDefaulters } from '../apps/deployment/defaults.ts';
import { replicaSetDefaulters } from '../apps/replicaset/defaults.ts';
import { statefulSetDefaulters } from '../apps/statefulset/defaults.ts';
import { daemonSetDefaulters } from '../apps/daemonset/defaults.ts';
import { jobDefaulters } from '../batch/job/defaults.ts';
import { cronJobDefaulters } from '../batch/cronjob/defaults.ts';
import { defaultService } from '../core/service/defaults.ts';
import { serviceRules } from '../core/service/rules.ts';
import { daemonSetRules } from '../apps/daemonset/rules.ts';
import { deploymentRules } from '../apps/deployment/rules.ts';
import { replicaSetRules } from '../apps/replicaset/rules.ts';
import { statefulSetRules } from '../apps/statefulset/rules.ts';
import { cronJobRules } from '../batch/cronjob/rules.ts';
import { jobRules } from '../batch/job/rules.ts';
import { podRules } from '../core/pod/rules.ts';
import { podTemplateRules } from '../core/podtemplate/rules.ts';
import { replicationControllerRules } from '../core/replicationcontroller/rules.ts';
import { secretDefaulters } from '../core/secret/defaults.ts';
import { persistentVolumeDefaulters } from '../core/persistentvolume/defaults.ts';
import { persistentVolumeClaimDefaulters } from '../core/persistentvolumeclaim/defaults.ts';
import { nodeDefaulters } from '../core/node/defaults.ts';
import { endpointsDefaulters } from '../core/endpoints/defaults.ts';
import { limitRangeDefaulters } from '../core/limitrange/defaults.ts';
import { networkPolicyDefaulters } from '../networking/networkpolicy/defaults.ts';
import { ingressClassDefaulters } from '../networking/ingressclass/defaults.ts';
import { roleBindingDefaulters } from '../rbac/rolebinding/defaults.ts';
import { hpaDefaulters } from '../autoscaling/horizontalpodautoscaler/defaults.ts';
import { storageClassDefaulters } from '../storage/storageclass/defaults.ts';
import { csiDriverDefaulters } from '../storage/csidriver/defaults.ts';
import { volumeAttachmentDefaulters } from '../storage/volumeattachment/defaults.ts';
import { priorityClassDefaulters } from '../scheduling/priorityclass/defaults.ts';
import { endpointSliceDefaulters } from '../discovery/endpointslice/defaults.ts';
import { resourceClaimDefaulters } from '../resource/resourceclaim/defaults.ts';
import { resourceSliceDefaulters } from '../resource/resourceslice/defaults.ts';
import { flowSchemaDefaulters } from '../flowcontrol/flowschema/defaults.ts';
import { priorityLevelConfigurationDefaulters } from '../flowcontrol/prioritylevelconfiguration/defaults.ts';
import { configMapRules } from '../core/configmap/validation.ts';
import { secretRules } from '../core/secret/validation.ts';
import { serviceAccountRules } from '../core/serviceaccount/validation.ts';
import { roleRules } from '../rbac/role/validation.ts';
import { clusterRoleRules } from '../rbac/clusterrole/validation.ts';
import { roleBindingRules } from '../rbac/rolebinding/validation.ts';
import { clusterRoleBindingRules } from '../rbac/clusterrolebinding/validation.ts';
import { priorityClassRules } from '../scheduling/priorityclass/validation.ts';
import { leaseRules } from '../coordination/lease/validation.ts';
import { podDisruptionBudgetRules } from '../policy/poddisruptionbudget/validation.ts';
import { storageClassRules } from '../storage/storageclass/validation.ts';
import { ingressClassRules } from '../networking/ingressclass/validation.ts';
import { ingressRules } from '../networking/ingress/validation.ts';
import { networkPolicyRules } from '../networking/networkpolicy/validation.ts';
import { horizontalPodAutoscalerRules } from '../autoscaling/horizontalpodautoscaler/validation.ts';
import { persistentVolumeClaimRules } from '../core/persistentvolumeclaim/validation.ts';
import { persistentVolumeRules } from '../core/persistentvolume/validation.ts';
import { deviceClassRules } from '../resource/deviceclass/validation.ts';
import { resourceClaimRules } from '../resource/resourceclaim/validation.ts';
import { resourceClaimTemplateRules } from '../resource/resourceclaimtemplate/validation.ts';
import { resourceSliceRules } from '../resource/resourceslice/validation.ts';
import { eventRulesByRequest } from '../core/event/validation.ts';
import { endpointsRules } from '../core/endpoints/validation.ts';
import { endpointSliceRules } from '../discovery/endpointslice/validation.ts';

const defaulters: Readonly<Record<string, Defaulter>> = {
  ...podDefaulters,
  ...podTemplateDefaulters,
  ...replicationControllerDefaulters,
  ...deploymentDefaulters,
  ...replicaSetDefaulters,
  ...statefulSetDefaulters,
  ...daemonSetDefaulters,
  ...jobDefaulters,
  ...cronJobDefaulters,
  '/v1/services': defaultService,
  ...secretDefaulters,
  ...persistentVolumeDefaulters,
  ...persistentVolumeClaimDefaulters,
  ...nodeDefaulters,
  ...endpointsDefaulters,
  ...limitRangeDefaulters,
  ...networkPolicyDefaulters,
  ...ingressClassDefaulters,
  ...roleBindingDefaulters,
  ...hpaDefaulters,
  ...storageClassDefaulters,
  ...csiDriverDefaulters,
  ...volumeAttachmentDefaulters,
  ...priorityClassDefaulters,
  ...endpointSliceDefaulters,
  ...resourceClaimDefaulters,
  ...resourceSliceDefaulters,
  ...flowSchemaDefaulters,
  ...priorityLevelConfigurationDefaulters,
};

const rules: Readonly<Record<string, NativeRules>> = {
  '/services': serviceRules,
  '/pods': podRules,
  '/podtemplates': podTemplateRules,
  '/replicationcontrollers': replicationControllerRules,
  'apps/deployments': deploymentRules,
  'apps/replicasets': replicaSetRules,
  'apps/statefulsets': statefulSetRules,
  'apps/daemonsets': daemonSetRules,
  'batch/jobs': jobRules,
  'batch/cronjobs': cronJobRules,
  '/configmaps': configMapRules,
  '/secrets': secretRules,
  '/serviceaccounts': serviceAccountRules,
  'rbac.authorization.k8s.io/roles': roleRules,
  'rbac.authorization.k8s.io/clusterroles': clusterRoleRules,
  'rbac.authorization.k8s.io/rolebindings': roleBindingRules,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindingRules,
  'scheduling.k8s.io/priorityclasses': priorityClassRules,
  'coordination.k8s.io/leases': leaseRules,
  'policy/poddisruptionbudgets': podDisruptionBudgetRules,
  'storage.k8s.io/storageclasses': storageClassRules,
  'networking.k8s.io/ingressclasses': ingressClassRules,
  'networking.k8s.io/ingresses': ingressRules,
  'networking.k8s.io/networkpolicies': networkPolicyRules,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerRules,
  '/persistentvolumeclaims': persistentVolumeClaimRules,
  '/persistentvolumes': persistentVolumeRules,
  'resource.k8s.io/deviceclasses': deviceClassRules,
  'resource.k8s.io/resourceclaims': resourceClaimRules,
  'resource.k8s.io/resourceclaimtemplates': resourceClaimTemplateRules,
  'resource.k8s.io/resourceslices': resourceSliceRules,
  // events.k8s.io/v1 writes reach the core store too, with their group in the request context.
  '/events': eventRulesByRequest,
  '/endpoints': endpointsRules,
  'discovery.k8s.io/endpointslices': endpointSliceRules,
};

/** The defaulting of a group-version's resource (MUTATES the object), or undefined when it has none. */
export function defaultsOf(group: string, version: string, resource: string): Defaulter | undefined {
  return defaulters[`${group}/${version}/${resource}`];
}

/** A kind's native rules, or undefined when it has none (its schema's checks then stand in). */
export function nativeRulesOf(group: string, resource: string): NativeRules | undefined {
  return rules[`${group}/${resource}`];
}

/** The kind's work around its writes over `store` (reads upstream's strategies make through clients), or undefined. */
export function writeHooksOf(group: string, resource: string, store: Store): WriteHooks | undefined {
  return group === 'resource.k8s.io' ? resourceWriteHooks[resource]?.(store) : undefined;
}
