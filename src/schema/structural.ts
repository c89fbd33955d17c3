/**
 * The structural schema model (k8s.io/apiextensions-apiserver/pkg/apiserver/schema): the typed tree
 * every schema algorithm walks (pruning, defaulting, list types, validation, CEL), and
 * `newStructural`, which converts a JSONSchemaProps into it. Value validations that are not part of
 * the structure (allOf/anyOf/oneOf/not) live in `NestedValueValidation`, whose generic fields and
 * extensions are kept only so that the structural checks can forbid them.
 */
import type { ExternalDocumentation, JSONSchemaProps, ValidationRule } from './types.ts';

/** Generic: the fields every schema node may carry that do not validate anything. */
export interface Generic {
  description: string;
  /** '' when unset. */
  type: string;
  title: string;
  /** undefined when unset; a JSON null default counts as unset, as in Go. */
  default: unknown;
  nullable: boolean;
  externalDocs?: ExternalDocumentation;
  example: unknown;
}

/** The x-kubernetes-* structural extensions. */
export interface Extensions {
  xPreserveUnknownFields: boolean;
  xEmbeddedResource: boolean;
  xIntOrString: boolean;
  xListMapKeys?: string[];
  xListType?: string;
  xMapType?: string;
}

/** Value validations; `undefined` fields are unset (Go nil pointers / nil slices). */
export interface ValueValidation {
  format: string;
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  maxLength?: number;
  minLength?: number;
  pattern: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  allOf?: NestedValueValidation[];
  oneOf?: NestedValueValidation[];
  anyOf?: NestedValueValidation[];
  not?: NestedValueValidation;
}

/** A value validation below allOf/anyOf/oneOf/not: structure here only constrains, never defines. */
export interface NestedValueValidation extends ValueValidation {
  xValidations?: ValidationRule[];
  items?: NestedValueValidation;
  properties?: Map<string, NestedValueValidation>;
  additionalProperties?: NestedValueValidation;
  forbiddenGenerics: Generic;
  forbiddenExtensions: Extensions;
}

export interface StructuralOrBool {
  structural?: Structural;
  bool: boolean;
}

/** A structural schema node. */
export interface Structural extends Generic, Extensions {
  items?: Structural;
  properties?: Map<string, Structural>;
  additionalProperties?: StructuralOrBool;
  xValidations?: ValidationRule[];
  valueValidation?: ValueValidation;
}

/** An error converting a schema (NewStructural's error). */
export class StructuralError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StructuralError';
  }
}

/** An empty structural node (Go's zero Structural). */
export function emptyStructural(): Structural {
  return {
    description: '',
    type: '',
    title: '',
    default: undefined,
    nullable: false,
    example: undefined,
    xPreserveUnknownFields: false,
    xEmbeddedResource: false,
    xIntOrString: false,
  };
}

/**
 * NewStructural: converts a JSONSchemaProps into a Structural. Throws StructuralError (Go's
 * message) for unsupported keywords ($ref, id, $schema, patternProperties, dependencies,
 * additionalItems, definitions), array-form items, and x-kubernetes-preserve-unknown-fields: false.
 * Does not check structural rules; see crd/structural-checks.ts.
 */
export function newStructural(s: JSONSchemaProps | null | undefined): Structural | undefined {
  if (s === null || s === undefined) return undefined;
  validateUnsupportedFields(s);
  const ss: Structural = {
    ...newGenerics(s),
    ...newExtensions(s),
    valueValidation: newValueValidation(s),
  };
  if (s['x-kubernetes-validations'] !== undefined && s['x-kubernetes-validations'] !== null) {
    ss.xValidations = s['x-kubernetes-validations'];
  }
  if (s.items !== undefined && s.items !== null) {
    if (Array.isArray(s.items)) {
      if (s.items.length > 0) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    } else {
      ss.items = newStructural(s.items);
    }
  }
  if (s.properties && Object.keys(s.properties).length > 0) {
    ss.properties = new Map();
    for (const [k, x] of Object.entries(s.properties)) ss.properties.set(k, newStructural(x ?? {})!);
  }
  const ap = s.additionalProperties;
  if (ap !== undefined && ap !== null) {
    if (typeof ap === 'object') ss.additionalProperties = { structural: newStructural(ap), bool: true };
    else ss.additionalProperties = { bool: ap === true };
  }
  return ss;
}

function newGenerics(s: JSONSchemaProps): Generic {
  const g: Generic = {
    type: s.type ?? '',
    description: s.description ?? '',
    title: s.title ?? '',
    nullable: s.nullable === true,
    default: s.default === null ? undefined : s.default,
    example: s.example === null ? undefined : s.example,
  };
  if (s.externalDocs !== undefined && s.externalDocs !== null) {
    g.externalDocs = { description: s.externalDocs.description ?? '', url: s.externalDocs.url ?? '' };
  }
  return g;
}

