/**
 * The object types of admission expressions (k8s.io/apiserver pkg/admission/plugin/cel
 * compile.go's BuildRequestType and BuildNamespaceType, and composition.go's `kubernetes.variables`):
 * `request` is a `kubernetes.AdmissionRequest`, `namespaceObject` a `kubernetes.Namespace` with
 * only the fields upstream exposes, `variables` an object type whose fields are the policy's
 * variables, added as each one compiles (so a variable sees only those declared before it).
 */
import {
  BoolType,
  DynType,
  IntType,
  StringType,
  TimestampType,
  listOf,
  mapOf,
  structType,
  type Type,
  type TypeProvider,
} from '../../cel/index.ts';

const strings = listOf(StringType);

/** Fields by object type name. */
const admissionTypes: ReadonlyMap<string, ReadonlyMap<string, Type>> = new Map(
  Object.entries({
    'kubernetes.GroupVersionKind': { group: StringType, version: StringType, kind: StringType },
    'kubernetes.GroupVersionResource': { group: StringType, version: StringType, resource: StringType },
    'kubernetes.UserInfo': { username: StringType, uid: StringType, groups: strings, extra: mapOf(StringType, strings) },
    'kubernetes.AdmissionRequest': {
      kind: structType('kubernetes.GroupVersionKind'),
      resource: structType('kubernetes.GroupVersionResource'),
      subResource: StringType,
      requestKind: structType('kubernetes.GroupVersionKind'),
      requestResource: structType('kubernetes.GroupVersionResource'),
      requestSubResource: StringType,
      name: StringType,
      namespace: StringType,
      operation: StringType,
      userInfo: structType('kubernetes.UserInfo'),
      dryRun: BoolType,
      options: DynType,
    },
    'kubernetes.NamespaceSpec': { finalizers: strings },
    'kubernetes.NamespaceCondition': {
      status: StringType,
      type: StringType,
      lastTransitionTime: TimestampType,
      message: StringType,
      reason: StringType,
    },
    'kubernetes.NamespaceStatus': { conditions: listOf(structType('kubernetes.NamespaceCondition')), phase: StringType },
    'kubernetes.NamespaceMetadata': {
      name: StringType,
      generateName: StringType,
      namespace: StringType,
      labels: mapOf(StringType, StringType),
      annotations: mapOf(StringType, StringType),
      UID: StringType,
      creationTimestamp: TimestampType,
      deletionGracePeriodSeconds: IntType,
      deletionTimestamp: TimestampType,
      generation: IntType,
      resourceVersion: StringType,
      finalizers: strings,
    },
    'kubernetes.Namespace': {
      metadata: structType('kubernetes.NamespaceMetadata'),
      spec: structType('kubernetes.NamespaceSpec'),
      status: structType('kubernetes.NamespaceStatus'),
    },
  }).map(([name, fields]) => [name, new Map(Object.entries(fields))]),
);

export const REQUEST_TYPE = structType('kubernetes.AdmissionRequest');
export const NAMESPACE_TYPE = structType('kubernetes.Namespace');
/** composition.go's variablesTypeName. */
export const VARIABLES_TYPE_NAME = 'kubernetes.variables';
export const VARIABLES_TYPE = structType(VARIABLES_TYPE_NAME);

/**
 * The admission object types, plus `kubernetes.variables` with the fields in `variables` (a map
 * the caller keeps adding to as variables compile; the checker reads it on every lookup).
 */
export function admissionTypeProvider(variables: ReadonlyMap<string, Type>): TypeProvider {
  const fieldsOf = (name: string): ReadonlyMap<string, Type> | undefined => (name === VARIABLES_TYPE_NAME ? variables : admissionTypes.get(name));
  return {
    findStructType: (name) => (fieldsOf(name) !== undefined ? structType(name) : undefined),
    findFieldType: (structName, field) => {
      const t = fieldsOf(structName)?.get(field);
      return t === undefined ? undefined : { type: t };
    },
    fieldNames: (structName) => {
      const f = fieldsOf(structName);
      return f === undefined ? undefined : [...f.keys()];
    },
  };
}
