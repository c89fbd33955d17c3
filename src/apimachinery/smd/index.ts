/**
 * structured-merge-diff in TypeScript (sigs.k8s.io/structured-merge-diff/v6): field paths and
 * sets with their FieldsV1 form, the merge schema and its converters (structural schema, OpenAPI),
 * typed values (validate, field set, compare, merge, remove, extract), and the Updater that
 * performs server-side apply over managed fields. Knows nothing of Kubernetes objects; see
 * ../managedfields for metadata.managedFields and the field manager.
 */
export {
  deserializeElement,
  elementString,
  fieldElement,
  indexElement,
  keyElement,
  pathString,
  serializeElement,
  valueElement,
  type KeyField,
  type Path,
  type PathElement,
} from './fieldpath/element.ts';
export {
  excludeSetFilter,
  FieldSet,
  includeMatcherFilter,
  prefixMatcher,
  type Filter,
  type PathElementMatcher,
  type SetMatcher,
} from './fieldpath/set.ts';
export { FieldsV1Error, setFromJSON, setToJSON } from './fieldpath/serialize.ts';
export { managedFieldsDifference, managedFieldsEqual, versionedSet, type ManagedFields, type VersionedSet } from './fieldpath/managers.ts';
export { deducedSchema, deducedTypeRef, parseSchema, resolve, type Atom, type Schema, type TypeRef } from './schema/schema.ts';
export { schemaFromOpenAPI, SchemaConversionError, type OpenAPISchema } from './schema/from-openapi.ts';
export { objectMetaName, schemaFromStructural, structuralToOpenAPI, type StructuralMergeSchemaOptions, type StructuralNode } from './schema/from-structural.ts';
export { asDeduced, asTyped, TypedValue, type ValidationOptions } from './typed/typed.ts';
export { TypedError, validationErrorsString, type ValidationError } from './typed/errors.ts';
export { comparisonString, isSame, type Comparison } from './typed/compare.ts';
export { ConflictsError, conflictsString, type Conflict } from './merge/conflict.ts';
export { sameVersionConverter, Updater, type Converter, type UpdaterOptions } from './merge/update.ts';
