/**
 * core/v1 Pod defaulting (the generated SetObjectDefaults_Pod): SetDefaults_Pod first — a
 * container's (or init container's) limits copied into its requests where it requests nothing
 * of that resource (only a Pod gets this: templates keep what they say), the pod-level
 * resources' defaults (`pod-level-resources.ts`), enableServiceLinks true, and with hostNetwork every container port's hostPort its containerPort — then the pod
 * spec's defaults (`../podspec/`) and the containers' status resource lists at milli precision.
 */
import type { Defaulter } from '../../builtin/native.ts';
import { defaultPodSpec, defaultResourceList, isRec, items, ptr, struct, type Rec } from '../podspec/defaults.ts';
import { defaultPodLevelResources } from './pod-level-resources.ts';

/** Requests defaulted from limits, for the resources a container limits but does not request. */
function requestsFromLimits(c: Rec): void {
  const resources = ptr(c, 'resources');
  const limits = resources && ptr(resources, 'limits');
  if (!resources || !limits) return;
  const requests = struct(resources, 'requests');
  for (const [name, q] of Object.entries(limits)) if (!(name in requests)) requests[name] = q;
}

/** defaultHostNetworkPorts: a port without a hostPort takes its containerPort. */
function hostNetworkPorts(containers: Rec[]): void {
  for (const c of containers) {
    for (const port of items(c, 'ports')) {
      if (port.hostPort === undefined || port.hostPort === null || port.hostPort === 0) port.hostPort = port.containerPort;
    }
  }
}

/** SetDefaults_Pod. MUTATES `spec`. */
function defaultPodOnly(spec: Rec): void {
  const containers = items(spec, 'containers');
  const initContainers = items(spec, 'initContainers');
  for (const c of containers) requestsFromLimits(c);
  for (const c of initContainers) requestsFromLimits(c);
  // After the containers' requests: pod-level requests aggregate them.
  defaultPodLevelResources(spec);
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    hostNetworkPorts(containers);
    hostNetworkPorts(initContainers);
  }
}

/** The resource lists a container status reports (in-place resize), at milli precision. */
function defaultStatusResources(status: unknown): void {
  if (!isRec(status)) return;
  for (const key of ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses']) {
    for (const s of items(status, key)) {
      defaultResourceList(s, 'allocatedResources');
      const resources = ptr(s, 'resources');
      defaultResourceList(resources, 'limits');
      defaultResourceList(resources, 'requests');
    }
  }
}

/** SetObjectDefaults_Pod. MUTATES the object. */
export const defaultPod: Defaulter = (obj) => {
  const spec = struct(obj, 'spec');
  defaultPodOnly(spec);
  defaultPodSpec(spec);
  defaultStatusResources(obj.status);
};

export const podDefaulters: Readonly<Record<string, Defaulter>> = { '/v1/pods': defaultPod };
