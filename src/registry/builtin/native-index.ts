/**
 * The built-in kinds' own semantics, one entry per kind folder: defaulters by
 * `group/version/resource` of the served version, native rules by `group/resource` (the rules
 * run on the object in its storage version, as upstream's run on the internal type).
 *
 * A kind's folder is imported on the kind's first use, not at startup: `loadKindSemantics` is
 * awaited by the kind's store before its first operation (GenericStoreConfig.ready), and the
 * synchronous lookups below then find what it loaded. Most runs touch a few kinds (`validate` of
 * a ConfigMap loads one folder, not the ~120 modules of all of them, pod specs among them).
 */
import type { Defaulter, NativeRules } from './native.ts';
import type { Store } from '../../storage/index.ts';
import type { WriteHooks } from '../generic-store.ts';
import { resourceWriteHooks } from '../resource/admin-access.ts';

/** Where a kind folder's defaulters (by `group/version/resource`) and native rules are imported from. */
interface KindFolder {
  defaulters?: () => Promise<Readonly<Record<string, Defaulter>>>;
  rules?: () => Promise<NativeRules>;
}

/** What a kind folder brought, once loaded. */
interface KindSemantics {
  defaulters?: Readonly<Record<string, Defaulter>>;
  rules?: NativeRules;
}

