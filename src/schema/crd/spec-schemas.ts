/**
 * The schema part of CRD spec validation (apiextensions validation.go,
 * validateCustomResourceDefinitionSpec): which options apply to a create or an update (an update
 * only requires what the old CRD already satisfied, so stored CRDs keep validating after an
 * upgrade), and the validation of the top-level and per-version schemas with them. The CRD
 * strategy calls this beside its own checks of names, versions and conversion.
 */
import { Path } from '../../apimachinery/index.ts';
import type { FieldError } from '../../apimachinery/index.ts';
import { coerce } from '../objectmeta.ts';
import { prune } from '../prune.ts';
import { newStructural, StructuralError, type Structural } from '../structural.ts';
import { itemsSchema, additionalPropertiesSchema, type JSONSchemaProps } from '../types.ts';
import { deepCopyJSON, deepEqualJSON, isObject } from '../value.ts';
import { validateCustomResourceValidation, createOptions, type SchemaValidationOptions } from './openapi-schema.ts';
import { validateStructural } from './structural-checks.ts';

/** The parts of an (internal, v1beta1-shaped) CRD spec that concern schemas. */
export interface CRDSpecSchemas {
  preserveUnknownFields?: boolean | null;
  validation?: { openAPIV3Schema?: JSONSchemaProps | null } | null;
  subresources?: { status?: unknown } | null;
  versions?: {
    name: string;
    schema?: { openAPIV3Schema?: JSONSchemaProps | null } | null;
    subresources?: { status?: unknown } | null;
  }[];
}

function schemasOf(spec: CRDSpecSchemas): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  const g = spec.validation?.openAPIV3Schema;
  if (g) out.push(g);
  for (const v of spec.versions ?? []) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}

/** SchemaHas: pred holds at some node (junctors, items, properties, ... included). */
export function schemaHas(s: JSONSchemaProps | null | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (s === null || s === undefined) return false;
  if (pred(s)) return true;
  const it = s.items;
  if (Array.isArray(it)) {
    if (it.some((x) => schemaHas(x, pred))) return true;
  } else if (schemaHas(it, pred)) return true;
  for (const l of [s.allOf, s.anyOf, s.oneOf]) if (l?.some((x) => schemaHas(x, pred))) return true;
  if (schemaHas(s.not, pred)) return true;
  for (const m of [s.properties, s.patternProperties, s.definitions]) if (m && Object.values(m).some((x) => schemaHas(x, pred))) return true;
  if (schemaHas(additionalPropertiesSchema(s), pred)) return true;
  if (typeof s.additionalItems === 'object' && schemaHas(s.additionalItems, pred)) return true;
  if (s.dependencies && Object.values(s.dependencies).some((d) => !Array.isArray(d) && schemaHas(d, pred))) return true;
  return false;
}

const openapiV3Types = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

function isNonStructural(s: JSONSchemaProps): boolean {
  try {
    return validateStructural(Path.root(), newStructural(s)).length > 0;
  } catch (e) {
    if (e instanceof StructuralError) return true;
    throw e;
  }
}

function hasNonAtomicSetType(s: JSONSchemaProps): boolean {
  return schemaHas(s, (x) => {
    const is = itemsSchema(x);
    if (x['x-kubernetes-list-type'] !== 'set' || is === undefined) return false;
    if (is.type === 'array') return is['x-kubernetes-list-type'] !== undefined && is['x-kubernetes-list-type'] !== null && is['x-kubernetes-list-type'] !== 'atomic';
    if (is.type === 'object') return is['x-kubernetes-map-type'] !== 'atomic';
    return false;
  });
}

function hasInvalidMapListKeysMapSet(s: JSONSchemaProps): boolean {
  return schemaHas(s, (x) => {
    const items = itemsSchema(x);
    const lt = x['x-kubernetes-list-type'];
    if (items === undefined || (lt !== 'set' && lt !== 'map')) return false;
    if (items.nullable) return true;
    if (lt === 'map') {
      const req = new Set(items.required ?? []);
      for (const k of x['x-kubernetes-list-map-keys'] ?? []) {
        const p = items.properties?.[k];
        if (p === undefined) continue;
        if ((!req.has(k) && (p.default === undefined || p.default === null)) || p.nullable) return true;
      }
    }
    return false;
  });
}

const hasDefaults = (s: JSONSchemaProps) => schemaHas(s, (x) => x.default !== undefined && x.default !== null);

/** schemaHasUnprunedDefaults: some default changes when pruned (and coerced) in place. */
function hasUnprunedDefaults(schema: JSONSchemaProps): boolean {
  if (!hasDefaults(schema)) return false;
  let root: Structural | undefined;
  try {
    root = newStructural(schema);
    if (validateStructural(Path.root(), root).length > 0) return false;
  } catch {
    return false;
  }
  type Step = { key: string } | { index: true };
  const visit = (s: Structural | undefined, steps: Step[]): boolean => {
    if (s === undefined) return false;
    if (s.default !== undefined) {
      let obj: unknown = deepCopyJSON(s.default);
      for (let i = steps.length - 1; i >= 0; i--) {
        const st = steps[i]!;
        obj = 'key' in st ? { [st.key]: obj } : [obj];
      }
      if (!isObject(obj)) return false; // an error upstream: not counted
      if (coerce(undefined, obj, root, true, { dropInvalidFields: true }).error !== undefined) return false;
      prune(obj, root, true);
      let back: unknown = obj;
      for (const st of steps) {
        if ('key' in st) {
          if (!isObject(back) || !Object.hasOwn(back, st.key)) {
            back = undefined;
            break;
          }
          back = back[st.key];
        } else {
          if (!Array.isArray(back) || back.length === 0) {
            back = undefined;
            break;
          }
          back = back[0];
        }
      }
      if (!deepEqualJSON(back ?? null, s.default)) return true;
    }
    if (s.additionalProperties?.structural && visit(s.additionalProperties.structural, [...steps, { key: '*' }])) return true;
    if (visit(s.items, [...steps, { index: true }])) return true;
    if (s.properties) for (const [k, p] of s.properties) if (visit(p, [...steps, { key: k }])) return true;
    return false;
  };
  return visit(root, []);
}

