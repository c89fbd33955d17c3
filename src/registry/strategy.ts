/**
 * The per-kind behaviour the generic store is parameterised by — k8s.io/apiserver's
 * RESTCreateStrategy, RESTUpdateStrategy and RESTDeleteStrategy folded into one interface, plus
 * the attribute function for field selectors and the hooks a kind needs around deletion
 * (Namespace keeps itself while `spec.finalizers` is non-empty).
 *
 * Strategies mutate the object they are given (as upstream's do); the store hands them copies.
 */
import type { FieldError } from '../apimachinery/index.ts';
import { newBadRequest } from '../apimachinery/index.ts';
import type { DeleteOptions, FieldValidation, Obj, Subresource } from './rest.ts';
import type { GarbageCollectionPolicy } from './deletion/propagation.ts';
import { deepCopy, getLabels, getName, getNamespace, metaOf } from './meta.ts';

/** Per-request state a strategy may read and add to. */
export interface RequestContext {
  /** Warnings for the client (`Warning` headers); strategies append. */
  warnings: string[];
  fieldValidation: FieldValidation;
  dryRun: boolean;
  /** The subresource being written, if any. */
  subresource?: Subresource;
  /**
   * The API group of the endpoint the request came through, where it serves another group's
   * storage (events.k8s.io/v1 Events are core Events): rules that depend on the request's
   * version read it, as upstream's strategies read the request info. Absent: the store's own group.
   */
  requestGroup?: string;
  /**
   * Strict decoding errors the body's decoding found (`duplicate field "x"`), not yet reported:
   * the strategy reports them with the unknown fields it drops (reportStrictDecoding), as one
   * strict decoding error; the store reports what is left after prepareForCreate/Update.
   */
  decodeErrors?: string[];
}

/**
 * Reports the request's strict decoding errors and the unknown fields dropped from its object
 * (paths), per fieldValidation: Strict fails with one 400 listing them all (as
 * apiextensions-apiserver's schemaCoercingDecoder does: the decoder's errors, then the unknown
 * fields), Warn adds one warning each, Ignore drops them.
 */
export function reportStrictDecoding(ctx: RequestContext, unknownPaths: readonly string[]): void {
  const msgs = [...(ctx.decodeErrors ?? []), ...unknownPaths.map((p) => `unknown field ${JSON.stringify(p)}`)];
  ctx.decodeErrors = undefined;
  if (msgs.length === 0 || ctx.fieldValidation === 'Ignore') return;
  if (ctx.fieldValidation === 'Strict') throw newBadRequest(`strict decoding error: ${msgs.join(', ')}`);
  ctx.warnings.push(...msgs);
}

/** What label and field selectors match against (storage.AttrFunc). */
export interface Attrs {
  labels: Record<string, string>;
  fields: Record<string, string>;
}

export interface Strategy {
  /** NamespaceScoped(): the object must live in a namespace. */
  readonly namespaced: boolean;
  /** AllowCreateOnUpdate(): a PUT of a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /** AllowUnconditionalUpdate(): an update without metadata.resourceVersion is applied to the latest. */
  readonly allowUnconditionalUpdate: boolean;
  /** Store.ReturnDeletedObject: a completed delete answers with the object instead of a Status. */
  readonly returnDeletedObject: boolean;
  /** Field selector labels besides metadata.name and metadata.namespace. */
  readonly selectableFields: readonly string[];

  /** Normalise a new object before validation (clear status, set generation, ...). */
  prepareForCreate(ctx: RequestContext, obj: Obj): void;
  /** Normalise an updated object against the stored one before validation. */
  prepareForUpdate(ctx: RequestContext, obj: Obj, old: Obj): void;
  /** Kind-specific validation on create; ObjectMeta is validated by the store afterwards. */
  validate(ctx: RequestContext, obj: Obj): FieldError[];
  /** Kind-specific validation on update; ObjectMeta (and its update rules) are validated by the store. */
  validateUpdate(ctx: RequestContext, obj: Obj, old: Obj): FieldError[];
  warningsOnCreate(ctx: RequestContext, obj: Obj): string[];
  warningsOnUpdate(ctx: RequestContext, obj: Obj, old: Obj): string[];
  /** Mutate a valid object into its canonical stored form. */
  canonicalize(obj: Obj): void;
  /** Attributes for selectors. */
  getAttrs(obj: Obj): Attrs;
  /** Applied to every object read from storage before it is returned (read-time defaulting). */
  decorate?(obj: Obj): void;

  /** Strategies used when writing through a subresource (upstream's separate status/scale strategies). */
  subresourceStrategy?(sub: Subresource): Strategy | undefined;

  /** DefaultGarbageCollectionPolicy (absent: DeleteDependents). */
  readonly garbageCollectionPolicy?: GarbageCollectionPolicy;
  /** Warnings for a delete (Job's REST warns when its pods will be kept). */
  warningsOnDelete?(opts: DeleteOptions): string[];

  /** True when the object must be kept (not removed) even with no metadata.finalizers left. */
  hasPendingFinalization?(obj: Obj): boolean;
  /** Extra changes when a delete marks the object as deleting (e.g. Namespace phase Terminating). */
  onMarkDeleting?(obj: Obj): void;
}

/** DefaultNamespaceScopedAttr / DefaultClusterScopedAttr plus the declared selectable fields. */
export function defaultAttrs(obj: Obj, namespaced: boolean, extra?: (obj: Obj) => Record<string, string>): Attrs {
  const fields: Record<string, string> = { 'metadata.name': getName(obj) };
  if (namespaced) fields['metadata.namespace'] = getNamespace(obj);
  if (extra) Object.assign(fields, extra(obj));
  return { labels: getLabels(obj), fields };
}

/** Defaults for the optional parts, so a strategy can list only what it changes. */
export const strategyDefaults = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  returnDeletedObject: false,
  selectableFields: [] as readonly string[],
  prepareForCreate(_ctx: RequestContext, _obj: Obj): void {},
  prepareForUpdate(_ctx: RequestContext, _obj: Obj, _old: Obj): void {},
  validate(_ctx: RequestContext, _obj: Obj): FieldError[] {
    return [];
  },
  validateUpdate(_ctx: RequestContext, _obj: Obj, _old: Obj): FieldError[] {
    return [];
  },
  warningsOnCreate(_ctx: RequestContext, _obj: Obj): string[] {
    return [];
  },
  warningsOnUpdate(_ctx: RequestContext, _obj: Obj, _old: Obj): string[] {
    return [];
  },
  canonicalize(_obj: Obj): void {},
};

/**
 * A status subresource's update (MUTATES obj): the object becomes the stored one except for its
 * status and managedFields, which are the request's — nothing else changes through /status.
 */
export function keepOnlyStatus(obj: Obj, old: Obj): void {
  const hasStatus = 'status' in obj;
  const status = obj.status;
  const managedFields = metaOf(obj).managedFields;
  for (const k of Object.keys(obj)) delete obj[k];
  Object.assign(obj, deepCopy(old));
  const m = metaOf(obj);
  if (managedFields !== undefined) m.managedFields = managedFields;
  else delete m.managedFields;
  if (hasStatus) obj.status = status;
  else delete obj.status;
}
