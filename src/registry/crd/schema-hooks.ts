/**
 * What CRD validation needs from the schema layer, gathered in one place: the schema options of a
 * create or an update (an update only requires what the old CRD already satisfied), predicates
 * over a JSONSchemaProps tree, field-path resolution for selectable fields, and the validation of
 * a CRD's schema (`spec.validation` / `spec.versions[*].schema`).
 */
import type { FieldError } from '../../apimachinery/field/errors.ts';
import type { Path } from '../../apimachinery/field/path.ts';
import { validateCustomResourceValidation, type SchemaValidationOptions } from '../../schema/crd/openapi-schema.ts';
import { schemaHas, schemaOptionsForCreate, schemaOptionsForUpdate, type CRDSpecSchemas } from '../../schema/crd/spec-schemas.ts';
import { validFieldPath } from '../../schema/fieldpath.ts';
import { newStructural } from '../../schema/structural.ts';
import { validateStructural } from '../../schema/crd/structural-checks.ts';
import { validateDefaults } from '../../schema/crd/defaults.ts';
import { validateRulesAtCRDWrite } from '../../schema/cel/index.ts';
import { Path as FieldPath } from '../../apimachinery/field/path.ts';
import type { JSONSchemaProps } from '../../schema/types.ts';

export type { SchemaValidationOptions };
export { schemaOptionsForCreate, schemaOptionsForUpdate, type CRDSpecSchemas };

type Schema = JSONSchemaProps;

/** True if some schema node has a default. */
export function schemaHasDefaults(s: Schema): boolean {
  return schemaHas(s, (x) => x.default !== undefined && x.default !== null);
}

/** True if some schema node uses an x-kubernetes-* extension (which requires a structural schema). */
export function schemaHasKubernetesExtensions(s: Schema): boolean {
  return schemaHas(
    s,
    (x) =>
      x['x-kubernetes-embedded-resource'] === true ||
      (x['x-kubernetes-preserve-unknown-fields'] !== undefined && x['x-kubernetes-preserve-unknown-fields'] !== null) ||
      x['x-kubernetes-int-or-string'] === true ||
      (x['x-kubernetes-list-map-keys']?.length ?? 0) > 0 ||
      (x['x-kubernetes-list-type'] !== undefined && x['x-kubernetes-list-type'] !== null) ||
      (x['x-kubernetes-validations']?.length ?? 0) > 0,
  );
}

/** Every CEL rule and messageExpression in a schema (those of the old CRD may keep compiling with the stored-expressions environment). */
export function collectExpressions(s: Schema, out: { rules: Set<string>; messageExpressions: Set<string> }): void {
  schemaHas(s, (x) => {
    for (const r of x['x-kubernetes-validations'] ?? []) {
      if (typeof r.rule === 'string') out.rules.add(r.rule);
      if (typeof r.messageExpression === 'string' && r.messageExpression.length > 0) out.messageExpressions.add(r.messageExpression);
    }
    return false;
  });
}

/** Resolve a selectable field's JSON path (no array notation) to its path, first segment and schema type. */
export function resolveFieldPath(jsonPath: string, schema: unknown): { path: string; root: string; type?: string } | { error: string } {
  let ss;
  try {
    ss = newStructural(schema as Schema);
  } catch (e) {
    return { error: (e as Error).message };
  }
  const r = validFieldPath(jsonPath, ss, false);
  if (r.error !== undefined) return { error: r.error };
  const path = r.path?.toString() ?? '';
  return { path, root: path.split(/[.[]/)[0] ?? '', type: r.schema?.type };
}

/**
 * validateCustomResourceDefinitionValidation: one CustomResourceValidation at fld — the schema
 * checks, then (as upstream creates its CEL context only for a structural schema with valid
 * defaults) every x-kubernetes-validations rule compiled against the schema, with its cost.
 */
export function validateSchema(
  validation: { openAPIV3Schema?: Record<string, unknown> | null } | undefined,
  statusEnabled: boolean,
  opts: SchemaValidationOptions & { suppressPerExpressionCost?: boolean },
  fld: Path,
): FieldError[] {
  const errs = validateCustomResourceValidation(validation as { openAPIV3Schema?: Schema | null } | undefined, statusEnabled, opts, fld);
  const schema = validation?.openAPIV3Schema as Schema | null | undefined;
  if (!schema || !opts.requireStructuralSchema || !celContextAvailable(schema, opts)) return errs;
  const at = (node: string) => (e: FieldError) => e.field === node || e.field.startsWith(node + '.') || e.field.startsWith(node + '[');
  const rules = validateRulesAtCRDWrite(schema, fld.child('openAPIV3Schema'), {
    suppressPerExpressionCost: opts.suppressPerExpressionCost === true,
    hasSchemaErrors: (node) => errs.some(at(node)),
  });
  return rules.errors.length > 0 ? [...errs, ...rules.errors] : errs;
}

/** Upstream builds the CEL context only when the schema is structural and its defaults are valid. */
function celContextAvailable(schema: Schema, opts: SchemaValidationOptions): boolean {
  try {
    const ss = newStructural(schema);
    const root = FieldPath.root();
    if (validateStructural(root, ss).length > 0) return false;
    return validateDefaults(root, ss, true, opts.requirePrunedDefaults === true).length === 0;
  } catch {
    return false;
  }
}
