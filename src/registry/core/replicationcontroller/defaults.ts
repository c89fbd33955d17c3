/**
 * core/v1 ReplicationController defaulting (SetObjectDefaults_ReplicationController):
 * SetDefaults_ReplicationController — with a template that has labels, an empty selector and
 * empty object labels take the template's labels — then the declarative `replicas` default 1,
 * and the template's pod spec defaults (the template is a pointer: none without one).
 */
import type { Defaulter } from '../../builtin/native.ts';
import { defaultPodTemplateSpec, defaultPtr, isEmpty, isRec, ptr, struct } from '../podspec/defaults.ts';

/** SetObjectDefaults_ReplicationController. MUTATES the object. */
export const defaultReplicationController: Defaulter = (obj) => {
  const spec = struct(obj, 'spec');
  const template = ptr(spec, 'template');
  const metadata = template && ptr(template, 'metadata');
  const labels = metadata?.labels;
  // An empty map copied would change nothing a client sees (Go omits empty maps).
  if (isRec(labels) && Object.keys(labels).length > 0) {
    if (isEmpty(spec, 'selector')) spec.selector = { ...labels };
    const meta = struct(obj, 'metadata');
    if (isEmpty(meta, 'labels')) meta.labels = { ...labels };
  }
  defaultPtr(spec, 'replicas', 1);
  if (template) defaultPodTemplateSpec(template);
};

export const replicationControllerDefaulters: Readonly<Record<string, Defaulter>> = {
  '/v1/replicationcontrollers': defaultReplicationController,
};
