/**
 * The Table convertors of the built-in kinds: kube-apiserver's printers
 * (pkg/printers/internalversion) by group and resource, one module per API group, and
 * kube-aggregator's APIService table. A kind whose REST storage upstream uses the default table
 * (Roles, ClusterRoles, LimitRanges, CSIStorageCapacities — the last although a printer exists)
 * keeps Name / Created At.
 *
 * The printers read the object as stored, with no defaults of their own: the kinds' defaults
 * (replicas 1, Service type ClusterIP, ...) belong to the write path.
 */
import { defaultTableConvertor, type TableConvertor } from '../convert.ts';
import { admissionPolicyBindingPrinter, mutatingAdmissionPolicyPrinter, validatingAdmissionPolicyPrinter, webhookConfigurationPrinter } from './admission.ts';
import { apiServicePrinter } from './apiregistration.ts';
import { controllerRevisionPrinter, daemonSetPrinter, deploymentPrinter, replicaSetPrinter, statefulSetPrinter } from './apps.ts';
import { horizontalPodAutoscalerPrinter } from './autoscaling.ts';
import { cronJobPrinter, jobPrinter } from './batch.ts';
import { certificateSigningRequestPrinter } from './certificates.ts';
import { leasePrinter } from './coordination.ts';
import {
  configMapPrinter,
  endpointsPrinter,
  nodePrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  podTemplatePrinter,
  replicationControllerPrinter,
  resourceQuotaPrinter,
  secretPrinter,
  serviceAccountPrinter,
  servicePrinter,
} from './core.ts';
import { eventPrinter, eventsV1Printer } from './events.ts';
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from './flowcontrol.ts';
import { endpointSlicePrinter, ingressClassPrinter, ingressPrinter, ipAddressPrinter, networkPolicyPrinter, serviceCIDRPrinter } from './networking.ts';
import { podPrinter } from './pods.ts';
import { podDisruptionBudgetPrinter } from './policy.ts';
import { nameAgePrinter, resourceClaimPrinter, resourceSlicePrinter } from './resource.ts';
import { clusterRoleBindingPrinter, roleBindingPrinter } from './rbac.ts';
import { priorityClassPrinter, runtimeClassPrinter } from './scheduling.ts';
import { csiDriverPrinter, csiNodePrinter, storageClassPrinter, volumeAttachmentPrinter, volumeAttributesClassPrinter } from './storage.ts';

/** Printers by `group/resource` (the core group is ''). */
const printers: Record<string, TableConvertor> = {
  '/pods': podPrinter,
  '/podtemplates': podTemplatePrinter,
  '/replicationcontrollers': replicationControllerPrinter,
  '/services': servicePrinter,
  '/endpoints': endpointsPrinter,
  '/nodes': nodePrinter,
  '/events': eventPrinter,
  '/secrets': secretPrinter,
  '/serviceaccounts': serviceAccountPrinter,
  '/configmaps': configMapPrinter,
  '/persistentvolumes': persistentVolumePrinter,
  '/persistentvolumeclaims': persistentVolumeClaimPrinter,
  '/resourcequotas': resourceQuotaPrinter,
  'apps/deployments': deploymentPrinter,
  'apps/replicasets': replicaSetPrinter,
  'apps/statefulsets': statefulSetPrinter,
  'apps/daemonsets': daemonSetPrinter,
  'apps/controllerrevisions': controllerRevisionPrinter,
  'batch/jobs': jobPrinter,
  'batch/cronjobs': cronJobPrinter,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerPrinter,
  'policy/poddisruptionbudgets': podDisruptionBudgetPrinter,
  'events.k8s.io/events': eventsV1Printer,
  'networking.k8s.io/ingresses': ingressPrinter,
  'networking.k8s.io/ingressclasses': ingressClassPrinter,
  'networking.k8s.io/networkpolicies': networkPolicyPrinter,
  'networking.k8s.io/servicecidrs': serviceCIDRPrinter,
  'networking.k8s.io/ipaddresses': ipAddressPrinter,
  'discovery.k8s.io/endpointslices': endpointSlicePrinter,
  'rbac.authorization.k8s.io/rolebindings': roleBindingPrinter,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindingPrinter,
  'coordination.k8s.io/leases': leasePrinter,
  'scheduling.k8s.io/priorityclasses': priorityClassPrinter,
  'node.k8s.io/runtimeclasses': runtimeClassPrinter,
  'certificates.k8s.io/certificatesigningrequests': certificateSigningRequestPrinter,
  'flowcontrol.apiserver.k8s.io/flowschemas': flowSchemaPrinter,
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': priorityLevelConfigurationPrinter,
  'storage.k8s.io/storageclasses': storageClassPrinter,
  'storage.k8s.io/volumeattributesclasses': volumeAttributesClassPrinter,
  'storage.k8s.io/volumeattachments': volumeAttachmentPrinter,
  'storage.k8s.io/csidrivers': csiDriverPrinter,
  'storage.k8s.io/csinodes': csiNodePrinter,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': webhookConfigurationPrinter,
  'admissionregistration.k8s.io/validatingwebhookconfigurations': webhookConfigurationPrinter,
  'admissionregistration.k8s.io/validatingadmissionpolicies': validatingAdmissionPolicyPrinter,
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': admissionPolicyBindingPrinter,
  'admissionregistration.k8s.io/mutatingadmissionpolicies': mutatingAdmissionPolicyPrinter,
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings': admissionPolicyBindingPrinter,
  'resource.k8s.io/deviceclasses': nameAgePrinter,
  'resource.k8s.io/resourceclaims': resourceClaimPrinter,
  'resource.k8s.io/resourceclaimtemplates': nameAgePrinter,
  'resource.k8s.io/resourceslices': resourceSlicePrinter,
  'apiregistration.k8s.io/apiservices': apiServicePrinter,
};

/** The Table convertor of a built-in resource: its upstream printer, or the default table. */
export function builtinTableConvertor(group: string, resource: string): TableConvertor {
  return printers[`${group}/${resource}`] ?? defaultTableConvertor;
}

/** The `group/resource` keys that have a printer of their own. */
export function printedResources(): string[] {
  return Object.keys(printers);
}
