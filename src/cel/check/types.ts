/**
 * CEL types as the checker sees them (cel-go's `types.Type`): primitives, parameterised list, map,
 * type and opaque types (optional_type(T) and library types such as `kubernetes.URL`), object
 * (struct) types declared by the caller, type parameters for generic overloads, and the wrapper
 * types of google.protobuf. `dyn` matches anything; `error` marks a failed sub-expression.
 */

export type PrimitiveKind =
  | 'bool'
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bytes'
  | 'null_type'
  | 'timestamp'
  | 'duration'
  | 'dyn'
  | 'any'
  | 'error';

export type Type =
  | { kind: PrimitiveKind }
  | { kind: 'list'; elem: Type }
  | { kind: 'map'; key: Type; value: Type }
  /** `type` (param absent) or `type(T)`. */
  | { kind: 'type'; param?: Type }
  /** A named object type; its fields come from a TypeProvider. */
  | { kind: 'struct'; name: string }
  /** An opaque named type with parameters: `optional_type(T)`, `kubernetes.URL`, ... */
  | { kind: 'opaque'; name: string; params: Type[] }
  /** A type parameter of a generic overload (`A` in `list(A).size()`). */
  | { kind: 'typeParam'; name: string }
  /** google.protobuf wrapper types: a nullable primitive (`google.protobuf.Int64Value` -> int). */
  | { kind: 'wrapper'; prim: 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' };

const prim = (kind: PrimitiveKind): Type => ({ kind }) as Type;

export const BoolType = prim('bool');
export const IntType = prim('int');
export const UintType = prim('uint');
export const DoubleType = prim('double');
export const StringType = prim('string');
export const BytesType = prim('bytes');
export const NullType = prim('null_type');
export const TimestampType = prim('timestamp');
export const DurationType = prim('duration');
export const DynType = prim('dyn');
export const AnyType = prim('any');
export const ErrorType = prim('error');
export const TypeType: Type = { kind: 'type' };

export const listOf = (elem: Type): Type => ({ kind: 'list', elem });
export const mapOf = (key: Type, value: Type): Type => ({ kind: 'map', key, value });
export const typeOf = (param: Type): Type => ({ kind: 'type', param });
export const structType = (name: string): Type => ({ kind: 'struct', name });
export const opaque = (name: string, ...params: Type[]): Type => ({ kind: 'opaque', name, params });
export const optionalOf = (t: Type): Type => opaque('optional_type', t);
export const typeParam = (name: string): Type => ({ kind: 'typeParam', name });

/** A field of an object type. */
export interface FieldType {
  type: Type;
}

/**
 * Supplies object types to the checker (the schema layer derives them from CRD schemas).
 * Each object type also carries the size bounds the cost estimator needs.
 */
export interface TypeProvider {
  /** The object type with this fully qualified name, if declared. */
  findStructType(name: string): Type | undefined;
  /** A field of an object type; undefined if the type has no such field. */
  findFieldType(structName: string, field: string): FieldType | undefined;
  /** All field names of an object type (for message construction checks). */
  fieldNames?(structName: string): string[] | undefined;
}

/** How cel-go prints a type in error messages (`list(int)`, `map(string, dyn)`, `optional_type(int)`). */
export function formatType(t: Type): string {
  switch (t.kind) {
    case 'list':
      return `list(${formatType(t.elem)})`;
    case 'map':
      return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'type':
      return t.param ? `type(${formatType(t.param)})` : 'type';
    case 'struct':
      return t.name;
    case 'opaque':
      return t.params.length ? `${t.name}(${t.params.map(formatType).join(', ')})` : t.name;
    case 'typeParam':
      return t.name;
    case 'wrapper':
      return `wrapper(${t.prim})`;
    case 'null_type':
      return 'null';
    default:
      return t.kind;
  }
}
