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
  const f = fieldsOf(s);
  validateUnsupportedFields(f);
  const ss: Structural = newGenerics(f) as Structural;
  addExtensions(f, ss);
  ss.valueValidation = newValueValidation(f);
  if (f.xValidations !== undefined && f.xValidations !== null) ss.xValidations = f.xValidations;
  const items = f.items;
  if (items !== undefined && items !== null) {
    if (Array.isArray(items)) {
      if (items.length > 0) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    } else {
      ss.items = newStructural(items);
    }
  }
  const props = f.properties;
  if (props) {
    let m: Map<string, Structural> | undefined;
    for (const k in props) (m ??= new Map()).set(k, newStructural(props[k] ?? {})!);
    if (m !== undefined) ss.properties = m;
  }
  const ap = f.additionalProperties;
  if (ap !== undefined && ap !== null) {
    if (typeof ap === 'object') ss.additionalProperties = { structural: newStructural(ap), bool: true };
    else ss.additionalProperties = { bool: ap === true };
  }
  return ss;
}

/**
 * The keywords of one schema node that newStructural reads, gathered in one pass over the node's
 * own keys. Schemas decoded from JSON come in thousands of shapes, so reading each of some forty
 * keywords by name (most of them absent) is a megamorphic lookup every time; a node has only a
 * few keys, and reading those by the loop's key is not.
 */
class SchemaFields {
  id: JSONSchemaProps['id'] = undefined;
  $schema: JSONSchemaProps['$schema'] = undefined;
  $ref: JSONSchemaProps['$ref'] = undefined;
  patternProperties: JSONSchemaProps['patternProperties'] = undefined;
  dependencies: JSONSchemaProps['dependencies'] = undefined;
  additionalItems: JSONSchemaProps['additionalItems'] = undefined;
  definitions: JSONSchemaProps['definitions'] = undefined;
  type: JSONSchemaProps['type'] = undefined;
  description: JSONSchemaProps['description'] = undefined;
  title: JSONSchemaProps['title'] = undefined;
  nullable: JSONSchemaProps['nullable'] = undefined;
  default: JSONSchemaProps['default'] = undefined;
  example: JSONSchemaProps['example'] = undefined;
  externalDocs: JSONSchemaProps['externalDocs'] = undefined;
  xEmbeddedResource: JSONSchemaProps['x-kubernetes-embedded-resource'] = undefined;
  xIntOrString: JSONSchemaProps['x-kubernetes-int-or-string'] = undefined;
  xListMapKeys: JSONSchemaProps['x-kubernetes-list-map-keys'] = undefined;
  xListType: JSONSchemaProps['x-kubernetes-list-type'] = undefined;
  xMapType: JSONSchemaProps['x-kubernetes-map-type'] = undefined;
  xPreserveUnknownFields: JSONSchemaProps['x-kubernetes-preserve-unknown-fields'] = undefined;
  xValidations: JSONSchemaProps['x-kubernetes-validations'] = undefined;
  format: JSONSchemaProps['format'] = undefined;
  maximum: JSONSchemaProps['maximum'] = undefined;
  exclusiveMaximum: JSONSchemaProps['exclusiveMaximum'] = undefined;
  minimum: JSONSchemaProps['minimum'] = undefined;
  exclusiveMinimum: JSONSchemaProps['exclusiveMinimum'] = undefined;
  maxLength: JSONSchemaProps['maxLength'] = undefined;
  minLength: JSONSchemaProps['minLength'] = undefined;
  pattern: JSONSchemaProps['pattern'] = undefined;
  maxItems: JSONSchemaProps['maxItems'] = undefined;
  minItems: JSONSchemaProps['minItems'] = undefined;
  uniqueItems: JSONSchemaProps['uniqueItems'] = undefined;
  multipleOf: JSONSchemaProps['multipleOf'] = undefined;
  maxProperties: JSONSchemaProps['maxProperties'] = undefined;
  minProperties: JSONSchemaProps['minProperties'] = undefined;
  required: JSONSchemaProps['required'] = undefined;
  enum: JSONSchemaProps['enum'] = undefined;
  allOf: JSONSchemaProps['allOf'] = undefined;
  anyOf: JSONSchemaProps['anyOf'] = undefined;
  oneOf: JSONSchemaProps['oneOf'] = undefined;
  not: JSONSchemaProps['not'] = undefined;
  items: JSONSchemaProps['items'] = undefined;
  properties: JSONSchemaProps['properties'] = undefined;
  additionalProperties: JSONSchemaProps['additionalProperties'] = undefined;
}

/** Keywords by JSON name, for fieldsOf (the others are named as in JSON). */
const renamed: Record<string, keyof SchemaFields> = {
  'x-kubernetes-embedded-resource': 'xEmbeddedResource',
  'x-kubernetes-int-or-string': 'xIntOrString',
  'x-kubernetes-list-map-keys': 'xListMapKeys',
  'x-kubernetes-list-type': 'xListType',
  'x-kubernetes-map-type': 'xMapType',
  'x-kubernetes-preserve-unknown-fields': 'xPreserveUnknownFields',
  'x-kubernetes-validations': 'xValidations',
};
/** The keywords named as in JSON (not the renamed ones' field names: a key `xListType` is no keyword). */
const known = new Set<string>(Object.keys(new SchemaFields()).filter((k) => !Object.values(renamed).includes(k as keyof SchemaFields)));

