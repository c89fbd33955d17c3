/**
 * Structural schema -> CEL types (k8s.io/apiserver pkg/cel/types.go DeclType and
 * pkg/cel/common/schemas.go SchemaDeclType, with apiextensions' WithTypeAndObjectMeta): objects with
 * properties become object types, additionalProperties maps, arrays lists, int-or-string dyn, and
 * string formats byte/duration/date/date-time bytes, duration and timestamp. Each type carries the
 * maximum size the cost estimator assumes (maxLength, maxItems, maxProperties, or what fits in a
 * 3 MiB request) and its minimum serialized size. Also the TypeProvider and SizeEstimator the CEL
 * checker and cost estimator consult.
 */
import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  StringType,
  TimestampType,
  listOf,
  mapOf,
  structType,
  type AstNode,
  type SizeEstimate,
  type Type,
  type TypeProvider,
} from '../../cel/index.ts';
import type { Structural } from '../structural.ts';
import { emptyStructural } from '../structural.ts';
import { CEL_RESERVED_SYMBOLS, escape } from './escaping.ts';

/** celconfig.MaxRequestSizeBytes: the largest request kube-apiserver accepts (3 MiB). */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
export const MAX_DURATION_SIZE_JSON = 32;
export const MAX_DATETIME_SIZE_JSON = 32;
export const MIN_DURATION_SIZE_JSON = 3;
export const JSON_DATE_SIZE = 12;
export const MIN_DATETIME_SIZE_JSON = 21;
export const MIN_STRING_SIZE = 2;
export const MIN_BOOL_SIZE = 4;
export const MIN_NUMBER_SIZE = 1;
/** apimachinery's DNS1123SubdomainMaxLength: the cap of metadata.name in rules. */
const NAME_MAX_LENGTH = 253;

/** A field of an object type: its escaped CEL name and JSON property name. */
export interface DeclField {
  /** The escaped CEL identifier. */
  name: string;
  /** The JSON property name. */
  property: string;
  type: DeclType;
  required: boolean;
}

/**
 * A CEL type declared from a schema node (DeclType). `schema` is the structural node the type was
 * made from (after WithTypeAndObjectMeta at resource roots); the runtime conversion reads formats,
 * nullability and list types from it.
 */
export interface DeclType {
  /** 'object' until named, then the qualified object type name; 'list', 'map' or a scalar name. */
  name: string;
  kind: 'object' | 'list' | 'map' | 'scalar';
  celType: Type;
  /** Object fields by escaped name. */
  fields?: Map<string, DeclField>;
  /** Object fields by JSON property name (the runtime conversion's lookup). */
  byProperty?: Map<string, DeclField>;
  keyType?: DeclType;
  elemType?: DeclType;
  /** The largest size (string length, bytes, list or map entries) the cost estimator assumes. */
  maxElements: number;
  /** The smallest JSON serialization of a value of this type, in bytes. */
  minSerializedSize: number;
  schema: Structural;
}

function simple(name: string, celType: Type, minSize: number, schema: Structural, maxElements = 0): DeclType {
  return { name, kind: 'scalar', celType, maxElements, minSerializedSize: minSize, schema };
}

const zeroIfNegative = (v: number): number => (v < 0 ? 0 : v);

/** estimateMaxStringLengthPerRequest. */
function maxStringLengthPerRequest(s: Structural): number {
  if (s.xIntOrString) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.valueValidation?.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

/** estimateMaxStringEnumLength: the byte length of the longest string enum value. */
function maxStringEnumLength(s: Structural): number {
  let max = 0;
  for (const v of s.valueValidation?.enum ?? []) {
    if (typeof v === 'string') max = Math.max(max, Buffer.byteLength(v, 'utf8'));
  }
  return max;
}

/** maxLength counts code points; a code point may take 4 bytes, so sizes are in bytes ×4. */
const maxElementsFromMaxLength = (s: Structural): number => zeroIfNegative(s.valueValidation!.maxLength!) * 4;
const maxArrayItemsFromMinSize = (minSize: number): number => Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 1));
const maxAdditionalPropertiesFromMinSize = (minSize: number): number => Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 6));

const stringNode = (): Structural => ({ ...emptyStructural(), type: 'string' });

function cappedLengthString(existing: Structural | undefined, maxLength: number): Structural {
  const ml = existing?.valueValidation?.maxLength;
  if (ml !== undefined && ml < maxLength) maxLength = ml;
  return { ...emptyStructural(), type: 'string', valueValidation: { ...emptyValueValidation(), maxLength } };
}

function emptyValueValidation(): NonNullable<Structural['valueValidation']> {
  return { format: '', exclusiveMaximum: false, exclusiveMinimum: false, pattern: '', uniqueItems: false };
}

/**
 * WithTypeAndObjectMeta (apiextensions model): the schema with `kind`, `apiVersion` and
 * `metadata.name` / `metadata.generateName` typed as strings (name capped at 253 characters,
 * generateName at 252), unless it already declares all of them. Returns s itself when unchanged.
 */
