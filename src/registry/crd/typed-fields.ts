/**
 * The JSON fields of apiextensions.k8s.io/v1 CustomResourceDefinition, as its Go types declare
 * them (../typed-fields.ts drops and reports the others).
 *
 * As upstream, fields with their own JSON unmarshaling decode their value leniently: a schema
 * under `items`, `additionalProperties`, `additionalItems` or `dependencies` loses its unknown
 * fields without a report, and `default`, `example` and `enum` hold any JSON.
 */
import { dropUnknownFields, leaf, leaves, lenient, list, map, objectMetaType, struct, type GoType } from '../typed-fields.ts';

const names = struct({ plural: leaf, singular: leaf, shortNames: leaf, kind: leaf, listKind: leaf, categories: leaf });

// JSONSchemaProps refers to itself through properties, allOf/oneOf/anyOf, not, patternProperties
// and definitions: its field map is filled in after it exists.
const schemaFields = new Map<string, GoType>();
const schema: GoType = { k: 'struct', fields: schemaFields };
for (const n of [
  'id', '$schema', '$ref', 'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum',
  'maxProperties', 'minProperties', 'required', 'example', 'nullable', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type',
  'x-kubernetes-map-type',
]) {
  schemaFields.set(n, leaf);
}
// JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, JSONSchemaPropsOrStringArray.
for (const n of ['items', 'additionalProperties', 'additionalItems']) schemaFields.set(n, lenient(schema));
schemaFields.set('dependencies', map(lenient(schema)));
for (const n of ['allOf', 'oneOf', 'anyOf']) schemaFields.set(n, list(schema));
schemaFields.set('not', schema);
for (const n of ['properties', 'patternProperties', 'definitions']) schemaFields.set(n, map(schema));
schemaFields.set('externalDocs', leaves(['description', 'url']));
schemaFields.set('x-kubernetes-validations', list(leaves(['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'])));

const version = struct({
  name: leaf,
  served: leaf,
  storage: leaf,
  deprecated: leaf,
  deprecationWarning: leaf,
  schema: struct({ openAPIV3Schema: schema }),
  subresources: struct({ status: struct({}), scale: leaves(['specReplicasPath', 'statusReplicasPath', 'labelSelectorPath']) }),
  additionalPrinterColumns: list(leaves(['name', 'type', 'format', 'description', 'priority', 'jsonPath'])),
  selectableFields: list(leaves(['jsonPath'])),
});

const conversion = struct({
  strategy: leaf,
  webhook: struct({
    clientConfig: struct({ url: leaf, service: leaves(['namespace', 'name', 'path', 'port']), caBundle: leaf }),
    conversionReviewVersions: leaf,
  }),
});

/** apiextensions.k8s.io/v1 CustomResourceDefinition's JSON fields. */
export const crdType = struct({
  apiVersion: leaf,
  kind: leaf,
  metadata: objectMetaType,
  spec: struct({ group: leaf, names, scope: leaf, versions: list(version), conversion, preserveUnknownFields: leaf }),
  status: struct({
    conditions: list(leaves(['type', 'status', 'lastTransitionTime', 'reason', 'message', 'observedGeneration'])),
    acceptedNames: names,
    storedVersions: leaf,
    observedGeneration: leaf,
  }),
});

/** Drops the fields of a CustomResourceDefinition the v1 types do not have; returns their paths. */
export function dropUnknownCRDFields(obj: Record<string, unknown>): string[] {
  return dropUnknownFields(obj, crdType);
}
