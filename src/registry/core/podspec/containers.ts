/**
 * The defaults of one container (regular, init or ephemeral: the generated defaulter treats the
 * three alike), in its order: SetDefaults_Container (imagePullPolicy by the image's tag,
 * terminationMessagePath `/dev/termination-log`, terminationMessagePolicy `File`), ports'
 * protocol TCP, env field references' apiVersion v1 (and a file key reference's optional false),
 * the resource lists rounded to milli precision, probes (timeout 1s, period 10s, success 1,
 * failure 3; an HTTP GET's path `/` and scheme HTTP; a gRPC probe's service ""), and the
 * lifecycle hooks' HTTP GETs.
 */
import { defaultPtr, defaultZero, items, ptr, type Rec } from './go-fields.ts';
import { defaultPullPolicy } from './image-pull-policy.ts';
import { defaultResourceList } from './resource-list.ts';
import { defaultFieldRef } from './volumes.ts';

/** SetDefaults_HTTPGetAction on the action at `parent.httpGet`, if there is one. */
function defaultHTTPGet(parent: Rec | undefined): void {
  const get = parent && ptr(parent, 'httpGet');
  if (!get) return;
  defaultZero(get, 'path', '/');
  defaultZero(get, 'scheme', 'HTTP');
}

/** SetDefaults_Probe and its handler's defaults. */
function defaultProbe(probe: Rec | undefined): void {
  if (!probe) return;
  defaultZero(probe, 'timeoutSeconds', 1);
  defaultZero(probe, 'periodSeconds', 10);
  defaultZero(probe, 'successThreshold', 1);
  defaultZero(probe, 'failureThreshold', 3);
  defaultHTTPGet(probe);
  const grpc = ptr(probe, 'grpc');
  if (grpc) defaultPtr(grpc, 'service', '');
}

/** The defaults of one container. MUTATES `c`. */
export function defaultContainer(c: Rec): void {
  defaultZero(c, 'imagePullPolicy', defaultPullPolicy(c.image));
  defaultZero(c, 'terminationMessagePath', '/dev/termination-log');
  defaultZero(c, 'terminationMessagePolicy', 'File');
  for (const port of items(c, 'ports')) defaultZero(port, 'protocol', 'TCP');
  for (const env of items(c, 'env')) {
    const from = ptr(env, 'valueFrom');
    if (!from) continue;
    defaultFieldRef(from);
    const fileKeyRef = ptr(from, 'fileKeyRef');
    if (fileKeyRef) defaultPtr(fileKeyRef, 'optional', false);
  }
  const resources = ptr(c, 'resources');
  defaultResourceList(resources, 'limits');
  defaultResourceList(resources, 'requests');
  defaultProbe(ptr(c, 'livenessProbe'));
  defaultProbe(ptr(c, 'readinessProbe'));
  defaultProbe(ptr(c, 'startupProbe'));
  const lifecycle = ptr(c, 'lifecycle');
  if (lifecycle) {
    defaultHTTPGet(ptr(lifecycle, 'postStart'));
    defaultHTTPGet(ptr(lifecycle, 'preStop'));
  }
}
