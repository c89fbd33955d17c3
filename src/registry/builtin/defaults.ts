/**
 * The defaults of built-in kinds that the served behaviour depends on, from their Go defaulters
 * (`pkg/apis/<group>/v1/defaults.go`), applied after decoding requests and stored objects. Only
 * what the subresources read is here so far: a workload without spec.replicas has one replica
 * (SetDefaults_Deployment, _ReplicaSet, _StatefulSet, _ReplicationController), which its Scale
 * reports.
 */
import type { Obj } from '../rest.ts';

/**
 * An object without a spec is left so: Go's struct would be there, zero, but its required
 * fields would then be reported where kube-apiserver's native validation (not served yet)
 * reports them instead.
 */
function defaultReplicas(obj: Obj): void {
  const spec = obj.spec;
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return;
  const s = spec as Record<string, unknown>;
  if (s.replicas === undefined || s.replicas === null) s.replicas = 1;
}

const byResource: Record<string, (obj: Obj) => void> = {
  'apps/deployments': defaultReplicas,
  'apps/replicasets': defaultReplicas,
  'apps/statefulsets': defaultReplicas,
  '/replicationcontrollers': defaultReplicas,
};

/** The defaulting of `group/resource` (MUTATES the object), or undefined when it has none here. */
export function defaultsOf(group: string, resource: string): ((obj: Obj) => void) | undefined {
  return byResource[`${group}/${resource}`];
}