function fieldsOf(s: JSONSchemaProps): SchemaFields {
  const f = new SchemaFields();
  const w = f as unknown as Record<string, unknown>;
  for (const k in s) {
    const v = (s as Record<string, unknown>)[k];
    if (known.has(k)) w[k] = v;
    else if (k.charCodeAt(0) === 120 /* x */ && Object.hasOwn(renamed, k)) w[renamed[k]!] = v;
  }
  return f;
}

function newGenerics(f: SchemaFields): Generic {
  const g: Generic = {
    type: f.type ?? '',
    description: f.description ?? '',
    title: f.title ?? '',
    nullable: f.nullable === true,
    default: f.default === null ? undefined : f.default,
    example: f.example === null ? undefined : f.example,
  };
  if (f.externalDocs !== undefined && f.externalDocs !== null) {
    g.externalDocs = { description: f.externalDocs.description ?? '', url: f.externalDocs.url ?? '' };
  }
  return g;
}

/** The x-kubernetes-* extensions of f, added to x (in Go's field order). */
function addExtensions(f: SchemaFields, x: Extensions): void {
  x.xPreserveUnknownFields = false;
  x.xEmbeddedResource = f.xEmbeddedResource === true;
  x.xIntOrString = f.xIntOrString === true;
  const keys = f.xListMapKeys;
  if (keys !== undefined && keys !== null) x.xListMapKeys = keys;
  const lt = f.xListType;
  if (lt !== undefined && lt !== null) x.xListType = lt;
  const mt = f.xMapType;
  if (mt !== undefined && mt !== null) x.xMapType = mt;
  const p = f.xPreserveUnknownFields;
  if (p !== undefined && p !== null) {
    if (!p) throw new StructuralError("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
    x.xPreserveUnknownFields = true;
  }
}

function newExtensions(f: SchemaFields): Extensions {
  const x = {} as Extensions;
  addExtensions(f, x);
  return x;
}

function opt<T>(v: T | null | undefined): T | undefined {
  return v === null ? undefined : v;
}

function newValueValidation(f: SchemaFields): ValueValidation {
  const v: ValueValidation = {
    format: f.format ?? '',
    maximum: opt(f.maximum),
    exclusiveMaximum: f.exclusiveMaximum === true,
    minimum: opt(f.minimum),
    exclusiveMinimum: f.exclusiveMinimum === true,
    maxLength: opt(f.maxLength),
    minLength: opt(f.minLength),
    pattern: f.pattern ?? '',
    maxItems: opt(f.maxItems),
    minItems: opt(f.minItems),
    uniqueItems: f.uniqueItems === true,
    multipleOf: opt(f.multipleOf),
    maxProperties: opt(f.maxProperties),
    minProperties: opt(f.minProperties),
    required: opt(f.required),
    not: f.not ? newNestedValueValidation(f.not) : undefined,
  };
  // Go appends enum/allOf/... one by one: an empty list stays nil.
  if (f.enum && f.enum.length > 0) v.enum = f.enum.slice();
  if (f.allOf && f.allOf.length > 0) v.allOf = f.allOf.map((x) => newNestedValueValidation(x ?? {}));
  if (f.anyOf && f.anyOf.length > 0) v.anyOf = f.anyOf.map((x) => newNestedValueValidation(x ?? {}));
  if (f.oneOf && f.oneOf.length > 0) v.oneOf = f.oneOf.map((x) => newNestedValueValidation(x ?? {}));
  return v;
}

function newNestedValueValidation(s: JSONSchemaProps): NestedValueValidation {
  const f = fieldsOf(s);
  validateUnsupportedFields(f);
  const v: NestedValueValidation = {
    ...newValueValidation(f),
    forbiddenGenerics: newGenerics(f),
    forbiddenExtensions: newExtensions(f),
  };
  if (f.xValidations !== undefined && f.xValidations !== null) v.xValidations = f.xValidations;
  const items = f.items;
  if (items !== undefined && items !== null) {
    if (Array.isArray(items)) {
      if (items.length > 0) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
    } else {
      v.items = newNestedValueValidation(items);
    }
  }
  if (f.properties !== undefined && f.properties !== null) {
    v.properties = new Map();
    for (const [k, x] of Object.entries(f.properties)) v.properties.set(k, newNestedValueValidation(x ?? {}));
  }
  const ap = f.additionalProperties;
  if (ap !== undefined && ap !== null) {
    if (typeof ap === 'object') v.additionalProperties = newNestedValueValidation(ap);
    else if (ap) v.additionalProperties = emptyNested();
  }
  return v;
}

function emptyNested(): NestedValueValidation {
  const f = new SchemaFields();
  return {
    ...newValueValidation(f),
    forbiddenGenerics: newGenerics(f),
    forbiddenExtensions: newExtensions(f),
  };
}

function validateUnsupportedFields(f: SchemaFields): void {
  if (f.id) throw new StructuralError("OpenAPIV3Schema 'id' is not supported");
  if (f.$schema) throw new StructuralError("OpenAPIV3Schema 'schema' is not supported");
  if (f.$ref) throw new StructuralError("OpenAPIV3Schema '$ref' is not supported");
  if (f.patternProperties && Object.keys(f.patternProperties).length > 0) {
    throw new StructuralError("OpenAPIV3Schema 'patternProperties' is not supported");
  }
  if (f.dependencies && Object.keys(f.dependencies).length > 0) {
    throw new StructuralError("OpenAPIV3Schema 'dependencies' is not supported");
  }
  if (f.additionalItems !== undefined && f.additionalItems !== null) {
    throw new StructuralError("OpenAPIV3Schema 'additionalItems' is not supported");
  }
  if (f.definitions && Object.keys(f.definitions).length > 0) {
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
