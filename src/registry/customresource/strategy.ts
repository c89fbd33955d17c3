/**
 * The strategy for custom resources (apiextensions-apiserver's `pkg/registry/customresource`
 * strategy, status strategy and validator): generation 1 on create and +1 on any change outside
 * metadata; with a status subresource, main-resource writes keep the stored status and status
 * writes change nothing but status; kind/apiVersion and ObjectMeta checks; scale replicas and
 * selector paths checked as upstream. Schema work (prune, default, schema and CEL validation) comes
 * from injected hooks compiled once per CRD version by the schema layer.
 */
import { invalid, type FieldError } from '../../apimachinery/index.ts';
import { nameIsDNSSubdomain } from '../../apimachinery/index.ts';
import { deepCopy, jsonEqual, metaOf } from '../meta.ts';
import { validateObjectMetaUpdateOnly, validateObjectMetaWith } from '../objectmeta-checks.ts';
import type { Obj, Subresource } from '../rest.ts';
import { defaultAttrs, keepOnlyStatus, strategyDefaults, type Attrs, type RequestContext, type Strategy } from '../strategy.ts';
import { nestedField, nestedInt64, nestedString, splitJSONPath } from './nested.ts';

/**
 * The schema layer's compiled checks for one CRD version; each is optional. Decoding (prune,
 * ObjectMeta coercion, defaulting) is the version's codec, run before the strategy.
 */
export interface CustomResourceHooks {
  /**
   * The schema's checks of a new object, or of an update ratcheted against `old`: `schema`, the
   * OpenAPI schema's errors; `structure`, embedded resources' ObjectMeta and list-type set/map
   * uniqueness (reported after the scale checks, as upstream orders them).
   */
  validate?(obj: Obj, old?: Obj): SchemaErrors;
  /**
   * The x-kubernetes-validations rules (transition rules see `old`); `errs` are the errors found
   * so far, which may block the rules (hasBlockingErr) — the rules' errors or the notice are returned.
   */
  validateRules?(obj: Obj, old: Obj | undefined, errs: readonly FieldError[]): FieldError[];
  /** Warnings for the client (e.g. a deprecated version). */
  warnings?(obj: Obj, old?: Obj): string[];
}

/** What a CRD version's schema finds, in the two groups the strategy orders around its own checks. */
export interface SchemaErrors {
  schema: FieldError[];
  structure: FieldError[];
}

const noSchemaErrors: SchemaErrors = { schema: [], structure: [] };

/** CustomResourceSubresourceScale */
export interface ScaleSpec {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceStrategyConfig {
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
  /** The CRD's subresources for this version. */
  subresources?: { status?: Record<string, never> | object; scale?: ScaleSpec };
  /** The CRD's selectableFields (`.spec.color`), served as field selector labels (`spec.color`). */
  selectableFields?: readonly { jsonPath: string }[];
  hooks?: CustomResourceHooks;
}

const maxInt32 = 2147483647;

/** Everything but metadata: what a generation bump compares. */
function nonMetadata(obj: Obj): Record<string, unknown> {
  const { metadata: _m, ...rest } = obj;
  return rest;
}

export class CustomResourceStrategy implements Strategy {
  readonly namespaced: boolean;
  readonly allowCreateOnUpdate = false;
  readonly allowUnconditionalUpdate = false;
  readonly returnDeletedObject = false;
  /** validate runs ValidateObjectMeta with DNS-subdomain names (ObjectMetaValidatingStrategy). */
  readonly validatesObjectMeta = true;
  readonly selectableFields: readonly string[];
  readonly hasStatus: boolean;
  readonly scale: ScaleSpec | undefined;
  private readonly hooks: CustomResourceHooks;
  private readonly selectablePaths: { label: string; fields: string[] }[];
  private readonly statusStrategy: CustomResourceStatusStrategy;

