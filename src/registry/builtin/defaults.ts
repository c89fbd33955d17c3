/**
 * The defaults of built-in kinds that the served behaviour depends on, from their Go defaulters
 * (`pkg/apis/<group>/<version>/defaults.go`), applied after decoding requests and stored objects:
 * a workload without spec.replicas has one replica (SetDefaults_Deployment, _ReplicaSet,
 * _StatefulSet, _ReplicationController), which its Scale reports.
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

/** By `group/version/resource` (listed in `native-index.ts` with the kind folders' defaulters). */
export const legacyDefaulters: Readonly<Record<string, (obj: Obj) => void>> = {
  'apps/v1/deployments': defaultReplicas,
  'apps/v1/replicasets': defaultReplicas,
  'apps/v1/statefulsets': defaultReplicas,
  '/v1/replicationcontrollers': defaultReplicas,
};
