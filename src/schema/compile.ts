/**
 * Everything the server needs to process objects of one CRD version: the structural schema, the
 * pruner, the defaulter and the validator (OpenAPI schema, embedded resources, list-type sets and
 * maps), each compiled once, when first needed, and shared by every version and CRD with an equal
 * schema. The registry holds one CompiledSchema per version and only calls these functions on the
 * request path.
 */
import { Path } from '../apimachinery/index.ts';
import { errorString, invalid, type FieldError } from '../apimachinery/index.ts';
import { compileDefaulter, defaultsBelow } from './default.ts';
import { compileListSetsAndMaps } from './listtype.ts';
import { compileCoercer, compileEmbeddedValidator, noCoercion, noEmbeddedResources, unknownObjectMetaPaths, type CoerceResult } from './objectmeta.ts';
import { canonicalObjectMeta } from './objectmeta-canonical.ts';
import { decodeObjectMeta, encodeObjectMeta } from '../apimachinery/index.ts';
import { compilePrunerDefaulting, compilePrunerDroppingNulls, type PruneOptions, type RootOptions } from './prune.ts';
import { newStructural, type Structural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';
import { compileValidator, type SchemaValidator } from './validate/validator.ts';
import { contentKey, sharedByContent } from './compile-cache.ts';
import { deferStructural } from './deferred.ts';
import { isObject } from './value.ts';

// Bound once: under the CommonJS interop tsx runs sources with, every use of an imported name is a
// getter call, which shows on the validation path.
const isObj = isObject;
const noErrors: FieldError[] = [];
// Option objects made once, not per call.
const noPruneOptions: PruneCallOptions = {};
const trackUnknown: PruneOptions = { trackUnknown: true };
const untracked: PruneOptions = { trackUnknown: false };
const noPaths: string[] = [];
// What most calls return, made once (frozen: it is shared).
const nothingPruned: PruneResult = Object.freeze({ prunedPaths: Object.freeze([]) as unknown as string[] });
const metadataReplaced: RootOptions = { metadataReplaced: true };

export interface CompileOptions {
  /** Kubernetes compatibility version choosing the supported string formats ("1.34"). */
  compatibilityVersion?: string;
  /** spec.preserveUnknownFields (v1beta1-era CRDs): nothing is pruned. */
  preserveUnknownFields?: boolean;
}

export interface PruneCallOptions {
  /** The object is a whole resource (apiVersion/kind/metadata kept at the top). Default true. */
  isResourceRoot?: boolean;
  /** Report pruned paths (for fieldValidation Warn/Strict). Default false. */
  trackUnknown?: boolean;
  /** Drop malformed ObjectMeta fields instead of reporting an error (reads from storage). */
  dropInvalidMetadata?: boolean;
  /**
   * Default the object too, when it is pruned without error: `default` right after, as the
   * decoder and the defaulter run back to back (in one walk where the schema allows).
   */
  applyDefaults?: boolean;
}

export interface PruneResult {
  /**
   * Paths of fields that were dropped (empty unless trackUnknown; an empty list is shared and
   * frozen), in upstream's order: unknown
   * ObjectMeta fields, then the pruned paths sorted, then embedded ObjectMeta's unknown fields.
   */
  prunedPaths: string[];
  /**
   * Metadata that could not be decoded or coerced (only when not dropping invalid metadata): the
   * message Kubernetes answers such a request with (400 Bad Request).
   */
  error?: string;
}

export interface CompiledSchema {
  /** The structural schema (undefined when the CRD version has no schema). */
  readonly structural: Structural | undefined;
  /**
   * MUTATES obj: drops unknown fields (unless preserved), drops nulls that are neither nullable
   * nor defaulted, and coerces ObjectMeta at the root and in embedded resources (unknown fields
   * dropped; the root metadata re-encoded canonically, `creationTimestamp: null` when unset).
   * Returns the pruned paths.
   */
  prune(obj: unknown, opts?: PruneCallOptions): PruneResult;
  /** MUTATES obj: applies schema defaults. */
  default(obj: unknown): void;
  /**
   * All validation errors of obj (schema, embedded resources, list-type set/map), paths relative to
   * the object root. Root ObjectMeta is the registry's strategy's job, as upstream. With `oldObj`
   * (an update) schema errors in values unchanged from oldObj are not reported (ratcheting).
   */
  validate(obj: unknown, oldObj?: unknown): FieldError[];
  /**
   * validate's errors in upstream's two groups: the OpenAPI schema's, and embedded resources' plus
   * list-type sets and maps' (the strategy reports its scale checks between them).
   */
  validateParts(obj: unknown, oldObj?: unknown): { schema: FieldError[]; structure: FieldError[] };
  /**
   * The status subresource's update validation: obj.status against the schema's
   * properties.status, paths under `status`, ratcheted against oldObj.status. Empty when obj has
   * no status.
   */
  validateStatus(obj: unknown, oldObj: unknown): FieldError[];
}

/**
 * compileSchema: one CRD version's openAPIV3Schema, compiled when first used. Each artefact (the
 * structural schema, pruners, defaulter, validators) is built on the first call that needs it, so
 * that serving a CRD costs nothing until a request for its kind arrives, and versions or CRDs with
 * an equal schema share one compiled form (compile-cache.ts). A schema that newStructural cannot
 * convert throws StructuralError from the first use (CRDs are checked to be structural before
 * they are stored, so a served one never does).
 */
export function compileSchema(openAPIV3Schema: JSONSchemaProps | null | undefined, opts: CompileOptions = {}): CompiledSchema {
  let parts: SchemaParts | undefined;
  const get = (): SchemaParts => (parts ??= sharedParts(openAPIV3Schema, opts));
  const structural = openAPIV3Schema === null || openAPIV3Schema === undefined ? undefined : deferStructural(openAPIV3Schema, () => get().structural!);
  return {
    structural,
    prune: (obj, o) => get().prune(obj, o),
    default: (obj) => get().default(obj),
    validate: (obj, oldObj) => get().validate(obj, oldObj),
    validateParts: (obj, oldObj) => get().validateParts(obj, oldObj),
    validateStatus: (obj, oldObj) => get().validateStatus(obj, oldObj),
  };
}

function sharedParts(schema: JSONSchemaProps | null | undefined, opts: CompileOptions): SchemaParts {
  const o: CompileOptions = { compatibilityVersion: opts.compatibilityVersion, preserveUnknownFields: opts.preserveUnknownFields === true };
  return sharedByContent(contentKey(`compileSchema ${JSON.stringify(o)}`, schema ?? null), () => new SchemaParts(schema, o));
}

/** The artefacts of one schema, each built on first use. */
class SchemaParts implements CompiledSchema {
  private built?: Structural | undefined;
  private hasStructural = false;
  private pruners?: { root: Pruner; nested: Pruner; coerce: Coercer; rootDefaulting: Pruner | undefined };
  private defaulter?: (obj: unknown) => void;
  private checks?: { validator: SchemaValidator; embedded: EmbeddedValidator; hasEmbedded: boolean; listTypes: ListTypeCheck };
  private statusValidator?: SchemaValidator;

  constructor(
    private readonly schema: JSONSchemaProps | null | undefined,
    private readonly opts: CompileOptions,
  ) {}

  get structural(): Structural | undefined {
    if (!this.hasStructural) {
      this.built = newStructural(this.schema);
      this.hasStructural = true;
    }
    return this.built;
  }

  prune(obj: unknown, o: PruneCallOptions = noPruneOptions): PruneResult {
    const isRoot = o.isResourceRoot ?? true;
    const track = o.trackUnknown === true;
    const dropInvalid = o.dropInvalidMetadata === true;
    const p = (this.pruners ??= this.compilePruners());
    // The walk that also defaults, where it gives the same result as defaulting afterwards: not
    // when a null metadata is dropped, as it comes back (written last) before the root's defaults.
    const fused = o.applyDefaults === true && isRoot && p.rootDefaulting !== undefined && !(isObj(obj) && obj.metadata === null);
    let paths = noPaths;
    // unstructuredSchemaCoercer.apply: the root ObjectMeta is decoded first (unknown fields
    // reported as metadata.<field>) and written back last, in its canonical encoding.
    let rootMeta: Record<string, unknown> | undefined;
    // (A read first: Object.hasOwn is a builtin call, the read an inline cache hit.)
    if (isRoot && isObj(obj) && (obj.metadata !== undefined || Object.hasOwn(obj, 'metadata'))) {
      const md = obj.metadata;
      // The object is the caller's to mutate: canonical metadata is kept, not copied.
      rootMeta = canonicalObjectMeta(md, true);
      if (rootMeta === undefined) {
        const d = decodeObjectMeta(md, { dropMalformedFields: dropInvalid });
        if (d.error !== undefined) return { prunedPaths: [], error: d.error };
        if (track) paths = unknownObjectMetaPaths(md, 'metadata');
        rootMeta = encodeObjectMeta(d.meta);
      }
    }
    if (!this.opts.preserveUnknownFields) {
      // PruneWithOptions sorts its own paths; those of ObjectMeta come before, coercion's after.
      // Pruning and dropping non-nullable nulls are one walk.
      const pruned = (fused ? p.rootDefaulting! : isRoot ? p.root : p.nested)(obj, track ? trackUnknown : untracked);
      if (pruned.length > 0) paths = paths.length === 0 ? pruned : [...paths, ...pruned];
    }
    if (p.coerce !== noCoercion) {
      const c: CoerceResult = p.coerce(undefined, obj, { dropInvalidFields: o.dropInvalidMetadata, returnUnknownFieldPaths: track });
      if (c.error !== undefined) return { prunedPaths: [], error: errorString(c.error) };
      if (c.unknownFieldPaths.length > 0) paths = [...paths, ...c.unknownFieldPaths];
    }
    if (rootMeta !== undefined) (obj as Record<string, unknown>).metadata = rootMeta;
    if (o.applyDefaults === true && !fused) this.default(obj);
    return paths === noPaths ? nothingPruned : { prunedPaths: paths };
  }

  private compilePruners(): NonNullable<SchemaParts['pruners']> {
    const s = this.structural;
    const coerce = compileCoercer(s, false);
    return {
      // prune() writes the root's ObjectMeta back after the walk.
      root: compilePrunerDroppingNulls(s, true, metadataReplaced),
      nested: compilePrunerDroppingNulls(s, false),
      coerce,
      rootDefaulting: !this.opts.preserveUnknownFields && coerce === noCoercion && !defaultsTypeOrObjectMeta(s) ? compilePrunerDefaulting(s, metadataReplaced) : undefined,
    };
  }

  default(obj: unknown): void {
    (this.defaulter ??= compileDefaulter(this.structural))(obj);
  }

  validate(obj: unknown, oldObj?: unknown): FieldError[] {
    // A create of an object (the common call) without the two groups validateParts builds.
    if (oldObj === undefined && isObj(obj)) {
      const k = this.checks ?? this.compileChecks();
      const errs = k.validator.validateResource(obj);
      const e2 = k.hasEmbedded ? k.embedded(obj) : undefined;
      const e3 = k.validator.listTypesClean() ? undefined : k.listTypes(obj, root);
      if ((e2 === undefined || e2.length === 0) && (e3 === undefined || e3.length === 0)) return errs;
      return [...errs, ...(e2 ?? []), ...(e3 ?? [])];
    }
    const p = this.validateParts(obj, oldObj);
    return p.structure.length === 0 ? p.schema : [...p.schema, ...p.structure];
  }

  private compileChecks(): NonNullable<SchemaParts['checks']> {
    const structural = this.structural;
    // The list-type checks ride along with the validator's fast pass where the schema allows.
    const validator = compileValidator(this.schema, { compatibilityVersion: this.opts.compatibilityVersion, listTypes: true });
    const embedded = compileEmbeddedValidator(structural, false);
    return (this.checks = { validator, embedded, hasEmbedded: embedded !== noEmbeddedResources, listTypes: compileListSetsAndMaps(structural) });
  }

  validateParts(obj: unknown, oldObj?: unknown): { schema: FieldError[]; structure: FieldError[] } {
    const k = this.checks ?? this.compileChecks();
    let errs: FieldError[];
    let listsClean = false;
    if (oldObj === undefined && isObj(obj)) {
      errs = k.validator.validateResource(obj);
      listsClean = k.validator.listTypesClean();
    } else {
      errs = oldObj === undefined ? k.validator.validate(obj) : k.validator.validateUpdate(obj, oldObj);
    }
    const e2 = k.hasEmbedded ? k.embedded(obj) : undefined;
    // On update, list-type errors are only reported when the old object had none (ratcheting).
    const e3 = listsClean || (oldObj !== undefined && k.listTypes(oldObj, root).length > 0) ? undefined : k.listTypes(obj, root);
    if ((e2 === undefined || e2.length === 0) && (e3 === undefined || e3.length === 0)) return { schema: errs, structure: noErrors };
    return { schema: errs, structure: [...(e2 ?? []), ...(e3 ?? [])] };
  }

  validateStatus(obj: unknown, oldObj: unknown): FieldError[] {
    if (!isObject(obj) || !Object.hasOwn(obj, 'status')) return [];
    const old = isObject(oldObj) ? oldObj.status : undefined;
    this.statusValidator ??= compileValidator(this.schema?.properties?.status ?? {}, { compatibilityVersion: this.opts.compatibilityVersion });
    return this.statusValidator.validateUpdate(obj.status, old, 'status');
  }
}

const root = Path.root();

/**
 * Whether defaulting would touch a resource root's apiVersion, kind or metadata (a default at or
 * below their schemas, or additionalProperties that default): the decoder writes the root
 * ObjectMeta back between pruning and defaulting, so such a schema is defaulted after pruning.
 */
function defaultsTypeOrObjectMeta(s: Structural | undefined): boolean {
  if (s === undefined) return false;
  const memo = new Map<Structural, boolean>();
  const defaults = (c: Structural | undefined) => c !== undefined && (c.default !== undefined || defaultsBelow(c, memo));
  return defaults(s.properties?.get('apiVersion')) || defaults(s.properties?.get('kind')) || defaults(s.properties?.get('metadata')) || defaults(s.additionalProperties?.structural);
}
type Pruner = ReturnType<typeof compilePrunerDroppingNulls>;
type Coercer = ReturnType<typeof compileCoercer>;
type EmbeddedValidator = ReturnType<typeof compileEmbeddedValidator>;
type ListTypeCheck = ReturnType<typeof compileListSetsAndMaps>;

/**
 * hasBlockingErr (customresource strategy): CEL rules are not evaluated when the schema errors
 * include a type error or a NotSupported/Required/TooLong/TooMany error, because rules would
 * then see values of the wrong shape; this is the error reported instead of the rules' results.
 */
export function blockingError(errs: readonly FieldError[]): FieldError | undefined {
  for (const e of errs) {
    switch (e.type) {
      case 'FieldValueNotSupported':
      case 'FieldValueRequired':
      case 'FieldValueTooLong':
      case 'FieldValueTooMany':
      case 'FieldValueTypeInvalid':
        return invalid('', null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');
    }
  }
  return undefined;
}