/** The schema options for a CRD being created. */
export function schemaOptionsForCreate(): SchemaValidationOptions {
  return { ...createOptions };
}

/** The schema options for an update: only what every old schema already satisfied is required. */
export function schemaOptionsForUpdate(oldSpec: CRDSpecSchemas): SchemaValidationOptions {
  const old = schemasOf(oldSpec);
  return {
    allowDefaults: true,
    requireValidPropertyType: !old.some((s) => schemaHas(s, (x) => !!x.type && !openapiV3Types.has(x.type))),
    requireStructuralSchema: !old.some(isNonStructural),
    requirePrunedDefaults: !old.some(hasUnprunedDefaults),
    requireAtomicSetType: !old.some(hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !old.some(hasInvalidMapListKeysMapSet),
  };
}

function statusEnabled(sub: { status?: unknown } | null | undefined): boolean {
  return sub !== null && sub !== undefined && sub.status !== undefined && sub.status !== null;
}

/**
 * The schema errors of a CRD spec at `fldPath` (`spec`): every per-version schema at
 * `versions[i].schema` and the top-level one at `validation`, with the options tightened as
 * upstream tightens them (pruning, defaults and x-kubernetes-* extensions require structural).
 */
export function validateSpecSchemas(spec: CRDSpecSchemas, opts: SchemaValidationOptions, fldPath: Path = Path.of('spec')): FieldError[] {
  const o = { ...opts };
  const schemas = schemasOf(spec);
  if (spec.preserveUnknownFields !== true) o.requireStructuralSchema = true;
  if (o.allowDefaults && schemas.some(hasDefaults)) o.requireStructuralSchema = true;
  const ext = (x: JSONSchemaProps) =>
    x['x-kubernetes-embedded-resource'] === true ||
    (x['x-kubernetes-preserve-unknown-fields'] !== undefined && x['x-kubernetes-preserve-unknown-fields'] !== null) ||
    x['x-kubernetes-int-or-string'] === true ||
    (x['x-kubernetes-list-map-keys']?.length ?? 0) > 0 ||
    (x['x-kubernetes-list-type'] !== undefined && x['x-kubernetes-list-type'] !== null) ||
    (x['x-kubernetes-validations']?.length ?? 0) > 0;
  if (schemas.some((s) => schemaHas(s, ext))) o.requireStructuralSchema = true;

  const errs: FieldError[] = [];
  const versions = spec.versions ?? [];
  const perVersionSub = versions.some((v) => v.subresources !== undefined && v.subresources !== null);
  versions.forEach((v, i) => {
    const sub = perVersionSub ? v.subresources : spec.subresources;
    errs.push(...validateCustomResourceValidation(v.schema, statusEnabled(sub), o, fldPath.child('versions').index(i).child('schema')));
  });
  const anyStatus = statusEnabled(spec.subresources) || versions.some((v) => statusEnabled(v.subresources));
  errs.push(...validateCustomResourceValidation(spec.validation, anyStatus, o, fldPath.child('validation')));
  return errs;
}

/** The v1 CRD spec fields this module reads. */
export interface V1SpecSchemas {
  preserveUnknownFields?: boolean | null;
  versions?: { name: string; schema?: { openAPIV3Schema?: JSONSchemaProps | null } | null; subresources?: { status?: unknown } | null }[];
}

/**
 * The internal (v1beta1-shaped) view of a v1 spec, as Kubernetes' v1 -> internal conversion makes
 * it: when every version has the same schema (or the same subresources) it moves to the top
 * level (`spec.validation`), which is why errors for such CRDs read
 * `spec.validation.openAPIV3Schema...`.
 */
export function internalSpecSchemas(spec: V1SpecSchemas): CRDSpecSchemas {
  const versions = (spec.versions ?? []).map((v) => ({ ...v }));
  const out: CRDSpecSchemas = { preserveUnknownFields: spec.preserveUnknownFields ?? false, versions };
  if (versions.length === 0) return out;
  const norm = (x: unknown) => (x === undefined ? null : x);
  const schemasSame = versions.every((v) => deepEqualJSON(norm(v.schema), norm(versions[0]!.schema)));
  const subSame = versions.every((v) => deepEqualJSON(norm(v.subresources), norm(versions[0]!.subresources)));
  if (schemasSame) {
    out.validation = versions[0]!.schema ?? undefined;
    for (const v of versions) delete v.schema;
  }
  if (subSame) {
    out.subresources = versions[0]!.subresources ?? undefined;
    for (const v of versions) delete v.subresources;
  }
  return out;
}
