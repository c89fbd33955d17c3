/**
 * The pod spec defaulter every kind with a pod template calls (core/v1's generated
 * SetObjectDefaults_PodTemplate and the pod-template parts of the apps/v1 and batch/v1 ones):
 * SetDefaults_PodSpec (dnsPolicy ClusterFirst, restartPolicy Always, an empty securityContext,
 * terminationGracePeriodSeconds 30, schedulerName default-scheduler), then the volumes', init
 * containers', containers' and ephemeral containers' defaults, the overhead and the pod-level
 * resources rounded to milli precision. What only a Pod gets (SetDefaults_Pod: requests from
 * limits, enableServiceLinks, host ports) is in `../pod/`.
 */
import { defaultContainer } from './containers.ts';
import { defaultPtr, defaultZero, items, ptr, struct, type Rec } from './go-fields.ts';
import { defaultResourceList } from './resource-list.ts';
import { defaultVolume } from './volumes.ts';

export { defaultClaimSpec } from './volumes.ts';
export { defaultResourceList } from './resource-list.ts';
export { isEmpty, isNil, isRec, items, ptr, struct, defaultPtr, defaultZero, type Rec } from './go-fields.ts';

/** SetDefaults_PodSpec and the defaults of everything a pod spec holds. MUTATES `spec`. */
export function defaultPodSpec(spec: Rec): void {
  defaultZero(spec, 'dnsPolicy', 'ClusterFirst');
  defaultZero(spec, 'restartPolicy', 'Always');
  defaultPtr(spec, 'securityContext', {});
  defaultPtr(spec, 'terminationGracePeriodSeconds', 30);
  defaultZero(spec, 'schedulerName', 'default-scheduler');
  for (const v of items(spec, 'volumes')) defaultVolume(v);
  for (const c of items(spec, 'initContainers')) defaultContainer(c);
  for (const c of items(spec, 'containers')) defaultContainer(c);
  for (const c of items(spec, 'ephemeralContainers')) defaultContainer(c);
  defaultResourceList(spec, 'overhead');
  const resources = ptr(spec, 'resources');
  defaultResourceList(resources, 'limits');
  defaultResourceList(resources, 'requests');
}

/**
 * The defaults of a PodTemplateSpec held in a struct field (Deployment, Job, ...: the template
 * and its spec are not pointers, so their defaults apply even where the JSON has none). MUTATES `template`.
 */
export function defaultPodTemplateSpec(template: Rec): void {
  defaultPodSpec(struct(template, 'spec'));
}
