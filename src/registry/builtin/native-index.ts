/**
 * The built-in kinds' own semantics, one entry per kind folder: defaulters by
 * `group/version/resource` of the served version, native rules by `group/resource` (the rules
 * run on the object in its storage version, as upstream's run on the internal type).
 */
import type { Defaulter, NativeRules } from './native.ts';
import { legacyDefaulters } from './defaults.ts';
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
import { eventRules } from '../core/event/validation.ts';
import { endpointsRules } from '../core/endpoints/validation.ts';
import { endpointSliceRules } from '../discovery/endpointslice/validation.ts';

const defaulters: Readonly<Record<string, Defaulter>> = {
  ...legacyDefaulters,
};

const rules: Readonly<Record<string, NativeRules>> = {
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
  // events.k8s.io/v1 writes reach the core store too, so they get core/v1's (legacy) rules
  // until the request's group reaches the strategy: eventRules('events.k8s.io') has the strict ones.
  '/events': eventRules(''),
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
