/**
 * What CRD validation needs from the schema layer, gathered in one place: the schema options of a
 * create or an update (an update only requires what the old CRD already satisfied), predicates
 * over a JSONSchemaProps tree, field-path resolution for selectable fields, and the validation of
 * a CRD's schema (`spec.validation` / `spec.versions[*].schema`).
 */
import type { FieldError } from '../../apimachinery/index.ts';
import type { Path } from '../../apimachinery/index.ts';
import { validateCustomResourceValidation, type SchemaValidationOptions } from '../../schema/index.ts';
import { schemaHas, schemaOptionsForCreate, schemaOptionsForUpdate, type CRDSpecSchemas } from '../../schema/index.ts';
import { validFieldPath } from '../../schema/index.ts';
import { newStructural } from '../../schema/index.ts';
import type { JSONSchemaProps } from '../../schema/index.ts';

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
 * Verdicts of validateSchema by the JSON text of its arguments, most recently used last. The text
 * itself is the key: a digest of it cost more than the text did (and a Map compares long keys
 * by content); the texts held are bounded in number and in total length.
 */
const verdicts = new Map<string, FieldError[]>();
const verdictCapacity = 1024;
const verdictTextCapacity = 64 << 20;
let verdictText = 0;

/**
 * validateCustomResourceDefinitionValidation: one CustomResourceValidation at fld (schema and CEL
 * rules). The verdict is a function of the arguments alone, and checking a large schema (building
 * its structural form, compiling a validator for every default, type-checking every rule) costs
 * far more than reading its JSON, so equal arguments are judged once: a CRD installed under
 * several groups, versions repeating one schema, the same CRDs read by every `validate` run.
 */
export function validateSchema(
  validation: { openAPIV3Schema?: Record<string, unknown> | null } | undefined,
  statusEnabled: boolean,
  opts: SchemaValidationOptions,
  fld: Path,
): FieldError[] {
  const key = JSON.stringify([validation ?? null, statusEnabled, opts, fld.toString()]);
  let errs = verdicts.get(key);
  if (errs !== undefined) verdicts.delete(key);
  else {
    errs = validateCustomResourceValidation(validation as { openAPIV3Schema?: Schema | null } | undefined, statusEnabled, opts, fld);
    verdictText += key.length;
  }
  verdicts.set(key, errs);
  while (verdicts.size > verdictCapacity || (verdictText > verdictTextCapacity && verdicts.size > 1)) {
    const oldest = verdicts.keys().next().value!;
    verdictText -= oldest.length;
    verdicts.delete(oldest);
  }
  return [...errs];
}
