/**
 * The deployment controller (kube-controller-manager's deployment-controller): an informer over
 * Deployments and one over ReplicaSets, a ReplicaSet's events queueing the Deployment that
 * controls it (or, for an orphan, every Deployment in its namespace whose selector matches), and
 * one sync per Deployment (sync.ts). It runs with the other controllers, on the controllers'
 * leader when replicas share etcd.
 */
import { labelSelectorAsSelector, matches, type LabelSelector } from '../../../apimachinery/index.ts';
import type { Obj, RESTStore } from '../../rest.ts';
import { runController, type Controller } from '../loop.ts';
import { metaOf, specOf } from './replicas.ts';
import { syncDeployment } from './sync.ts';

export interface DeploymentControllerOptions {
  onError?: (err: unknown) => void;
}

export function startDeploymentController(deployments: RESTStore, replicaSets: RESTStore, opts: DeploymentControllerOptions = {}): Controller {
  const deploymentCache = new Map<string, Obj>();
  const rsCache = new Map<string, Obj>();
  const replicaSetsIn = (namespace: string): Obj[] => {
    const prefix = `${namespace}/`;
    const out: Obj[] = [];
    for (const [k, rs] of rsCache) if (k.startsWith(prefix)) out.push(rs);
    return out;
  };
  const cachedDeployment = (namespace: string, name: string): Obj | undefined => deploymentCache.get(`${namespace}/${name}`);
  const sync = runController(deployments, (key) => syncDeployment({ deployments, replicaSets, replicaSetsIn, cachedDeployment }, key.namespace!, key.name), {
    cache: deploymentCache,
    onError: (_k, e) => opts.onError?.(e),
  });

  /** The Deployments a ReplicaSet event concerns (addReplicaSet, updateReplicaSet, deleteReplicaSet). */
  const owners = (rs: Obj): { namespace: string; name: string }[] => {
    const m = metaOf(rs);
    const ns = String(m.namespace);
    const refs = Array.isArray(m.ownerReferences) ? (m.ownerReferences as { kind?: string; apiVersion?: string; name?: string; controller?: boolean }[]) : [];
    const ref = refs.find((r) => r.controller === true);
    if (ref) return ref.kind === 'Deployment' && ref.apiVersion === 'apps/v1' && ref.name ? [{ namespace: ns, name: ref.name }] : [];
    const labels = (metaOf(rs).labels ?? {}) as Record<string, string>;
    const out: { namespace: string; name: string }[] = [];
    for (const [k, d] of deploymentCache) {
      if (!k.startsWith(`${ns}/`)) continue;
      if (matches(labelSelectorAsSelector(specOf(d).selector as LabelSelector), labels)) out.push({ namespace: ns, name: String(metaOf(d).name) });
    }
    return out;
  };
  const watchReplicaSets = runController(replicaSets, async () => {}, {
    cache: rsCache,
    related: (_type, rs) => {
      for (const k of owners(rs)) sync.enqueue(k);
      return [];
    },
  });
  return {
    enqueue: (key) => sync.enqueue(key),
    idle: async () => {
      await watchReplicaSets.idle();
      await sync.idle();
    },
    stop() {
      watchReplicaSets.stop();
      sync.stop();
    },
  };
}