  constructor(readonly cfg: CustomResourceStrategyConfig) {
    this.namespaced = cfg.namespaced;
    this.hasStatus = cfg.subresources?.status !== undefined;
    this.scale = cfg.subresources?.scale;
    this.hooks = cfg.hooks ?? {};
    this.selectablePaths = (cfg.selectableFields ?? []).map((f) => ({
      label: f.jsonPath.replace(/^\./, ''),
      fields: splitJSONPath(f.jsonPath),
    }));
    this.selectableFields = this.selectablePaths.map((p) => p.label);
    this.statusStrategy = new CustomResourceStatusStrategy(this);
  }

  prepareForCreate(_ctx: RequestContext, obj: Obj): void {
    // create cannot set status
    if (this.hasStatus) delete obj.status;
    metaOf(obj).generation = 1;
  }

  prepareForUpdate(_ctx: RequestContext, obj: Obj, old: Obj): void {
    // With the /status endpoint installed, an update cannot set status.
    if (this.hasStatus) {
      if ('status' in old) obj.status = deepCopy(old.status);
      else delete obj.status;
    }
    if (!jsonEqual(nonMetadata(obj), nonMetadata(old))) {
      const og = metaOf(old).generation;
      metaOf(obj).generation = (typeof og === 'number' ? og : 0) + 1;
    }
  }

  /** ValidateTypeMeta: kind and apiVersion must be the served ones. */
  validateTypeMeta(obj: Obj): FieldError[] {
    const errs: FieldError[] = [];
    const kind = typeof obj.kind === 'string' ? obj.kind : '';
    const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
    if (kind !== this.cfg.kind) errs.push(invalid('kind', kind, `must be ${this.cfg.kind}`));
    const gv = `${this.cfg.group}/${this.cfg.version}`;
    if (apiVersion !== gv) errs.push(invalid('apiVersion', apiVersion, `must be ${gv}`));
    return errs;
  }

  validateScaleSpec(obj: Obj): FieldError[] {
    if (!this.scale) return [];
    const p = this.scale.specReplicasPath;
    const r = nestedInt64(obj, splitJSONPath(p));
    if (r.error) return [invalid(p, r.value, r.error)];
    if (r.value < 0) return [invalid(p, r.value, 'should be a non-negative integer')];
    if (r.value > maxInt32) return [invalid(p, r.value, `should be less than or equal to ${maxInt32}`)];
    return [];
  }

  validateScaleStatus(obj: Obj): FieldError[] {
    if (!this.scale) return [];
    const errs: FieldError[] = [];
    const p = this.scale.statusReplicasPath;
    const r = nestedInt64(obj, splitJSONPath(p));
    if (r.error) errs.push(invalid(p, r.value, r.error));
    else if (r.value < 0) errs.push(invalid(p, r.value, 'should be a non-negative integer'));
    else if (r.value > maxInt32) errs.push(invalid(p, r.value, `should be less than or equal to ${maxInt32}`));
    const lp = this.scale.labelSelectorPath;
    if (lp !== undefined) {
      const s = nestedString(obj, splitJSONPath(lp));
      if (s.error) errs.push(invalid(lp, s.value, s.error));
    }
    return errs;
  }

  /**
   * customResourceStrategy.Validate: type meta alone when wrong; else ObjectMeta, the schema,
   * scale spec and status replicas (the validator), then embedded ObjectMeta and list-type sets
   * and maps, then the CEL rules (or the notice that they were not run).
   */
  validate(_ctx: RequestContext, obj: Obj): FieldError[] {
    const tm = this.validateTypeMeta(obj);
    if (tm.length > 0) return tm;
    const s = this.hooks.validate?.(obj) ?? noSchemaErrors;
    const errs = [
      ...validateObjectMetaWith(obj, this.namespaced, nameIsDNSSubdomain),
      ...s.schema,
      ...this.validateScaleSpec(obj),
      ...this.validateScaleStatus(obj),
      ...s.structure,
    ];
    return this.withRules(errs, obj, undefined);
  }

