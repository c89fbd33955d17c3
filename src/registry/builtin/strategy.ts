/**
 * The strategy every built-in kind served from OpenAPI starts from (the common part of
 * kube-apiserver's `pkg/registry/<group>/<kind>/strategy.go`): with a status subresource, creates
 * start without status, main-resource updates keep the stored status and status updates change
 * only status; kinds that track generation start at 1 and count spec changes; names are checked
 * with the kind's name rule; then the kind's OpenAPI schema and list-type sets and maps. Each
 * kind's own defaults and native rules come on top of this, in its own folder.
 */
import type { FieldError } from '../../apimachinery/index.ts';
import { nameIsDNS1035Label, nameIsDNSSubdomain, validatePathSegmentName, type ValidateNameFunc } from '../../apimachinery/index.ts';
import type { CompiledSchema } from '../../schema/index.ts';
import { deepCopy, jsonEqual, metaOf } from '../meta.ts';
import { validateObjectMetaUpdateOnly, validateObjectMetaWith } from '../objectmeta-checks.ts';
import type { Obj, Subresource } from '../rest.ts';
import { defaultAttrs, keepOnlyStatus, strategyDefaults, type Attrs, type RequestContext, type Strategy } from '../strategy.ts';
import type { BuiltinResource } from './catalog.ts';
import type { EndpointRules } from './native.ts';
import type { GarbageCollectionPolicy } from '../deletion/propagation.ts';
import type { DeleteOptions } from '../rest.ts';
import { nativeRulesOf } from './native-index.ts';

/** Kinds whose strategies set metadata.generation (1 on create, +1 on every spec change). */
const withGeneration = new Set([
  'apps/deployments',
  'apps/replicasets',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
  'batch/cronjobs',
  'policy/poddisruptionbudgets',
  'networking.k8s.io/networkpolicies',
  'networking.k8s.io/ingresses',
  '/replicationcontrollers',
]);

/**
 * DefaultGarbageCollectionPolicy where it is not DeleteDependents: ReplicationControllers in
 * core/v1 and Jobs in batch/v1 orphan their pods unless told otherwise (their behaviour before the
 * collector existed); Events take no part.
 */
/** Kinds whose create keeps the status it is given (nodeStrategy: a kubelet registers its node with its status). */
const statusSetOnCreate = new Set(['/nodes']);

const gcPolicies: Record<string, GarbageCollectionPolicy> = {
  '/replicationcontrollers': 'OrphanDependents',
  'batch/jobs': 'OrphanDependents',
  '/events': 'Unsupported',
};

/** Job's REST warns when a delete leaves its pods to the orphaning default (deleteOptionWarnings). */
const jobDeleteWarning =
  'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

/** Name rules that are not DNS subdomains (ValidateServiceName, ValidateRBACName, ...). */
const nameRules: Record<string, ValidateNameFunc> = {
  '/services': nameIsDNS1035Label,
  'rbac.authorization.k8s.io/roles': validatePathSegmentName,
  'rbac.authorization.k8s.io/rolebindings': validatePathSegmentName,
  'rbac.authorization.k8s.io/clusterroles': validatePathSegmentName,
  'rbac.authorization.k8s.io/clusterrolebindings': validatePathSegmentName,
};

