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
/**
 * An object type by name. As cel-go's `NewObjectType`, well-known protobuf names are sanitised to
 * the CEL types they stand for (`google.protobuf.Value` -> dyn, `google.protobuf.Struct` ->
 * map(string, dyn), `google.protobuf.Int64Value` -> wrapper(int), ...).
 */
export const structType = (name: string): Type => wellKnownType(name) ?? { kind: 'struct', name };
export const opaque = (name: string, ...params: Type[]): Type => ({ kind: 'opaque', name, params });
export const optionalOf = (t: Type): Type => opaque('optional_type', t);
export const typeParam = (name: string): Type => ({ kind: 'typeParam', name });

/** A field of an object type. */
export interface FieldType {
  type: Type;
  /** The field was found by its JSON name (only meaningful with CheckEnv's jsonFieldNames). */
  isJsonField?: boolean;
}

/**
 * Supplies object types to the checker (the schema layer derives them from CRD schemas).
 * Size bounds for the cost estimator are supplied separately, as a SizeEstimator (cost.ts).
 */
export interface TypeProvider {
  /** The object type with this fully qualified name, if declared. */
  findStructType(name: string): Type | undefined;
  /** A field of an object type; undefined if the type has no such field. */
  findFieldType(structName: string, field: string): FieldType | undefined;
  /** All field names of an object type (for message construction checks). */
  fieldNames?(structName: string): string[] | undefined;
  /** The value of a fully qualified enum constant (`pkg.Msg.Enum.VALUE`), typed int by the checker. */
  findEnumValue?(name: string): bigint | undefined;
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
    case 'error':
      return '!error!';
    default:
      return t.kind;
  }
}

/** The CEL type a well-known protobuf message name stands for, as cel-go's checkedWellKnowns. */
export function wellKnownType(name: string): Type | undefined {
  switch (name) {
    case 'google.protobuf.Any':
      return AnyType;
    case 'google.protobuf.Duration':
      return DurationType;
    case 'google.protobuf.Timestamp':
      return TimestampType;
    case 'google.protobuf.Value':
      return DynType;
    case 'google.protobuf.ListValue':
      return listOf(DynType);
    case 'google.protobuf.Struct':
      return mapOf(StringType, DynType);
    case 'google.protobuf.NullValue':
      return NullType;
    case 'google.protobuf.BoolValue':
      return { kind: 'wrapper', prim: 'bool' };
    case 'google.protobuf.BytesValue':
      return { kind: 'wrapper', prim: 'bytes' };
    case 'google.protobuf.DoubleValue':
    case 'google.protobuf.FloatValue':
      return { kind: 'wrapper', prim: 'double' };
    case 'google.protobuf.Int64Value':
    case 'google.protobuf.Int32Value':
      return { kind: 'wrapper', prim: 'int' };
    case 'google.protobuf.UInt64Value':
    case 'google.protobuf.UInt32Value':
      return { kind: 'wrapper', prim: 'uint' };
    case 'google.protobuf.StringValue':
      return { kind: 'wrapper', prim: 'string' };
    default:
      return undefined;
  }
}

/**
 * The kind cel-go reports for a type: a wrapper type has the kind of the primitive it wraps
 * (cel-go's nullable types keep the wrapped kind and differ only in assignability).
 */
export type TypeKind = Exclude<Type['kind'], 'wrapper'>;
export function kindOf(t: Type): TypeKind {
  return t.kind === 'wrapper' ? t.prim : t.kind;
}

/**
 * cel-go's runtime type name (`TypeName()`): `list`, `map`, `type`, the struct or opaque name, the
 * type parameter's name, `google.protobuf.Timestamp` for timestamp, ...
 */
export function typeName(t: Type): string {
  switch (t.kind) {
    case 'list':
      return 'list';
    case 'map':
      return 'map';
    case 'type':
      return 'type';
    case 'struct':
    case 'opaque':
    case 'typeParam':
      return t.name;
    case 'wrapper':
      return t.prim;
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    case 'any':
      return 'google.protobuf.Any';
    default:
      return t.kind;
  }
}

/** The type parameters of a type, in cel-go's order (list: [elem], map: [key, value], ...). */
export function typeParams(t: Type): Type[] {
  switch (t.kind) {
    case 'list':
      return [t.elem];
    case 'map':
      return [t.key, t.value];
    case 'type':
      return t.param ? [t.param] : [];
    case 'opaque':
      return t.params;
    default:
      return [];
  }
}

