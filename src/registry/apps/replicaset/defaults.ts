/** apps/v1 ReplicaSet defaulting (SetObjectDefaults_ReplicaSet): replicas 1, then the template's pod spec defaults. */
import type { Defaulter } from '../../builtin/native.ts';
import { defaultPodTemplateSpec, defaultPtr, struct } from '../../core/podspec/defaults.ts';

/** SetObjectDefaults_ReplicaSet. MUTATES the object. */
export const defaultReplicaSet: Defaulter = (obj) => {
  const spec = struct(obj, 'spec');
  defaultPtr(spec, 'replicas', 1);
  defaultPodTemplateSpec(struct(spec, 'template'));
};

export const replicaSetDefaulters: Readonly<Record<string, Defaulter>> = { 'apps/v1/replicasets': defaultReplicaSet };