/** The kind folders by `group/resource` (events.k8s.io/v1 writes reach the core `/events` rules, with their group in the request context). */
const folders: Readonly<Record<string, KindFolder>> = {
  '/pods': { defaulters: () => import('../core/pod/defaults.ts').then((m) => m.podDefaulters), rules: () => import('../core/pod/rules.ts').then((m) => m.podRules) },
  '/podtemplates': { defaulters: () => import('../core/podtemplate/defaults.ts').then((m) => m.podTemplateDefaulters), rules: () => import('../core/podtemplate/rules.ts').then((m) => m.podTemplateRules) },
  '/replicationcontrollers': { defaulters: () => import('../core/replicationcontroller/defaults.ts').then((m) => m.replicationControllerDefaulters), rules: () => import('../core/replicationcontroller/rules.ts').then((m) => m.replicationControllerRules) },
  '/services': { defaulters: () => import('../core/service/defaults.ts').then((m) => ({ '/v1/services': m.defaultService })), rules: () => import('../core/service/rules.ts').then((m) => m.serviceRules) },
  '/secrets': { defaulters: () => import('../core/secret/defaults.ts').then((m) => m.secretDefaulters), rules: () => import('../core/secret/validation.ts').then((m) => m.secretRules) },
  '/persistentvolumes': { defaulters: () => import('../core/persistentvolume/defaults.ts').then((m) => m.persistentVolumeDefaulters), rules: () => import('../core/persistentvolume/validation.ts').then((m) => m.persistentVolumeRules) },
  '/persistentvolumeclaims': { defaulters: () => import('../core/persistentvolumeclaim/defaults.ts').then((m) => m.persistentVolumeClaimDefaulters), rules: () => import('../core/persistentvolumeclaim/validation.ts').then((m) => m.persistentVolumeClaimRules) },
  '/nodes': { defaulters: () => import('../core/node/defaults.ts').then((m) => m.nodeDefaulters) },
  '/endpoints': { defaulters: () => import('../core/endpoints/defaults.ts').then((m) => m.endpointsDefaulters), rules: () => import('../core/endpoints/validation.ts').then((m) => m.endpointsRules) },
  '/limitranges': { defaulters: () => import('../core/limitrange/defaults.ts').then((m) => m.limitRangeDefaulters) },
  '/configmaps': { rules: () => import('../core/configmap/validation.ts').then((m) => m.configMapRules) },
  '/serviceaccounts': { rules: () => import('../core/serviceaccount/validation.ts').then((m) => m.serviceAccountRules) },
  '/events': { rules: () => import('../core/event/validation.ts').then((m) => m.eventRulesByRequest) },
  'apps/deployments': { defaulters: () => import('../apps/deployment/defaults.ts').then((m) => m.deploymentDefaulters), rules: () => import('../apps/deployment/rules.ts').then((m) => m.deploymentRules) },
  'apps/replicasets': { defaulters: () => import('../apps/replicaset/defaults.ts').then((m) => m.replicaSetDefaulters), rules: () => import('../apps/replicaset/rules.ts').then((m) => m.replicaSetRules) },
  'apps/statefulsets': { defaulters: () => import('../apps/statefulset/defaults.ts').then((m) => m.statefulSetDefaulters), rules: () => import('../apps/statefulset/rules.ts').then((m) => m.statefulSetRules) },
  'apps/daemonsets': { defaulters: () => import('../apps/daemonset/defaults.ts').then((m) => m.daemonSetDefaulters), rules: () => import('../apps/daemonset/rules.ts').then((m) => m.daemonSetRules) },
  'batch/jobs': { defaulters: () => import('../batch/job/defaults.ts').then((m) => m.jobDefaulters), rules: () => import('../batch/job/rules.ts').then((m) => m.jobRules) },
  'batch/cronjobs': { defaulters: () => import('../batch/cronjob/defaults.ts').then((m) => m.cronJobDefaulters), rules: () => import('../batch/cronjob/rules.ts').then((m) => m.cronJobRules) },
  'networking.k8s.io/networkpolicies': { defaulters: () => import('../networking/networkpolicy/defaults.ts').then((m) => m.networkPolicyDefaulters), rules: () => import('../networking/networkpolicy/validation.ts').then((m) => m.networkPolicyRules) },
  'networking.k8s.io/ingressclasses': { defaulters: () => import('../networking/ingressclass/defaults.ts').then((m) => m.ingressClassDefaulters), rules: () => import('../networking/ingressclass/validation.ts').then((m) => m.ingressClassRules) },
  'networking.k8s.io/ingresses': { rules: () => import('../networking/ingress/validation.ts').then((m) => m.ingressRules) },
  'rbac.authorization.k8s.io/roles': { rules: () => import('../rbac/role/validation.ts').then((m) => m.roleRules) },
  'rbac.authorization.k8s.io/clusterroles': { rules: () => import('../rbac/clusterrole/validation.ts').then((m) => m.clusterRoleRules) },
  'rbac.authorization.k8s.io/rolebindings': { defaulters: () => import('../rbac/rolebinding/defaults.ts').then((m) => m.roleBindingDefaulters), rules: () => import('../rbac/rolebinding/validation.ts').then((m) => m.roleBindingRules) },
  'rbac.authorization.k8s.io/clusterrolebindings': { defaulters: () => import('../rbac/rolebinding/defaults.ts').then((m) => m.roleBindingDefaulters), rules: () => import('../rbac/clusterrolebinding/validation.ts').then((m) => m.clusterRoleBindingRules) },
  'autoscaling/horizontalpodautoscalers': { defaulters: () => import('../autoscaling/horizontalpodautoscaler/defaults.ts').then((m) => m.hpaDefaulters), rules: () => import('../autoscaling/horizontalpodautoscaler/validation.ts').then((m) => m.horizontalPodAutoscalerRules) },
  'storage.k8s.io/storageclasses': { defaulters: () => import('../storage/storageclass/defaults.ts').then((m) => m.storageClassDefaulters), rules: () => import('../storage/storageclass/validation.ts').then((m) => m.storageClassRules) },
  'storage.k8s.io/csidrivers': { defaulters: () => import('../storage/csidriver/defaults.ts').then((m) => m.csiDriverDefaulters) },
  'storage.k8s.io/volumeattachments': { defaulters: () => import('../storage/volumeattachment/defaults.ts').then((m) => m.volumeAttachmentDefaulters) },
  'scheduling.k8s.io/priorityclasses': { defaulters: () => import('../scheduling/priorityclass/defaults.ts').then((m) => m.priorityClassDefaulters), rules: () => import('../scheduling/priorityclass/validation.ts').then((m) => m.priorityClassRules) },
  'coordination.k8s.io/leases': { rules: () => import('../coordination/lease/validation.ts').then((m) => m.leaseRules) },
  'policy/poddisruptionbudgets': { rules: () => import('../policy/poddisruptionbudget/validation.ts').then((m) => m.podDisruptionBudgetRules) },
  'discovery.k8s.io/endpointslices': { defaulters: () => import('../discovery/endpointslice/defaults.ts').then((m) => m.endpointSliceDefaulters), rules: () => import('../discovery/endpointslice/validation.ts').then((m) => m.endpointSliceRules) },
  'resource.k8s.io/deviceclasses': { rules: () => import('../resource/deviceclass/validation.ts').then((m) => m.deviceClassRules) },
  'resource.k8s.io/resourceclaims': { defaulters: () => import('../resource/resourceclaim/defaults.ts').then((m) => m.resourceClaimDefaulters), rules: () => import('../resource/resourceclaim/validation.ts').then((m) => m.resourceClaimRules) },
  'resource.k8s.io/resourceclaimtemplates': { defaulters: () => import('../resource/resourceclaim/defaults.ts').then((m) => m.resourceClaimDefaulters), rules: () => import('../resource/resourceclaimtemplate/validation.ts').then((m) => m.resourceClaimTemplateRules) },
  'resource.k8s.io/resourceslices': { defaulters: () => import('../resource/resourceslice/defaults.ts').then((m) => m.resourceSliceDefaulters), rules: () => import('../resource/resourceslice/validation.ts').then((m) => m.resourceSliceRules) },
  'flowcontrol.apiserver.k8s.io/flowschemas': { defaulters: () => import('../flowcontrol/flowschema/defaults.ts').then((m) => m.flowSchemaDefaulters) },
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': { defaulters: () => import('../flowcontrol/prioritylevelconfiguration/defaults.ts').then((m) => m.priorityLevelConfigurationDefaulters) },
};