/** cel-go's `IsExactType`: same kind, name and parameters (wrappers match their primitive). */
export function isExactType(a: Type, b: Type): boolean {
  if (a === b) return true;
  if (kindOf(a) !== kindOf(b)) return false;
  const pa = typeParams(a);
  const pb = typeParams(b);
  if (pa.length !== pb.length || typeName(a) !== typeName(b)) return false;
  for (let i = 0; i < pa.length; i++) if (!isExactType(pa[i]!, pb[i]!)) return false;
  return true;
}

/** cel-go's `IsEquivalentType`: as isExactType, but type parameter names are not compared. */
export function isEquivalentType(a: Type, b: Type): boolean {
  if (a === b) return true;
  if (kindOf(a) !== kindOf(b)) return false;
  const pa = typeParams(a);
  const pb = typeParams(b);
  if (pa.length !== pb.length) return false;
  if (kindOf(a) !== 'typeParam' && typeName(a) !== typeName(b)) return false;
  for (let i = 0; i < pa.length; i++) if (!isEquivalentType(pa[i]!, pb[i]!)) return false;
  return true;
}

/**
 * cel-go's `Type.IsAssignableType`: whether a value of type `from` may be used where `t` is
 * expected, without type-parameter inference (that is the checker's isAssignable).
 */
export function isAssignableType(t: Type, from: Type): boolean {
  if (t === from) return true;
  if (t.kind === 'wrapper') {
    return isAssignableType(NullType, from) || isAssignableType({ kind: t.prim } as Type, from);
  }
  if (t.kind === 'dyn' || t.kind === 'any' || t.kind === 'typeParam') return true;
  if (kindOf(t) !== kindOf(from) || typeName(t) !== typeName(from)) return false;
  const pt = typeParams(t);
  const pf = typeParams(from);
  if (pt.length !== pf.length) return false;
  for (let i = 0; i < pt.length; i++) if (!isAssignableType(pt[i]!, pf[i]!)) return false;
  return true;
}

/** cel-go's `Type.String()`: type parameters print as `<A>`, wrappers as `wrapper(int)`. */
export function typeString(t: Type): string {
  if (t.kind === 'typeParam') return `<${t.name}>`;
  const params = typeParams(t);
  const declared = t.kind === 'wrapper' ? `wrapper(${t.prim})` : typeName(t);
  if (params.length === 0) return declared;
  return `${declared}(${params.map(typeString).join(', ')})`;
}

/**
 * Parses the printed form of a type (formatType's output, as in cel-go's test tables):
 * `int`, `list(int)`, `map(string, dyn)`, `type(int)`, `optional_type(int)`, `wrapper(int)`,
 * `null`, `!error!`, a dotted object name, or `~A` for a type parameter named A.
 */
export function parseType(text: string): Type {
  let pos = 0;
  const src = text.replace(/\s+/g, '');
  const ident = (): string => {
    const m = /^[~!A-Za-z_][A-Za-z0-9_.!]*/.exec(src.slice(pos));
    if (!m) throw new Error(`bad type text at ${pos}: ${text}`);
    pos += m[0].length;
    return m[0];
  };
  const one = (): Type => {
    const name = ident();
    const params: Type[] = [];
    if (src[pos] === '(') {
      pos++;
      while (src[pos] !== ')') {
        params.push(one());
        if (src[pos] === ',') pos++;
      }
      pos++;
    }
    switch (name) {
      case 'list':
        return listOf(params[0]!);
      case 'map':
        return mapOf(params[0]!, params[1]!);
      case 'type':
        return params.length ? typeOf(params[0]!) : TypeType;
      case 'wrapper':
        return { kind: 'wrapper', prim: kindOf(params[0]!) as 'int' };
      case 'null':
      case 'null_type':
        return NullType;
      case '!error!':
      case 'error':
        return ErrorType;
      case 'bool': case 'int': case 'uint': case 'double': case 'string': case 'bytes':
      case 'timestamp': case 'duration': case 'dyn': case 'any':
        return prim(name);
    }
    if (name.startsWith('~')) return typeParam(name.slice(1));
    if (params.length) return opaque(name, ...params);
    return name.includes('.') ? structType(name) : opaque(name);
  };
  const t = one();
  if (pos !== src.length) throw new Error(`trailing text in type: ${text}`);
  return t;
}