export function withTypeAndObjectMeta(s: Structural): Structural {
  const p = s.properties;
  const md = p?.get('metadata');
  if (
    p !== undefined &&
    p.get('kind')?.type === 'string' &&
    p.get('apiVersion')?.type === 'string' &&
    md?.type === 'object' &&
    md.properties !== undefined &&
    md.properties.get('name')?.type === 'string' &&
    md.properties.get('generateName')?.type === 'string'
  ) {
    return s;
  }
  const props = new Map(p ?? []);
  props.set('kind', stringNode());
  props.set('apiVersion', stringNode());
  const mdProps = md?.properties;
  props.set('metadata', {
    ...emptyStructural(),
    type: 'object',
    properties: new Map([
      ['name', cappedLengthString(mdProps?.get('name'), NAME_MAX_LENGTH)],
      ['generateName', cappedLengthString(mdProps?.get('generateName'), NAME_MAX_LENGTH - 1)],
    ]),
  });
  return { ...s, properties: props, items: undefined, xValidations: s.xValidations };
}

/**
 * SchemaDeclType: the CEL type of a structural schema node, or undefined when the node is not
 * accessible from rules (no type and not int-or-string, arrays or maps of inaccessible elements).
 * isResourceRoot: the root of a custom resource or of an embedded resource.
 */
