/**
 * The scale subresource of the workloads (the ScaleREST of kube-apiserver's deployment,
 * replicaset, statefulset and replicationcontroller storage): an autoscaling/v1 Scale made from
 * the workload's spec.replicas, status.replicas and selector (a label selector, or the
 * ReplicationController's label map, as its string form), and a Scale written back as the
 * workload's spec.replicas with the Scale's resourceVersion as precondition. The Scale is
 * validated first (ValidateScale), its uid checked against the workload's.
 */
import {
  invalid,
  labelSelectorAsSelector,
  nameIsDNSSubdomain,
  newBadRequest,
  newConflict,
  newInvalid,
  Path,
  selectorFromSet,
  selectorString,
  validateObjectMeta,
  type FieldError,
  type Selector,
} from '../../apimachinery/index.ts';
import { scaleMetadata, scaleSpecReplicas, type ScaleMapping } from '../customresource/scale.ts';
import { metaOf } from '../meta.ts';
import type { Obj } from '../rest.ts';

/** The resources with a scale subresource, and how each reads its selector. */
const selectorOf: Record<string, (spec: Record<string, unknown>) => Selector> = {
  'apps/deployments': (s) => labelSelectorAsSelector(s.selector as never),
  'apps/replicasets': (s) => labelSelectorAsSelector(s.selector as never),
  'apps/statefulsets': (s) => labelSelectorAsSelector(s.selector as never),
  '/replicationcontrollers': (s) => selectorFromSet((s.selector ?? {}) as Record<string, string>),
};

/** True when `group/resource` is a workload whose Scale is served. */
export function hasWorkloadScale(group: string, resource: string): boolean {
  return `${group}/${resource}` in selectorOf;
}

const record = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);

/** The Scale mapping of the workload `group/resource`. */
export function workloadScale(group: string, resource: string): ScaleMapping {
  const selector = selectorOf[`${group}/${resource}`];
  if (!selector) throw new Error(`${group}/${resource} has no scale subresource`);
  const gr = { group, resource: `${resource}/scale` };
  const toScale = (obj: Obj): Obj => {
    const spec = record(obj.spec);
    let sel: string;
    try {
      sel = selectorString(selector(spec));
    } catch (e) {
      // A stored selector that does not convert: upstream answers the conversion's error as a 400.
      throw newBadRequest((e as Error).message);
    }
    const status: Record<string, unknown> = { replicas: int(record(obj.status).replicas) };
    if (sel !== '') status.selector = sel;
    return { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: scaleMetadata(obj), spec: { replicas: int(spec.replicas) }, status };
  };
  const applyScale = (obj: Obj, scale: Obj): Obj => {
    const replicas = scaleSpecReplicas(scale);
    const m = metaOf(obj);
    const sm = record(scale.metadata);
    // The handler fills the request's namespace into the body before the Scale is validated.
    const meta = { ...sm, namespace: sm.namespace ?? m.namespace };
    const errs: FieldError[] = validateObjectMeta(meta, true, nameIsDNSSubdomain, Path.of('metadata'));
    if (replicas < 0) errs.push(invalid(Path.of('spec', 'replicas'), replicas, 'must be greater than or equal to 0'));
    if (errs.length > 0) throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, String(m.name ?? ''), errs);
    const uid = sm.uid;
    if (typeof uid === 'string' && uid !== '' && uid !== m.uid) {
      throw newConflict(gr, String(m.name ?? ''), `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${String(m.uid ?? '')}`);
    }
    obj.spec = { ...record(obj.spec), replicas };
    const rv = sm.resourceVersion;
    if (typeof rv === 'string' && rv !== '') m.resourceVersion = rv;
    return obj;
  };
  return { toScale, applyScale };
}