/** Field selectors each kind supports besides metadata.name and metadata.namespace (its ToSelectableFields). */
const selectable: Record<string, readonly string[]> = {
  '/pods': ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  '/secrets': ['type'],
  '/events': [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  '/nodes': ['spec.unschedulable'],
  '/replicationcontrollers': ['status.replicas'],
  'apps/replicasets': ['status.replicas'],
  'batch/jobs': ['status.successful'],
  'certificates.k8s.io/certificatesigningrequests': ['spec.signerName'],
};

/** A selectable field's value as upstream's ToSelectableFields renders it ('' when absent). */
function fieldValue(obj: Obj, label: string): string {
  if (label === 'source') {
    const src = (obj.source ?? {}) as Record<string, unknown>;
    return typeof src.component === 'string' ? src.component : '';
  }
  let v: unknown = obj;
  for (const k of label.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  if (label === 'spec.unschedulable' || label === 'spec.hostNetwork') return v === true ? 'true' : 'false';
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' ? v : label === 'status.replicas' || label === 'status.successful' ? '0' : '';
}

/** Everything but metadata and status: what a generation bump compares. */
function specOf(obj: Obj): unknown {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}

const noErrors: FieldError[] = [];

export class BuiltinStrategy implements Strategy {
  readonly namespaced: boolean;
  readonly allowCreateOnUpdate: boolean = false;
  readonly allowUnconditionalUpdate = true;
  readonly returnDeletedObject = false;
  /** validate runs ValidateObjectMeta with the kind's name rule (ObjectMetaValidatingStrategy). */
  readonly validatesObjectMeta = true;
  readonly selectableFields: readonly string[];
  readonly garbageCollectionPolicy: GarbageCollectionPolicy;
  private readonly key: string;
  private readonly generation: boolean;
  private readonly nameRule: ValidateNameFunc;
  private readonly statusStrategy: Strategy | undefined;
  /** The kind's own rules for this endpoint (its folder's), looked up once its store has loaded them. */
  private ownRules: EndpointRules | null | undefined;

  constructor(
    readonly resource: BuiltinResource,
    /** The kind's compiled schema, compiled when first needed. */
    private readonly schema: () => CompiledSchema,
    private readonly only?: 'status',
  ) {
    this.namespaced = resource.namespaced;
    this.key = `${resource.group}/${resource.resource}`;
    this.generation = withGeneration.has(this.key);
    this.nameRule = nameRules[this.key] ?? nameIsDNSSubdomain;
    this.selectableFields = selectable[this.key] ?? [];
    this.garbageCollectionPolicy = gcPolicies[this.key] ?? 'DeleteDependents';
    this.statusStrategy = resource.hasStatus && only === undefined ? new BuiltinStrategy(resource, schema, 'status') : undefined;
  }

  /** The kind's own rules for this endpoint (its folder's), if it has any. */
  private get rules(): EndpointRules | undefined {
    if (this.ownRules === undefined) {
      const native = nativeRulesOf(this.resource.group, this.resource.resource);
      this.ownRules = (this.only === 'status' ? native?.status : native) ?? null;
    }
    return this.ownRules ?? undefined;
  }

  prepareForCreate(ctx: RequestContext, obj: Obj): void {
    if (this.resource.hasStatus && !statusSetOnCreate.has(this.key)) delete obj.status;
    if (this.generation) metaOf(obj).generation = 1;
    this.rules?.prepareForCreate?.(ctx, obj);
  }

  prepareForUpdate(ctx: RequestContext, obj: Obj, old: Obj): void {
    if (this.only === 'status') {
      const annotations = this.rules?.statusKeepsAnnotations ? metaOf(obj).annotations : undefined;
      keepOnlyStatus(obj, old);
      if (this.rules?.statusKeepsAnnotations) {
        if (annotations === undefined) delete metaOf(obj).annotations;
        else metaOf(obj).annotations = annotations;
      }
    } else {
      if (this.resource.hasStatus) {
        if ('status' in old) obj.status = deepCopy(old.status);
        else delete obj.status;
      }
      if (this.generation && !jsonEqual(specOf(obj), specOf(old))) {
        const g = metaOf(old).generation;
        metaOf(obj).generation = (typeof g === 'number' ? g : 0) + 1;
      }
    }
    this.rules?.prepareForUpdate?.(ctx, obj, old);
  }

  validate(ctx: RequestContext, obj: Obj): FieldError[] {
    const meta = validateObjectMetaWith(obj, this.namespaced, this.nameRule);
    const native = this.rules?.validate;
    if (native) return [...meta, ...native.call(this.rules, ctx, obj)];
    const p = this.schema().validateParts(obj);
    return [...meta, ...p.schema, ...p.structure];
  }

  validateUpdate(ctx: RequestContext, obj: Obj, old: Obj): FieldError[] {
    const meta = validateObjectMetaUpdateOnly(obj, old);
    const native = this.rules?.validateUpdate;
    if (native) {
      const errs = native.call(this.rules, ctx, obj, old);
      return meta.length === 0 && errs.length === 0 ? noErrors : [...meta, ...errs];
    }
    const p = this.schema().validateParts(obj, old);
    return meta.length === 0 && p.schema.length === 0 && p.structure.length === 0 ? noErrors : [...meta, ...p.schema, ...p.structure];
  }

  warningsOnDelete(opts: DeleteOptions): string[] {
    const defaulted = opts.propagationPolicy === undefined && opts.orphanDependents === undefined;
    return this.key === 'batch/jobs' && defaulted ? [jobDeleteWarning] : [];
  }

  warningsOnCreate(ctx: RequestContext, obj: Obj): string[] {
    return this.rules?.warningsOnCreate?.(ctx, obj) ?? strategyDefaults.warningsOnCreate(ctx, obj);
  }

  warningsOnUpdate(ctx: RequestContext, obj: Obj, old: Obj): string[] {
    return this.rules?.warningsOnUpdate?.(ctx, obj, old) ?? strategyDefaults.warningsOnUpdate(ctx, obj, old);
  }
  canonicalize = strategyDefaults.canonicalize;

  getAttrs(obj: Obj): Attrs {
    const fields = this.selectableFields;
    return defaultAttrs(obj, this.namespaced, fields.length === 0 ? undefined : (o) => Object.fromEntries(fields.map((f) => [f, fieldValue(o, f)])));
  }

  subresourceStrategy(sub: Subresource): Strategy | undefined {
    return sub === 'status' ? this.statusStrategy : undefined;
  }
}
