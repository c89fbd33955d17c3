/**
 * What CRD validation needs from the schema layer, gathered in one place: predicates over a
 * JSONSchemaProps tree (SchemaHas and the ratcheting predicates kube-apiserver derives from the old
 * CRD), field-path resolution for selectable fields, and the validation of a CRD's schema
 * (`spec.validation` / `spec.versions[*].schema`) with the options of the request.
 */
import type { FieldError } from '../../apimachinery/field/errors.ts';
import { Path } from '../../apimachinery/field/path.ts';
import { validFieldPath } from '../../schema/fieldpath.ts';
import { newStructural } from '../../schema/structural.ts';
import { validateStructural } from '../../schema/crd/structural-checks.ts';
import type { JSONSchemaProps } from '../../schema/types.ts';
import { validateCustomResourceValidation } from '../../schema/crd/openapi-schema.ts';
import { validateDefaults } from '../../schema/crd/defaults.ts';

type Schema = Record<string, unknown>;

/** The options kube-apiserver passes to the schema checks of a CRD (validationOptions). */
export interface SchemaValidationOptions {
  allowDefaults: boolean;
  disallowDefaultsReason?: string;
  requireValidPropertyType: boolean;
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  preexistingExpressions?: { rules: Set<string>; messageExpressions: Set<string> };
  suppressPerExpressionCost?: boolean;
}

const openapiV3Types = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** SchemaHas: true if pred holds for the schema or any schema nested in it. */
export function schemaHas(s: unknown, pred: (s: Schema) => boolean): boolean {
  if (!isSchema(s)) return false;
  if (pred(s)) return true;
  const items = s.items;
  if (Array.isArray(items)) {
    if (items.some((x) => schemaHas(x, pred))) return true;
  } else if (schemaHas(items, pred)) return true;
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    const list = s[k];
    if (Array.isArray(list) && list.some((x) => schemaHas(x, pred))) return true;
  }
  if (schemaHas(s.not, pred)) return true;
  for (const k of ['properties', 'patternProperties', 'definitions']) {
    const m = s[k];
    if (isSchema(m) && Object.values(m).some((x) => schemaHas(x, pred))) return true;
  }
  if (schemaHas(s.additionalProperties, pred)) return true;
  if (schemaHas(s.additionalItems, pred)) return true;
  const deps = s.dependencies;
  if (isSchema(deps) && Object.values(deps).some((x) => schemaHas(x, pred))) return true;
  return false;
}

export function crdSchemaHooks() {
  return hooks;
}

const hooks = {
  schemaHasDefaults: (s: Schema) => schemaHas(s, (x) => x.default !== undefined && x.default !== null),
  schemaHasKubernetesExtensions: (s: Schema) =>
    schemaHas(
      s,
      (x) =>
        x['x-kubernetes-embedded-resource'] === true ||
        (x['x-kubernetes-preserve-unknown-fields'] !== undefined && x['x-kubernetes-preserve-unknown-fields'] !== null) ||
        x['x-kubernetes-int-or-string'] === true ||
        (Array.isArray(x['x-kubernetes-list-map-keys']) && x['x-kubernetes-list-map-keys'].length > 0) ||
        (x['x-kubernetes-list-type'] !== undefined && x['x-kubernetes-list-type'] !== null) ||
        (Array.isArray(x['x-kubernetes-validations']) && x['x-kubernetes-validations'].length > 0),
    ),
  schemaHasInvalidTypes: (s: Schema) =>
    schemaHas(s, (x) => typeof x.type === 'string' && x.type.length > 0 && !openapiV3Types.has(x.type)),
  hasNonAtomicSetType: (s: Schema) =>
    schemaHas(s, (x) => {
      if (x['x-kubernetes-list-type'] !== 'set' || !isSchema(x.items)) return false;
      const is = x.items;
      if (is.type === 'array') return is['x-kubernetes-list-type'] !== undefined && is['x-kubernetes-list-type'] !== 'atomic';
      if (is.type === 'object') return is['x-kubernetes-map-type'] !== 'atomic';
      return false;
    }),
  schemaIsNonStructural: (s: Schema) => schemaIsNonStructural(s),
  schemaHasUnprunedDefaults: (s: Schema) => schemaHasUnprunedDefaults(s),
  hasInvalidMapListKeysMapSet: (s: Schema) => schemaHas(s, (x) => mapListKeysMapSetInvalid(x)),
  collectExpressions(s: Schema, out: { rules: Set<string>; messageExpressions: Set<string> }) {
    schemaHas(s, (x) => {
      const rules = x['x-kubernetes-validations'];
      if (Array.isArray(rules)) {
        for (const r of rules) {
          if (!isSchema(r)) continue;
          if (typeof r.rule === 'string') out.rules.add(r.rule);
          if (typeof r.messageExpression === 'string' && r.messageExpression.length > 0) out.messageExpressions.add(r.messageExpression);
        }
      }
      return false;
    });
  },
  /** Resolve a selectable field's JSON path (no array notation) to its path, root and schema type. */
  resolveFieldPath(jsonPath: string, schema: unknown): { path: string; root: string; type?: string } | { error: string } {
    let ss;
    try {
      ss = newStructural(schema as JSONSchemaProps);
    } catch (e) {
      return { error: (e as Error).message };
    }
    const r = validFieldPath(jsonPath, ss, false);
    if (r.error !== undefined) return { error: r.error };
    const path = r.path?.toString() ?? '';
    return { path, root: path.split(/[.[]/)[0] ?? '', type: r.schema?.type };
  },
  validateCustomResourceDefinitionValidation(
    validation: { openAPIV3Schema?: Schema | null } | undefined,
    statusEnabled: boolean,
    opts: SchemaValidationOptions,
    fld: Path,
  ): FieldError[] {
    return validateCustomResourceValidation(validation as { openAPIV3Schema?: JSONSchemaProps | null } | undefined, statusEnabled, opts, fld);
  },
};

function schemaIsNonStructural(s: Schema): boolean {
  try {
    const ss = newStructural(s as JSONSchemaProps);
    return validateStructural(Path.root(), ss).length > 0;
  } catch {
    return true;
  }
}

function schemaHasUnprunedDefaults(s: Schema): boolean {
  if (!hooks.schemaHasDefaults(s)) return false;
  try {
    const ss = newStructural(s as JSONSchemaProps);
    if (validateStructural(Path.root(), ss).length > 0) return false;
    // Defaults that pruning would change are reported as such by validateDefaults.
    return validateDefaults(Path.root(), ss, true, true).some((e) => e.detail.includes('pruned'));
  } catch {
    return false;
  }
}

/**
 * validateMapListKeysMapSet, as a predicate: set and map list items may not be nullable; map keys
 * must be required or defaulted and not nullable. An old CRD that broke these rules keeps being
 * accepted on update (ratcheting), which is all this is used for.
 */
function mapListKeysMapSetInvalid(s: Schema): boolean {
  const items = s.items;
  if (!isSchema(items)) return false;
  const lt = s['x-kubernetes-list-type'];
  if (lt !== 'set' && lt !== 'map') return false;
  if (items.nullable === true) return true;
  if (lt !== 'map') return false;
  const req = new Set(Array.isArray(items.required) ? (items.required as string[]) : []);
  const props = isSchema(items.properties) ? items.properties : {};
  const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as string[]) : [];
  return keys.some((k) => {
    const p = props[k];
    if (!isSchema(p)) return false;
    return (!req.has(k) && (p.default === undefined || p.default === null)) || p.nullable === true;
  });
}