  /** customResourceStrategy.ValidateUpdate: as validate, with the ObjectMeta update rules and ratcheting. */
  validateUpdate(_ctx: RequestContext, obj: Obj, old: Obj): FieldError[] {
    const tm = this.validateTypeMeta(obj);
    if (tm.length > 0) return tm;
    const s = this.hooks.validate?.(obj, old) ?? noSchemaErrors;
    const errs = [
      ...validateObjectMetaUpdateOnly(obj, old),
      ...s.schema,
      ...this.validateScaleSpec(obj),
      ...this.validateScaleStatus(obj),
      ...s.structure,
    ];
    return this.withRules(errs, obj, old);
  }

  /** The CEL rules' errors (or the blocking notice) after `errs`. */
  withRules(errs: FieldError[], obj: Obj, old: Obj | undefined): FieldError[] {
    const rules = this.hooks.validateRules?.(obj, old, errs);
    return rules === undefined || rules.length === 0 ? errs : [...errs, ...rules];
  }

  warningsOnCreate(_ctx: RequestContext, obj: Obj): string[] {
    return this.hooks.warnings?.(obj) ?? [];
  }

  warningsOnUpdate(_ctx: RequestContext, obj: Obj, old: Obj): string[] {
    return this.hooks.warnings?.(obj, old) ?? [];
  }

  canonicalize = strategyDefaults.canonicalize;

  getAttrs(obj: Obj): Attrs {
    return defaultAttrs(obj, this.namespaced, this.selectablePaths.length === 0 ? undefined : (o) => this.selectableAttrs(o));
  }

  private selectableAttrs(obj: Obj): Record<string, string> {
    const out: Record<string, string> = {};
    for (const p of this.selectablePaths) {
      const r = nestedField(obj, p.fields);
      const v = r.found ? r.value : undefined;
      out[p.label] = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
    }
    return out;
  }

  subresourceStrategy(sub: Subresource): Strategy | undefined {
    // Scale writes go through the main strategy (upstream's ScaleREST updates the whole object).
    if (sub === 'status' && this.hasStatus) return this.statusStrategy;
    return undefined;
  }
}

/** The status subresource: only status (and managedFields) change; everything else is the stored object. */
export class CustomResourceStatusStrategy implements Strategy {
  readonly namespaced: boolean;
  readonly allowCreateOnUpdate = false;
  readonly allowUnconditionalUpdate = false;
  readonly returnDeletedObject = false;
  readonly selectableFields: readonly string[];

  constructor(private readonly main: CustomResourceStrategy) {
    this.namespaced = main.namespaced;
    this.selectableFields = main.selectableFields;
  }

  prepareForCreate(ctx: RequestContext, obj: Obj): void {
    this.main.prepareForCreate(ctx, obj);
  }

  prepareForUpdate(_ctx: RequestContext, obj: Obj, old: Obj): void {
    keepOnlyStatus(obj, old);
  }

  validate(ctx: RequestContext, obj: Obj): FieldError[] {
    return this.main.validate(ctx, obj);
  }

  /**
   * statusStrategy.ValidateUpdate: type meta, the ObjectMeta update rules, the schema (with the
   * old object), scale status replicas, then list-type sets and maps, then the CEL rules.
   */
  validateUpdate(_ctx: RequestContext, obj: Obj, old: Obj): FieldError[] {
    const tm = this.main.validateTypeMeta(obj);
    if (tm.length > 0) return tm;
    const s = this.main.cfg.hooks?.validate?.(obj, old) ?? noSchemaErrors;
    const errs = [...validateObjectMetaUpdateOnly(obj, old), ...s.schema, ...this.main.validateScaleStatus(obj), ...s.structure];
    return this.main.withRules(errs, obj, old);
  }

  warningsOnCreate(ctx: RequestContext, obj: Obj): string[] {
    return this.main.warningsOnCreate(ctx, obj);
  }

  warningsOnUpdate(ctx: RequestContext, obj: Obj, old: Obj): string[] {
    return this.main.warningsOnUpdate(ctx, obj, old);
  }

  canonicalize = strategyDefaults.canonicalize;

  getAttrs(obj: Obj): Attrs {
    return this.main.getAttrs(obj);
  }

}
