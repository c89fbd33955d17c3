/**
 * Server-side apply for Kubernetes objects (k8s.io/apimachinery/pkg/util/managedfields): the
 * field manager the write path calls on every create, update and patch (Update) and for
 * `application/apply-patch+yaml` (Apply); metadata.managedFields encoding; the 409 Status of
 * apply conflicts; and type converters from merge schemas.
 */
export { FieldManager, newFieldManager, type FieldManagerOptions } from './field-manager.ts';
export {
  buildManagerIdentifier,
  decodeManagedFields,
  encodeManagedFields,
  ManagedFieldsDecodeError,
  sortManagedFieldsEntries,
  type Managed,
  type ManagedFieldsEntry,
} from './entries.ts';
export { newConflictError, printManager } from './conflict.ts';
export { deducedTypeConverter, newSchemasTypeConverter, newTypeConverter } from './type-converter.ts';
export { PendingConversionError, RequestConversions } from './request-conversions.ts';
export { NoCorrespondingTypeError, type Manager, type Obj, type TypeConverter } from './manager.ts';
export { rewriteAPIVersion, versionConverter } from './structured-merge.ts';
export { beforeFirstApplyManager } from './before-first-apply.ts';
export { lastAppliedConfigAnnotation } from './last-applied.ts';
export { capUpdateManagers, defaultMaxUpdateManagers } from './cap-managers.ts';
export { checkManagedFieldsAfterAdmission } from './admission.ts';
export { customResourceResetFields } from './reset-fields.ts';
export { setLastApplied } from './last-applied.ts';
export { ignoreManagedFieldsTimestamps } from './ignore-timestamps.ts';
