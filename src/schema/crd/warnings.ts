/**
 * Warnings about CRD schemas (apiextensions-apiserver pkg/registry/customresourcedefinition
 * strategy.go): formats the compatibility version does not recognize (these are silently not
 * validated), and list-type set over objects or arrays. On update only newly introduced ones warn.
 */
import { goQuote } from '../../apimachinery/index.ts';
import { defaultCompatibilityVersion, unrecognizedFormats } from '../validate/formats.ts';
import { itemsSchema, type JSONSchemaProps } from '../types.ts';
import { schemaHas, type CRDSpecSchemas } from './spec-schemas.ts';

function specSchemas(spec: CRDSpecSchemas): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions ?? []) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}

/** getUnrecognizedFormatsInCRD: every unrecognized format occurrence, in schema order. */
export function unrecognizedFormatsInSpec(spec: CRDSpecSchemas, version = defaultCompatibilityVersion): string[] {
  const out: string[] = [];
  for (const s of specSchemas(spec)) {
    schemaHas(s, (x) => {
      if (x.format) out.push(...unrecognizedFormats(x.format, [x.type ?? ''], version));
      return false;
    });
  }
  return out;
}

/** getNonScalarListTypeSetWarnings: sorted, deduplicated. */
export function nonScalarListTypeSetWarnings(spec: CRDSpecSchemas): string[] {
  const seen = new Set<string>();
  for (const s of specSchemas(spec)) {
    schemaHas(s, (x) => {
      const it = itemsSchema(x);
      if (x['x-kubernetes-list-type'] === 'set' && it !== undefined && (it.type === 'object' || it.type === 'array')) {
        seen.add(`x-kubernetes-list-type: set for items of type "${it.type}" is not supported by server-side apply or CEL validation rules`);
      }
      return false;
    });
  }
  return [...seen].sort();
}

/** WarningsOnCreate of a CRD (the schema-related ones). */
export function schemaWarningsOnCreate(spec: CRDSpecSchemas, version?: string): string[] {
  return [...unrecognizedFormatsInSpec(spec, version).map((f) => `unrecognized format ${goQuote(f)}`), ...nonScalarListTypeSetWarnings(spec)];
}

/** WarningsOnUpdate of a CRD: only formats and list-set warnings the old spec did not have. */
export function schemaWarningsOnUpdate(spec: CRDSpecSchemas, oldSpec: CRDSpecSchemas, version?: string): string[] {
  const oldFormats = new Set(unrecognizedFormatsInSpec(oldSpec, version));
  const warnings = unrecognizedFormatsInSpec(spec, version)
    .filter((f) => !oldFormats.has(f))
    .map((f) => `unrecognized format ${goQuote(f)}`);
  const seen = new Set(nonScalarListTypeSetWarnings(oldSpec));
  for (const w of nonScalarListTypeSetWarnings(spec)) if (!seen.has(w)) warnings.push(w);
  return warnings;
}
