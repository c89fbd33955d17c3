/**
 * The scale subresource of custom resources (apiextensions' ScaleREST): an autoscaling/v1 Scale
 * read from the CRD's replica and selector paths, and a Scale written back onto the resource
 * (spec replicas, and the Scale's resourceVersion as the update's precondition). The resource is
 * then updated through the main strategy, whose validation checks the replicas.
 */
import { newBadRequest, newNotFound } from '../../apimachinery/index.ts';
import { metaOf } from '../meta.ts';
import type { ApplyRequest, Obj, RESTStore, UpdateOptions } from '../rest.ts';
import { nestedInt64, nestedString, setNestedField, splitJSONPath } from './nested.ts';
import type { ScaleSpec } from './strategy.ts';

/** A Scale's metadata: the scaled object's name, namespace, uid, resourceVersion and creationTimestamp. */
export function scaleMetadata(obj: Obj): Record<string, unknown> {
  const m = metaOf(obj);
  const metadata: Record<string, unknown> = { name: m.name };
  if (m.namespace) metadata.namespace = m.namespace;
  if (m.uid) metadata.uid = m.uid;
  if (m.resourceVersion) metadata.resourceVersion = m.resourceVersion;
  metadata.creationTimestamp = m.creationTimestamp ?? null;
  return metadata;
}

/** scaleFromCustomResource; accessor errors become a 500 as upstream returns them unwrapped. */
export function scaleFromCustomResource(cr: Obj, spec: ScaleSpec): Obj {
  const specReplicas = nestedInt64(cr, splitJSONPath(spec.specReplicasPath));
  if (specReplicas.error) throw new Error(specReplicas.error);
  const statusReplicas = nestedInt64(cr, splitJSONPath(spec.statusReplicasPath));
  if (statusReplicas.error) throw new Error(statusReplicas.error);
  let selector = '';
  if (spec.labelSelectorPath) {
    const s = nestedString(cr, splitJSONPath(spec.labelSelectorPath));
    if (s.error) throw new Error(s.error);
    selector = s.value;
  }
  const metadata = scaleMetadata(cr);
  const status: Record<string, unknown> = { replicas: statusReplicas.value | 0 };
  if (selector) status.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: specReplicas.value | 0 },
    status,
  };
}

/** A Scale's spec.replicas (0 when absent); not an integer is the 400 its decoding answers. */
export function scaleSpecReplicas(scale: Obj): number {
  const s = scale.spec as Record<string, unknown> | undefined;
  const replicas = s?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    throw newBadRequest(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`);
  }
  return replicas;
}

/**
 * The resource with the Scale applied (scaleUpdatedObjectInfo): spec replicas set at the CRD's path
 * and, when the Scale carries a resourceVersion, that resourceVersion as the precondition. Mutates
 * and returns `cr`. A Scale whose spec.replicas is not an integer is a 400, as decoding it fails.
 */
export function applyScale(cr: Obj, scale: Obj, spec: ScaleSpec): Obj {
  const replicas = scaleSpecReplicas(scale);
  setNestedField(cr, replicas, splitJSONPath(spec.specReplicasPath));
  const rv = (scale.metadata as Record<string, unknown> | undefined)?.resourceVersion;
  if (typeof rv === 'string' && rv !== '') metaOf(cr).resourceVersion = rv;
  return cr;
}

/**
 * How a kind's objects map to and from their Scale: the CRD's paths for custom resources, the
 * workload's own fields for built-in kinds (builtin/scale.ts).
 */
export interface ScaleMapping {
  /** The Scale of a stored object. */
  toScale(obj: Obj): Obj;
  /** MUTATES and returns obj: the object with the Scale `scale` applied (may refuse it with a StatusError). */
  applyScale(obj: Obj, scale: Obj): Obj;
}

/** The mapping of a CRD version's scale subresource. */
export function customResourceScale(spec: ScaleSpec): ScaleMapping & { spec: ScaleSpec } {
  return { spec, toScale: (cr) => scaleFromCustomResource(cr, spec), applyScale: (cr, scale) => applyScale(cr, scale, spec) };
}

/**
 * The scale subresource's REST (apiextensions' ScaleREST, and the workloads' ScaleREST): reads
 * the resource and answers its Scale; an update computes the new Scale from the current one and
 * writes it back through the main store (whose strategy validates the result). The Scale itself
 * is decoded by the caller.
 */
export class ScaleStore {
  constructor(
    private readonly main: RESTStore,
    readonly mapping: ScaleMapping,
  ) {}

  async get(ns: string | undefined, name: string, opts?: { resourceVersion?: string }): Promise<Obj> {
    return this.mapping.toScale(await this.main.get(ns, name, opts));
  }

  /** `next(currentScale)` gives the Scale to write (a PUT's body, a patch applied to the current Scale). */
  async update(ns: string | undefined, name: string, next: (current: Obj) => Obj, opts: UpdateOptions): Promise<{ scale: Obj; warnings: string[] }> {
    const r = await this.main.update(
      ns,
      name,
      (cur) => {
        if (cur === undefined) throw newNotFound({ group: this.main.info.group, resource: this.main.info.resource }, name);
        return this.mapping.applyScale(cur, next(this.mapping.toScale(cur)));
      },
      // The resource the Scale is mapped onto is stored data: no decoding.
      { ...opts, subresource: 'scale', decoded: true },
    );
    return { scale: this.mapping.toScale(r.object), warnings: r.warnings };
  }

  /**
   * Server-side apply of a Scale: its replicas are applied to the resource, where the mapping puts them, by
   * the resource's field manager for the scale endpoint (what upstream's ScaleHandler does with
   * the Scale's managed fields): the manager owns that one field of the resource, conflicts are
   * with its owners there, and a missing resource is 404 (a subresource never creates).
   */
  async apply(ns: string | undefined, name: string, patch: Obj, req: ApplyRequest, opts: UpdateOptions): Promise<{ scale: Obj; warnings: string[] }> {
    const main = this.main;
    if (patch.apiVersion !== 'autoscaling/v1' || patch.kind !== 'Scale') {
      const av = typeof patch.apiVersion === 'string' ? patch.apiVersion : '';
      const gv = av.includes('/') ? av : `/${av}`;
      throw newBadRequest(`invalid object type: ${gv}, Kind=${typeof patch.kind === 'string' ? patch.kind : ''}`);
    }
    const r = await main.update(
      ns,
      name,
      (cur) => {
        if (cur === undefined) throw newNotFound({ group: main.info.group, resource: main.info.resource }, name);
        const m = metaOf(cur);
        const parent: Obj = { apiVersion: cur.apiVersion, kind: cur.kind, metadata: { name: m.name, ...(m.namespace ? { namespace: m.namespace } : {}) } };
        const replicas = (patch.spec as Record<string, unknown> | undefined)?.replicas;
        if (replicas !== undefined) this.mapping.applyScale(parent, patch);
        delete metaOf(parent).resourceVersion;
        return main.apply!(cur, parent, { ...req, subresource: 'scale' });
      },
      { ...opts, subresource: 'scale', decoded: true, applied: true },
    );
    return { scale: this.mapping.toScale(r.object), warnings: r.warnings };
  }
}
