/**
 * The scale subresource of custom resources (apiextensions' ScaleREST): an autoscaling/v1 Scale
 * read from the CRD's specReplicasPath, statusReplicasPath and labelSelectorPath, and written
 * back by setting only specReplicasPath (and the resourceVersion precondition it carries).
 */
import { invalid } from '../../apimachinery/field/errors.ts';
import { newBadRequest, newInvalid } from '../../apimachinery/status.ts';
import type { Obj } from '../../registry/rest.ts';
import type { ServedResource } from '../served.ts';

function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter((s) => s !== '');
}

function getPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const s of segments(path)) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Obj)[s];
  }
  return cur;
}

function setPath(obj: Obj, path: string, value: unknown): void {
  const segs = segments(path);
  let cur = obj;
  for (const s of segs.slice(0, -1)) {
    const next = cur[s];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[s] = {};
    cur = cur[s] as Obj;
  }
  cur[segs[segs.length - 1]!] = value;
}

/** The Scale of a custom resource. */
export function toScale(s: ServedResource, obj: Obj): Obj {
  const spec = s.scale!;
  const m = (obj.metadata ?? {}) as Obj;
  const meta: Obj = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp']) if (m[k] !== undefined) meta[k] = m[k];
  const specReplicas = getPath(obj, spec.specReplicasPath);
  const statusReplicas = getPath(obj, spec.statusReplicasPath);
  const status: Obj = { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0 };
  if (spec.labelSelectorPath) {
    const sel = getPath(obj, spec.labelSelectorPath);
    if (typeof sel === 'string' && sel !== '') status.selector = sel;
  }
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: meta,
    spec: { replicas: typeof specReplicas === 'number' ? specReplicas : 0 },
    status,
  };
}

/** Applies a (patched or PUT) Scale to a copy of the current object. */
export function fromScale(s: ServedResource, current: Obj, scale: unknown): Obj {
  if (scale === null || typeof scale !== 'object' || Array.isArray(scale)) throw newBadRequest('expected a Scale object');
  const sc = scale as Obj;
  const spec = (sc.spec ?? {}) as Obj;
  const replicas = spec.replicas ?? 0;
  const name = String(((sc.metadata ?? {}) as Obj).name ?? '');
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    throw newBadRequest(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal into Go struct field ScaleSpec.spec.replicas of type int32`);
  }
  if (replicas < 0) {
    throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, name, [invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
  }
  const next = structuredClone(current);
  setPath(next, s.scale!.specReplicasPath, replicas);
  const rv = ((sc.metadata ?? {}) as Obj).resourceVersion;
  if (typeof rv === 'string' && rv !== '') ((next.metadata ??= {}) as Obj).resourceVersion = rv;
  return next;
}