function newExtensions(s: JSONSchemaProps): Extensions {
  const x: Extensions = {
    xPreserveUnknownFields: false,
    xEmbeddedResource: s['x-kubernetes-embedded-resource'] === true,
    xIntOrString: s['x-kubernetes-int-or-string'] === true,
  };
  const keys = s['x-kubernetes-list-map-keys'];
  if (keys !== undefined && keys !== null) x.xListMapKeys = keys;
  const lt = s['x-kubernetes-list-type'];
  if (lt !== undefined && lt !== null) x.xListType = lt;
  const mt = s['x-kubernetes-map-type'];
  if (mt !== undefined && mt !== null) x.xMapType = mt;
  const p = s['x-kubernetes-preserve-unknown-fields'];
  if (p !== undefined && p !== null) {
    if (!p) throw new StructuralError("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
    x.xPreserveUnknownFields = true;
  }
  return x;
}

function opt<T>(v: T | null | undefined): T | undefined {
  return v === null ? undefined : v;
}

function newValueValidation(s: JSONSchemaProps): ValueValidation {
  const v: ValueValidation = {
    format: s.format ?? '',
    maximum: opt(s.maximum),
    exclusiveMaximum: s.exclusiveMaximum === true,
    minimum: opt(s.minimum),
    exclusiveMinimum: s.exclusiveMinimum === true,
    maxLength: opt(s.maxLength),
    minLength: opt(s.minLength),
    pattern: s.pattern ?? '',
    maxItems: opt(s.maxItems),
    minItems: opt(s.minItems),
    uniqueItems: s.uniqueItems === true,
    multipleOf: opt(s.multipleOf),
    maxProperties: opt(s.maxProperties),
    minProperties: opt(s.minProperties),
    required: opt(s.required),
    not: s.not ? newNestedValueValidation(s.not) : undefined,
  };
  // Go appends enum/allOf/... one by one: an empty list stays nil.
  if (s.enum && s.enum.length > 0) v.enum = s.enum.slice();
  if (s.allOf && s.allOf.length > 0) v.allOf = s.allOf.map((x) => newNestedValueValidation(x ?? {}));
  if (s.anyOf && s.anyOf.length > 0) v.anyOf = s.anyOf.map((x) => newNestedValueValidation(x ?? {}));
  if (s.oneOf && s.oneOf.length > 0) v.oneOf = s.oneOf.map((x) => newNestedValueValidation(x ?? {}));
  return v;
}

function newNestedValueValidation(s: JSONSchemaProps): NestedValueValidation {
  validateUnsupportedFields(s);
  const v: NestedValueValidation = {
    ...newValueValidation(s),
    forbiddenGenerics: newGenerics(s),
    forbiddenExtensions: newExtensions(s),
  };
  if (s['x-kubernetes-validations'] !== undefined && s['x-kubernetes-validations'] !== null) {
    v.xValidations = s['x-kubernetes-validations'];
  }
  if (s.items !== undefined && s.items !== null) {
    if (Array.isArray(s.items)) {
      if (s.items.length > 0) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    } else {
      v.items = newNestedValueValidation(s.items);
    }
  }
  if (s.properties !== undefined && s.properties !== null) {
    v.properties = new Map();
    for (const [k, x] of Object.entries(s.properties)) v.properties.set(k, newNestedValueValidation(x ?? {}));
  }
  const ap = s.additionalProperties;
  if (ap !== undefined && ap !== null) {
    if (typeof ap === 'object') v.additionalProperties = newNestedValueValidation(ap);
    else if (ap) v.additionalProperties = emptyNested();
  }
  return v;
}

function emptyNested(): NestedValueValidation {
  return {
    ...newValueValidation({}),
    forbiddenGenerics: newGenerics({}),
    forbiddenExtensions: newExtensions({}),
  };
}

function validateUnsupportedFields(s: JSONSchemaProps): void {
  if (s.id) throw new StructuralError("OpenAPIV3Schema 'id' is not supported");
  if (s.$schema) throw new StructuralError("OpenAPIV3Schema 'schema' is not supported");
  if (s.$ref) throw new StructuralError("OpenAPIV3Schema '$ref' is not supported");
  if (s.patternProperties && Object.keys(s.patternProperties).length > 0) {
    throw new StructuralError("OpenAPIV3Schema 'patternProperties' is not supported");
  }
  if (s.dependencies && Object.keys(s.dependencies).length > 0) {
    throw new StructuralError("OpenAPIV3Schema 'dependencies' is not supported");
  }
  if (s.additionalItems !== undefined && s.additionalItems !== null) {
    throw new StructuralError("OpenAPIV3Schema 'additionalItems' is not supported");
  }
  if (s.definitions && Object.keys(s.definitions).length > 0) {
    throw new StructuralError("OpenAPIV3Schema 'definitions' is not supported");
  }
}

/** True when a value validation sets nothing (Go: DeepEqual with the zero ValueValidation). */
export function isEmptyValueValidation(v: ValueValidation | undefined): boolean {
  if (v === undefined) return true;
  return (
    v.format === '' &&
    v.maximum === undefined &&
    !v.exclusiveMaximum &&
    v.minimum === undefined &&
    !v.exclusiveMinimum &&
    v.maxLength === undefined &&
    v.minLength === undefined &&
    v.pattern === '' &&
    v.maxItems === undefined &&
    v.minItems === undefined &&
    !v.uniqueItems &&
    v.multipleOf === undefined &&
    v.enum === undefined &&
    v.maxProperties === undefined &&
    v.minProperties === undefined &&
    v.required === undefined &&
    v.allOf === undefined &&
    v.oneOf === undefined &&
    v.anyOf === undefined &&
    v.not === undefined
  );
}

/**
 * Structural.ToKubeOpenAPI: the schema a structural node stands for, as JSONSchemaProps. As
 * upstream, x-kubernetes-int-or-string does not become a type list here (used to validate
 * defaults, where only the anyOf/allOf clauses constrain int-or-string values).
 */
export function structuralToSchema(s: Structural | undefined): JSONSchemaProps | undefined {
  if (s === undefined) return undefined;
  const out: JSONSchemaProps = {};
  if (s.items !== undefined) out.items = structuralToSchema(s.items);
  if (s.properties !== undefined) {
    out.properties = {};
    for (const [k, v] of s.properties) out.properties[k] = structuralToSchema(v)!;
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties =
      s.additionalProperties.structural !== undefined ? structuralToSchema(s.additionalProperties.structural)! : s.additionalProperties.bool;
  }
  if (s.type !== '') out.type = s.type;
  if (s.nullable) out.nullable = true;
  if (s.description !== '') out.description = s.description;
  if (s.title !== '') out.title = s.title;
  if (s.default !== undefined) out.default = s.default;
  if (s.xPreserveUnknownFields) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (s.xEmbeddedResource) out['x-kubernetes-embedded-resource'] = true;
  if (s.xListMapKeys !== undefined && s.xListMapKeys.length > 0) out['x-kubernetes-list-map-keys'] = s.xListMapKeys;
  if (s.xListType !== undefined) out['x-kubernetes-list-type'] = s.xListType;
  if (s.xMapType !== undefined) out['x-kubernetes-map-type'] = s.xMapType;
  if (s.xValidations !== undefined && s.xValidations.length > 0) out['x-kubernetes-validations'] = s.xValidations;
  valueValidationToSchema(s.valueValidation, out);
  return out;
}

function valueValidationToSchema(v: ValueValidation | undefined, out: JSONSchemaProps): void {
  if (v === undefined) return;
  if (v.format !== '') out.format = v.format;
  if (v.maximum !== undefined) out.maximum = v.maximum;
  if (v.exclusiveMaximum) out.exclusiveMaximum = true;
  if (v.minimum !== undefined) out.minimum = v.minimum;
  if (v.exclusiveMinimum) out.exclusiveMinimum = true;
  if (v.maxLength !== undefined) out.maxLength = v.maxLength;
  if (v.minLength !== undefined) out.minLength = v.minLength;
  if (v.pattern !== '') out.pattern = v.pattern;
  if (v.maxItems !== undefined) out.maxItems = v.maxItems;
  if (v.minItems !== undefined) out.minItems = v.minItems;
  if (v.uniqueItems) out.uniqueItems = true;
  if (v.multipleOf !== undefined) out.multipleOf = v.multipleOf;
  if (v.enum !== undefined) out.enum = v.enum;
  if (v.maxProperties !== undefined) out.maxProperties = v.maxProperties;
  if (v.minProperties !== undefined) out.minProperties = v.minProperties;
  if (v.required !== undefined) out.required = v.required;
  if (v.allOf !== undefined) out.allOf = v.allOf.map(nestedToSchema);
  if (v.anyOf !== undefined) out.anyOf = v.anyOf.map(nestedToSchema);
  if (v.oneOf !== undefined) out.oneOf = v.oneOf.map(nestedToSchema);
  if (v.not !== undefined) out.not = nestedToSchema(v.not);
}

function nestedToSchema(v: NestedValueValidation): JSONSchemaProps {
  const out: JSONSchemaProps = {};
  valueValidationToSchema(v, out);
  if (v.xValidations !== undefined && v.xValidations.length > 0) out['x-kubernetes-validations'] = v.xValidations;
  if (v.items !== undefined) out.items = nestedToSchema(v.items);
  if (v.properties !== undefined) {
    out.properties = {};
    for (const [k, p] of v.properties) out.properties[k] = nestedToSchema(p);
  }
  // ForbiddenGenerics: normally empty; the int-or-string clauses carry their type here.
  if (v.forbiddenGenerics.type !== '') out.type = v.forbiddenGenerics.type;
  if (v.forbiddenGenerics.nullable) out.nullable = true;
  return out;
}