export function schemaDeclType(s: Structural | undefined, isResourceRoot: boolean): DeclType | undefined {
  if (s === undefined) return undefined;
  if (s.xIntOrString) {
    const max = s.valueValidation?.maxLength !== undefined ? maxElementsFromMaxLength(s) : maxStringLengthPerRequest(s);
    return simple('dyn', DynType, 1, s, max);
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  const vv = s.valueValidation;
  switch (s.type) {
    case 'array': {
      if (s.items === undefined) return undefined;
      const itemsType = schemaDeclType(s.items, s.items.xEmbeddedResource);
      if (itemsType === undefined) return undefined;
      const maxItems = vv?.maxItems !== undefined ? zeroIfNegative(vv.maxItems) : maxArrayItemsFromMinSize(itemsType.minSerializedSize);
      return { name: 'list', kind: 'list', celType: listOf(itemsType.celType), elemType: itemsType, maxElements: maxItems, minSerializedSize: 2, schema: s };
    }
    case 'object': {
      const ap = s.additionalProperties?.structural;
      if (ap !== undefined) {
        const propsType = schemaDeclType(ap, ap.xEmbeddedResource);
        if (propsType === undefined) return undefined;
        const maxProps = vv?.maxProperties !== undefined ? zeroIfNegative(vv.maxProperties) : maxAdditionalPropertiesFromMinSize(propsType.minSerializedSize);
        const keyType = simple('string', StringType, MIN_STRING_SIZE, stringNode());
        return {
          name: 'map',
          kind: 'map',
          celType: mapOf(StringType, propsType.celType),
          keyType,
          elemType: propsType,
          maxElements: maxProps,
          minSerializedSize: 2,
          schema: s,
        };
      }
      const fields = new Map<string, DeclField>();
      const required = new Set(vv?.required ?? []);
      let minSerializedSize = 2;
      for (const [name, prop] of s.properties ?? []) {
        const fieldType = schemaDeclType(prop, prop.xEmbeddedResource);
        if (fieldType === undefined) continue;
        const escaped = escape(name);
        if (escaped !== undefined) fields.set(escaped, { name: escaped, property: name, type: fieldType, required: required.has(name) });
        if (required.has(name) && prop.default === undefined) {
          minSerializedSize += Buffer.byteLength(name, 'utf8') + fieldType.minSerializedSize + 4;
        }
      }
      return { name: 'object', kind: 'object', celType: structType('object'), fields, byProperty: byProperty(fields), maxElements: 0, minSerializedSize, schema: s };
    }
    case 'string': {
      switch (vv?.format) {
        case 'byte':
          return simple('bytes', BytesType, MIN_STRING_SIZE, s, vv.maxLength !== undefined ? zeroIfNegative(vv.maxLength) : maxStringLengthPerRequest(s));
        case 'duration':
          return simple('duration', DurationType, MIN_DURATION_SIZE_JSON, s, maxStringLengthPerRequest(s));
        case 'date':
          return simple('timestamp', TimestampType, JSON_DATE_SIZE, s, maxStringLengthPerRequest(s));
        case 'date-time':
          return simple('timestamp', TimestampType, MIN_DATETIME_SIZE_JSON, s, maxStringLengthPerRequest(s));
      }
      let max: number;
      if (vv?.maxLength !== undefined) max = maxElementsFromMaxLength(s);
      else if ((vv?.enum?.length ?? 0) > 0) max = maxStringEnumLength(s);
      else max = maxStringLengthPerRequest(s);
      return simple('string', StringType, MIN_STRING_SIZE, s, max);
    }
    case 'boolean':
      return simple('bool', BoolType, MIN_BOOL_SIZE, s);
    case 'number':
      return simple('double', DoubleType, MIN_NUMBER_SIZE, s);
    case 'integer':
      return simple('int', IntType, MIN_NUMBER_SIZE, s);
  }
  return undefined;
}

function byProperty(fields: Map<string, DeclField>): Map<string, DeclField> {
  return new Map([...fields.values()].map((f) => [f.property, f]));
}

/**
 * MaybeAssignTypeName: names object types after where they sit (`root.spec`, `root.items.@idx`,
 * `root.labels.@elem`) so that the checker can resolve their fields. Returns t itself when no
 * object type below it needed a name.
 */
export function assignTypeNames(t: DeclType, name: string): DeclType {
  switch (t.kind) {
    case 'object': {
      let updated = false;
      if (t.name !== 'object') name = t.name;
      else updated = true;
      const fields = new Map<string, DeclField>();
      for (const [fname, f] of t.fields!) {
        const ft = assignTypeNames(f.type, `${name}.${fname}`);
        if (ft !== f.type) updated = true;
        fields.set(fname, ft === f.type ? f : { ...f, type: ft });
      }
      if (!updated) return t;
      return { ...t, name, celType: structType(name), fields, byProperty: byProperty(fields) };
    }
    case 'map': {
      const e = assignTypeNames(t.elemType!, `${name}.@elem`);
      return e === t.elemType ? t : { ...t, elemType: e, celType: mapOf(t.keyType!.celType, e.celType) };
    }
    case 'list': {
      const e = assignTypeNames(t.elemType!, `${name}.@idx`);
      return e === t.elemType ? t : { ...t, elemType: e, celType: listOf(e.celType) };
    }
  }
  return t;
}

/** All named object types below t, by name (FieldTypeMap). */
export function objectTypes(t: DeclType, out = new Map<string, DeclType>()): Map<string, DeclType> {
  if (t.kind === 'object') {
    out.set(t.name, t);
    for (const f of t.fields!.values()) objectTypes(f.type, out);
  } else if (t.elemType !== undefined) objectTypes(t.elemType, out);
  return out;
}

/**
 * The DeclTypeProvider as the checker sees it: object types by name, their fields by escaped name.
 * As Kubernetes configures it from compatibility version 1.31, a reserved word also finds its
 * escaped field (`self.namespace` resolves `__namespace__`).
 */
export function declTypeProvider(root: DeclType, base?: TypeProvider, recognizeKeywordAsFieldName = true): TypeProvider {
  const types = objectTypes(root);
  return {
    findStructType: (name) => (types.has(name) ? structType(name) : base?.findStructType(name)),
    findFieldType: (structName, field) => {
      const t = types.get(structName);
      if (t === undefined) return base?.findFieldType(structName, field);
      const f = t.fields!.get(field) ?? (recognizeKeywordAsFieldName && CEL_RESERVED_SYMBOLS.has(field) ? t.fields!.get(`__${field}__`) : undefined);
      return f === undefined ? undefined : { type: f.type.celType };
    },
    fieldNames: (structName) => {
      const t = types.get(structName);
      return t === undefined ? base?.fieldNames?.(structName) : [...t.fields!.keys()];
    },
    findEnumValue: base?.findEnumValue ? (n) => base.findEnumValue!(n) : undefined,
  };
}

/**
 * The size estimator of compilation.go: walks a node's path (`self`, field names, `@items`,
 * `@values`, `@keys`) through the declared types and answers [0, maxElements].
 */
export function declSizeEstimator(root: DeclType): (node: AstNode) => SizeEstimate | undefined {
  return (node) => {
    const path = node.path;
    if (path === undefined || path.length === 0) return undefined;
    const cur = declTypeAt(root, path);
    return cur === undefined ? undefined : { min: 0n, max: BigInt(cur.maxElements) };
  };
}

/** The keyword that would bound a declared type's size, when the schema sets none. */
export function unboundedKeyword(t: DeclType): 'maxItems' | 'maxProperties' | 'maxLength' | undefined {
  const vv = t.schema.valueValidation;
  switch (t.kind) {
    case 'list':
      return vv?.maxItems === undefined ? 'maxItems' : undefined;
    case 'map':
      return vv?.maxProperties === undefined ? 'maxProperties' : undefined;
    case 'scalar':
      if (t.name === 'string' || t.name === 'bytes' || t.name === 'dyn') {
        return vv?.maxLength === undefined && !(t.name === 'string' && (vv?.enum?.length ?? 0) > 0) ? 'maxLength' : undefined;
      }
      return undefined;
  }
  return undefined;
}

/** The declared type at a cost-estimator path (`self`, fields, `@items`, `@keys`, `@values`). */
export function declTypeAt(root: DeclType, path: readonly string[]): DeclType | undefined {
  let cur: DeclType | undefined = root;
  for (let i = 1; i < path.length && cur !== undefined; i++) {
    const name = path[i]!;
    if (name === '@items' || name === '@values') cur = cur.elemType;
    else if (name === '@keys') cur = cur.keyType;
    else cur = cur.fields?.get(name)?.type;
  }
  return cur;
}

/**
 * maxCardinality: how many times data of this minimum serialized size could appear in one request,
 * assuming a comma between elements.
 */
export function maxCardinality(minSize: number): bigint {
  return BigInt(Math.floor(MAX_REQUEST_SIZE_BYTES / (minSize + 1)));
}
