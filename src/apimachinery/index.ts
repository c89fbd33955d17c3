/**
 * The apimachinery layer's public face: field errors and Status as Kubernetes prints them, names,
 * ObjectMeta rules and decoding, label and field selectors, JSON values, patches, resourceVersions
 * and continue tokens.
 */
export { decodeContinue, encodeContinue } from './continue-token.ts';
export {
  aggregateString,
  duplicate,
  errorString,
  type FieldError,
  forbidden,
  internalError,
  invalid,
  notSupported,
  omitValue,
  required,
  supportedValuesDetail,
  tooLongMaxLength,
  tooMany,
  typeInvalid,
} from './field/errors.ts';
export { GoFloat, goFloatsMade, goFloatString, goJSON, GoJSONText, goQuote } from './field/govalue.ts';
export { Path } from './field/path.ts';
export {
  customResourceFieldLabels,
  type FieldSelector,
  fieldsMatch,
  parseFieldSelector,
} from './fields/selector.ts';
export { deepCopyJSON } from './json/copy.ts';
export { decodeJSON, JSONSyntaxError, type DecodedBody } from './json/decode.ts';
export { maxNestingDepth, nestingDepthError, valueDepth } from './json/depth.ts';
export { jsonEqual } from './json/equal.ts';
export { goJSONKind, goJSONSyntaxError, parseGoJSONText } from './json/go-json.ts';
export { canonicalJSON, type JSONWriter, sortedKeys, stringifyJSON, writeJSONIteratively } from './json/stringify.ts';
export { isEmpty, labelSelectorAsSelector, matches, parseSelector, selectorFromSet, selectorString, type Selector } from './labels/selector.ts';
export { validateLabelSelector, type LabelSelector } from './labels/selector.ts';
export {
  applyJSONPatch,
  decodeJSONPatch,
  JSONPatchError,
  MaxJSONPatchOperations,
} from './patch/json-patch.ts';
export { applyMergePatch, MergePatchError } from './patch/merge-patch.ts';
export {
  OpenAPIV3PatchMeta,
  type PatchMetaLookup,
  strategicMergePatch,
  StrategicMergePatchError,
} from './patch/strategic/index.ts';
export {
  parseGoBool,
  parseGoInt,
  parseGoUint,
  queryParamBool,
  requireResourceVersion,
} from './resource-version.ts';
export {
  errorToStatus,
  failureStatus,
  type GroupKind,
  type GroupResource,
  isAlreadyExists,
  isConflict,
  isNotFound,
  isStatusError,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newForbidden,
  newUnauthorized,
  newGenerateNameConflict,
  newGenericServerResponse,
  newInternalError,
  newInvalid,
  newMethodNotAllowed,
  newMethodNotSupported,
  newNotAcceptableMediaTypes,
  newNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newServiceUnavailable,
  newTimeout,
  newTooManyRequests,
  newUnsupportedMediaType,
  type Status,
  StatusError,
  successStatus,
} from './status.ts';
export { formatMicroTime, formatRFC3339, nowRFC3339, parseRFC3339, parseRFC3339Micro } from './time.ts';
export {
  isDNS1035Label,
  isDNS1123Subdomain,
  isFullyQualifiedName,
  isQualifiedName,
  isValidPathSegmentName,
  isValidPortNum,
  nameIsDNS1035Label,
  nameIsDNSSubdomain,
  type ValidateNameFunc,
  validateNamespaceName,
  validatePathSegmentName,
} from './validation/names.ts';
export {
  cidrContains,
  cidrSize,
  formatCIDR,
  formatIP,
  type CIDR,
  type IP,
  type IPFamily,
  isIPv6String,
  isValidCIDR,
  isValidInterfaceAddress,
  isValidIP,
  parseCIDR,
  parseIP,
} from './validation/ip.ts';
export {
  managedFieldsFields,
  objectMetaFields,
  ownerReferenceFields,
} from './validation/objectmeta-decode.ts';
export {
  decodeObjectMeta,
  encodeObjectMeta,
  validateFinalizerName,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from './validation/objectmeta.ts';
export {
  newInvalidOptions,
  validateCreateOptions,
  validateDeleteOptions,
  validatePatchOptions,
  validateUpdateOptions,
} from './validation/options.ts';
export {
  duplicateKeysMessage,
  isEmptyYAMLDocument,
  readYAML,
  readYAMLDocuments,
  splitYAMLDocuments,
  YAMLDecodeError,
  type DuplicateKey,
  type YAMLDocument,
  yamlToJSON,
} from './yaml/index.ts';
/** Kubernetes' protobuf serialization of the built-in kinds (descriptors vendored under vendor/k8s-proto/1.35/). */
export { decodeEnvelope, encodeEnvelope, type Envelope, protobufMagic } from './protobuf/envelope.ts';
export { decodeMessage as decodeProtobufMessage } from './protobuf/decode.ts';
export { encodeMessage as encodeProtobufMessage } from './protobuf/encode.ts';
export { kindMessage as protobufKindMessage, type Message as ProtobufMessage } from './protobuf/descriptors.ts';
export { ProtoError, Writer as ProtoWriter } from './protobuf/wire.ts';
export { Tally } from './tally.ts';
export {
  checkManagedFieldsAfterAdmission,
  customResourceResetFields,
  deducedTypeConverter,
  ignoreManagedFieldsTimestamps,
  newFieldManager,
  newSchemasTypeConverter,
  newTypeConverter,
  RequestConversions,
  type FieldManager,
  type ManagedFieldsEntry,
  type TypeConverter,
} from './managedfields/index.ts';
export { schemaFromOpenAPI, schemaFromStructural, type Filter, type OpenAPISchema, type StructuralNode } from './smd/index.ts';
export { resolve as resolveMergeType, TypedError, type Atom as MergeAtom, type Schema as MergeSchema, type TypeRef as MergeTypeRef } from './smd/index.ts';
/** Field-error builders and name and label checks the built-in kinds' native validation uses. */
export { notFound, tooFew, tooLong } from './field/errors.ts';
export { formatGoValue } from './field/govalue.ts';
export {
  DNS1123LabelMaxLength,
  inclusiveRangeError,
  isDNS1123Label,
  isDomainPrefixedPath,
  isInRange,
  isValidLabelValue,
  isValidPortName,
  maxLenError,
  regexError,
} from './validation/names.ts';
export { validateAnnotations, validateLabelName, validateLabels } from './validation/objectmeta.ts';
export { SelectorParseError } from './labels/selector.ts';
/** The checks native validation of built-in kinds uses beyond names and ObjectMeta. */
export { isConfigMapKey } from './validation/config-key.ts';
export { isWildcardDNS1123Subdomain, nameIsDNSLabel } from './validation/names.ts';
export { FieldImmutableErrorMsg, IsNegativeErrorMsg } from './validation/objectmeta.ts';
export { type LabelSelectorValidationOptions } from './labels/selector.ts';
export { objectDiff } from './diff/unified.ts';
export { validateCondition, validateConditions } from './validation/conditions.ts';
export { isCIdentifier } from './validation/names.ts';
export { packageRoot, vendorURL } from './vendor.ts';
