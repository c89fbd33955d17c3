/**
 * The wire shape of a CustomResourceDefinition's `openAPIV3Schema` (apiextensions.k8s.io/v1
 * JSONSchemaProps), with every field Kubernetes accepts, including the `x-kubernetes-*` extensions.
 * Values are plain decoded JSON: this module only names the keys; `structural.ts` interprets them.
 */

/** A `x-kubernetes-validations` entry (ValidationRule). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface ExternalDocumentation {
  description?: string;
  url?: string;
}

/** JSONSchemaProps as it appears in JSON/YAML. Absent keys are undefined. */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  /** Any JSON; `null` counts as no default (Go decodes a JSON null default to nil). */
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema, or (not supported by Kubernetes, but decodable) an array of schemas. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: boolean | JSONSchemaProps;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: boolean | JSONSchemaProps;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: ExternalDocumentation;
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** `items` as a single schema, or undefined when absent or an array (JSONSchemaPropsOrArray.Schema). */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const it = s.items;
  if (it === undefined || it === null || Array.isArray(it)) return undefined;
  return it;
}

/** `additionalProperties` as a schema, or undefined (JSONSchemaPropsOrBool.Schema). */
export function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const ap = s.additionalProperties;
  if (ap === undefined || ap === null || typeof ap === 'boolean') return undefined;
  return ap;
}

/** JSONSchemaPropsOrBool.Allows: `true`, or a schema (a schema implies allows). */
export function additionalPropertiesAllows(s: JSONSchemaProps): boolean {
  const ap = s.additionalProperties;
  return ap === true || (typeof ap === 'object' && ap !== null);
}
