/**
 * The schema layer's public face: structural schemas of CRDs and the algorithms over them.
 * Most callers need only `compileSchema` (one per CRD version) and, when a CRD is created or
 * updated, `validateSpecSchemas` with `schemaOptionsForCreate` / `schemaOptionsForUpdate` and
 * `nonStructuralCondition`.
 */
export type { JSONSchemaProps, ValidationRule } from './types.ts';
export { newStructural, StructuralError, structuralToSchema } from './structural.ts';
export type { Structural, ValueValidation, NestedValueValidation } from './structural.ts';
export { compileSchema, blockingError } from './compile.ts';
export { schemaCodec, type Codec, type Decoded } from './codec.ts';
export type { CompiledSchema, CompileOptions, PruneCallOptions, PruneResult } from './compile.ts';
export { validateStructural } from './crd/structural-checks.ts';
export { nonStructuralCondition } from './crd/nonstructural.ts';
export { validateCustomResourceValidation, validateOpenAPISchema } from './crd/openapi-schema.ts';
export type { SchemaValidationOptions } from './crd/openapi-schema.ts';
export {
  validateSpecSchemas,
  schemaOptionsForCreate,
  schemaOptionsForUpdate,
  schemaHas,
  internalSpecSchemas,
} from './crd/spec-schemas.ts';
export type { CRDSpecSchemas, V1SpecSchemas } from './crd/spec-schemas.ts';
export { validateDefaults } from './crd/defaults.ts';
export { maxSchemaDepth, schemaDepth, validateSchemaDepth } from './crd/depth.ts';
export { compileValidator } from './validate/validator.ts';
export type { SchemaValidator, ValidatorOptions } from './validate/validator.ts';
export { supportedFormatsAt, unrecognizedFormats, formatCheckers } from './validate/formats.ts';
export { compilePruner, prune } from './prune.ts';
export {
  compileDefaulter,
  applyDefaults,
  compileNullPruner,
  pruneNonNullableNullsWithoutDefaults,
} from './default.ts';
export { compileListSetsAndMaps, validateListSetsAndMaps } from './listtype.ts';
export { coerce, compileCoercer, compileEmbeddedValidator, validateEmbedded } from './objectmeta.ts';
export { validFieldPath } from './fieldpath.ts';
export { goKind, deepCopyJSON, deepEqualJSON, goJSONMarshal } from './value.ts';
export { parseGoJSON } from './gojson.ts';
export { schemaWarningsOnCreate, schemaWarningsOnUpdate } from './crd/warnings.ts';
export { unfold, stripValueValidations, stripNullable, cloneStructural } from './skeleton.ts';
export {
  type RuleCost,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  validateRulesAtCRDWrite,
} from './cel/crd-rules.ts';
export { type CELValidator, compileCELValidator, RUNTIME_CEL_COST_BUDGET } from './cel/index.ts';
export { managedFieldsFields, objectMetaFields, ownerReferenceFields } from './objectmeta.ts';
export {
  AdmissionActivation,
  AdmissionCompiler,
  OUT_OF_BUDGET,
  evaluate as evaluateAdmissionExpression,
  type AdmissionInput,
  type AuthorizerUser,
  type CompiledExpression,
  type CompiledVariable,
  type Evaluation,
  type OptionalDeclarations,
  type ReturnTypes,
  type TypeOverwrite,
  kindDeclType,
  JSON_PATCH_TYPE,
  OBJECT_TYPE,
  patchObjectToJSON,
  patchTypeNamesIn,
} from './admission-cel/index.ts';