const loaded = new Map<string, KindSemantics>();
const loading = new Map<string, Promise<void>>();

/**
 * Imports the folder of `group/resource` once; undefined when it is loaded already or the kind has
 * no folder (nothing to wait for).
 */
export function loadKindSemantics(group: string, resource: string): Promise<void> | undefined {
  const key = `${group}/${resource}`;
  const folder = folders[key];
  if (folder === undefined || loaded.has(key)) return undefined;
  let p = loading.get(key);
  if (p === undefined) {
    p = Promise.all([folder.defaulters?.(), folder.rules?.()]).then(([defaulters, rules]) => {
      loaded.set(key, { ...(defaulters ? { defaulters } : {}), ...(rules ? { rules } : {}) });
      loading.delete(key);
    });
    loading.set(key, p);
  }
  return p;
}

/** Imports every kind folder (for callers that look kinds up without a store of theirs: tests, tables of every kind). */
export async function loadAllKindSemantics(): Promise<void> {
  await Promise.all(Object.keys(folders).map((key) => loadKindSemantics(key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1))));
}

/** What the folder of `group/resource` brought; undefined when the kind has none. A kind used before its folder is loaded is a bug, and throws. */
function semanticsOf(group: string, resource: string): KindSemantics | undefined {
  const key = `${group}/${resource}`;
  if (folders[key] === undefined) return undefined;
  const s = loaded.get(key);
  if (s === undefined) throw new Error(`the semantics of ${key} are used before loadKindSemantics`);
  return s;
}

/** The defaulting of a group-version's resource (MUTATES the object), or undefined when it has none. The kind's folder must be loaded. */
export function defaultsOf(group: string, version: string, resource: string): Defaulter | undefined {
  return semanticsOf(group, resource)?.defaulters?.[`${group}/${version}/${resource}`];
}

/** A kind's native rules, or undefined when it has none (its schema's checks then stand in). The kind's folder must be loaded. */
export function nativeRulesOf(group: string, resource: string): NativeRules | undefined {
  return semanticsOf(group, resource)?.rules;
}

/** The kind's work around its writes over `store` (reads upstream's strategies make through clients), or undefined. */
export function writeHooksOf(group: string, resource: string, store: Store): WriteHooks | undefined {
  return group === 'resource.k8s.io' ? resourceWriteHooks[resource]?.(store) : undefined;
}
