/**
 * Everything the server needs to process objects of one CRD version, compiled once when the CRD
 * is established: the structural schema, the pruner, the defaulter and the validator (OpenAPI
 * schema, embedded resources, list-type sets and maps). The registry holds one CompiledSchema per
 * version and only calls these functions on the request path.
 */
import { Path } from '../apimachinery/field/path.ts';
import { errorString, invalid, type FieldError } from '../apimachinery/field/errors.ts';
import { compileDefaulter, compileNullPruner } from './default.ts';
import { compileListSetsAndMaps } from './listtype.ts';
import { compileCoercer, compileEmbeddedValidator, noEmbeddedResources, unknownObjectMetaPaths, type CoerceResult } from './objectmeta.ts';
import { decodeObjectMeta, encodeObjectMeta } from '../apimachinery/validation/objectmeta.ts';
import { compilePruner } from './prune.ts';
import { newStructural, type Structural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';
import { compileValidator } from './validate/validator.ts';
import { isObject } from './value.ts';

// Bound once: under the CommonJS interop tsx runs sources with, every use of an imported name is a
// getter call, which shows on the validation path.
const isObj = isObject;
const noErrors: FieldError[] = [];

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
}

export interface PruneResult {
  /**
   * Paths of fields that were dropped (empty unless trackUnknown), in upstream's order: unknown
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

/** compileSchema: compile one CRD version's openAPIV3Schema. Throws StructuralError if unconvertible. */
export function compileSchema(openAPIV3Schema: JSONSchemaProps | null | undefined, opts: CompileOptions = {}): CompiledSchema {
  const structural = newStructural(openAPIV3Schema);
  const pruneRoot = compilePruner(structural, true);
  const pruneNested = compilePruner(structural, false);
  const pruneNulls = compileNullPruner(structural);
  const defaulter = compileDefaulter(structural);
  // The list-type checks ride along with the validator's fast pass where the schema allows.
  const validator = compileValidator(openAPIV3Schema, { compatibilityVersion: opts.compatibilityVersion, listTypes: true });
  const embedded = compileEmbeddedValidator(structural, false);
  const hasEmbedded = embedded !== noEmbeddedResources;
  const listTypes = compileListSetsAndMaps(structural);
  const coerceNested = compileCoercer(structural, false);
  const root = Path.root();
  const statusSchema = openAPIV3Schema?.properties?.status;
  const statusValidator = compileValidator(statusSchema ?? {}, { compatibilityVersion: opts.compatibilityVersion });
  const validateParts = (obj: unknown, oldObj?: unknown): { schema: FieldError[]; structure: FieldError[] } => {
    let errs: FieldError[];
    let listsClean = false;
    if (oldObj === undefined && isObj(obj)) {
      const r = validator.validateResource(obj);
      errs = r.errors;
      listsClean = r.listTypesClean;
    } else {
      errs = oldObj === undefined ? validator.validate(obj) : validator.validateUpdate(obj, oldObj);
    }
    const e2 = hasEmbedded ? embedded(obj) : undefined;
    // On update, list-type errors are only reported when the old object had none (ratcheting).
    const e3 = listsClean || (oldObj !== undefined && listTypes(oldObj, root).length > 0) ? undefined : listTypes(obj, root);
    if ((e2 === undefined || e2.length === 0) && (e3 === undefined || e3.length === 0)) return { schema: errs, structure: noErrors };
    return { schema: errs, structure: [...(e2 ?? []), ...(e3 ?? [])] };
  };
  return {
    structural,
    prune(obj, o = {}) {
      const isRoot = o.isResourceRoot ?? true;
      const track = o.trackUnknown === true;
      let paths: string[] = [];
      // unstructuredSchemaCoercer.apply: the root ObjectMeta is decoded first (unknown fields
      // reported as metadata.<field>) and written back last, in its canonical encoding.
      let rootMeta: Record<string, unknown> | undefined;
      if (isRoot && isObject(obj) && Object.hasOwn(obj, 'metadata')) {
        const md = obj.metadata;
        const d = decodeObjectMeta(md, { dropMalformedFields: o.dropInvalidMetadata === true });
        if (d.error !== undefined) return { prunedPaths: [], error: d.error };
        if (track) paths.push(...unknownObjectMetaPaths(md, 'metadata'));
        rootMeta = encodeObjectMeta(d.meta);
      }
      if (!opts.preserveUnknownFields) {
        // PruneWithOptions sorts its own paths; those of ObjectMeta come before, coercion's after.
        const pruned = (isRoot ? pruneRoot : pruneNested)(obj, { trackUnknown: track });
        if (pruned.length > 1) pruned.sort();
        paths.push(...pruned);
        pruneNulls(obj);
      }
      const c: CoerceResult = coerceNested(undefined, obj, { dropInvalidFields: o.dropInvalidMetadata, returnUnknownFieldPaths: track });
      if (c.error !== undefined) return { prunedPaths: [], error: errorString(c.error) };
      paths.push(...c.unknownFieldPaths);
      if (rootMeta !== undefined) (obj as Record<string, unknown>).metadata = rootMeta;
      return { prunedPaths: paths };
    },
    default(obj) {
      defaulter(obj);
    },
    validate(obj, oldObj) {
      const p = validateParts(obj, oldObj);
      return p.structure.length === 0 ? p.schema : [...p.schema, ...p.structure];
    },
    validateParts,
    validateStatus(obj, oldObj) {
      if (!isObject(obj) || !Object.hasOwn(obj, 'status')) return [];
      const old = isObject(oldObj) ? oldObj.status : undefined;
      return statusValidator.validateUpdate(obj.status, old, 'status');
    },
  };
}

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
