/**
 * Declarations of CEL's standard library, as cel-go declares them in `common/stdlib/standard.go`
 * (and the optional-value library of `cel/library.go`): every operator and function with cel-go's
 * overload ids and signatures, plus the type identifiers (`int`, `list`, `type`, ...).
 *
 * Only signatures live here; the implementations are filled in by overload id (impl.ts), and the
 * planner inlines the operators it special-cases (`_&&_`, `_||_`, `_?_:_`, `_==_`, ...).
 * Functions cel-go declares but disables (`_in_`, `in`, `__not_strictly_false__`) are left out.
 */
import type { FunctionDecl, Library, OverloadDecl, VariableDecl } from '../decls.ts';
import {
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  NullType,
  StringType,
  TimestampType,
  TypeType,
  UintType,
  listOf,
  mapOf,
  optionalOf,
  typeName,
  typeOf,
  typeParam,
  type Type,
} from '../../check/types.ts';

const A = typeParam('A');
const B = typeParam('B');

function fn(name: string, overloads: OverloadDecl[], doc?: string): FunctionDecl {
  return doc === undefined ? { name, overloads } : { name, overloads, doc };
}

/** cel-go's `decls.TypeVariable`: an identifier named for the type whose value is the type. */
function typeVariable(t: Type): VariableDecl {
  return { name: typeName(t), type: typeOf(t) };
}

/** The standard type identifiers (cel-go's stdlib.Types()). */
export const standardTypes: VariableDecl[] = [
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  IntType,
  listOf(A),
  mapOf(A, B),
  NullType,
  StringType,
  TimestampType,
  TypeType,
  UintType,
].map(typeVariable);

/** The standard functions and operators (cel-go's stdlib.Functions()). */
export const standardFunctions: FunctionDecl[] = [
  fn('_?_:_', [
    { id: 'conditional', params: [BoolType, A, A], result: A, typeParams: ['A'] },
  ]),
  fn('_&&_', [
    { id: 'logical_and', params: [BoolType, BoolType], result: BoolType },
  ]),
  fn('_||_', [
    { id: 'logical_or', params: [BoolType, BoolType], result: BoolType },
  ]),
  fn('!_', [
    { id: 'logical_not', params: [BoolType], result: BoolType },
  ]),
  fn('@not_strictly_false', [
    { id: 'not_strictly_false', params: [BoolType], result: BoolType },
  ]),
  fn('_==_', [
    { id: 'equals', params: [A, A], result: BoolType, typeParams: ['A'] },
  ]),
  fn('_!=_', [
    { id: 'not_equals', params: [A, A], result: BoolType, typeParams: ['A'] },
  ]),
  fn('_+_', [
    { id: 'add_bytes', params: [BytesType, BytesType], result: BytesType },
    { id: 'add_double', params: [DoubleType, DoubleType], result: DoubleType },
    { id: 'add_duration_duration', params: [DurationType, DurationType], result: DurationType },
    { id: 'add_duration_timestamp', params: [DurationType, TimestampType], result: TimestampType },
    { id: 'add_timestamp_duration', params: [TimestampType, DurationType], result: TimestampType },
    { id: 'add_int64', params: [IntType, IntType], result: IntType },
    { id: 'add_list', params: [listOf(A), listOf(A)], result: listOf(A), typeParams: ['A'] },
    { id: 'add_string', params: [StringType, StringType], result: StringType },
    { id: 'add_uint64', params: [UintType, UintType], result: UintType },
  ]),
  fn('_/_', [
    { id: 'divide_double', params: [DoubleType, DoubleType], result: DoubleType },
    { id: 'divide_int64', params: [IntType, IntType], result: IntType },
    { id: 'divide_uint64', params: [UintType, UintType], result: UintType },
  ]),
  fn('_%_', [
    { id: 'modulo_int64', params: [IntType, IntType], result: IntType },
    { id: 'modulo_uint64', params: [UintType, UintType], result: UintType },
  ]),
  fn('_*_', [
    { id: 'multiply_double', params: [DoubleType, DoubleType], result: DoubleType },
    { id: 'multiply_int64', params: [IntType, IntType], result: IntType },
    { id: 'multiply_uint64', params: [UintType, UintType], result: UintType },
  ]),
  fn('-_', [
    { id: 'negate_double', params: [DoubleType], result: DoubleType },
    { id: 'negate_int64', params: [IntType], result: IntType },
  ]),
  fn('_-_', [
    { id: 'subtract_double', params: [DoubleType, DoubleType], result: DoubleType },
    { id: 'subtract_duration_duration', params: [DurationType, DurationType], result: DurationType },
    { id: 'subtract_int64', params: [IntType, IntType], result: IntType },
    { id: 'subtract_timestamp_duration', params: [TimestampType, DurationType], result: TimestampType },
    { id: 'subtract_timestamp_timestamp', params: [TimestampType, TimestampType], result: DurationType },
    { id: 'subtract_uint64', params: [UintType, UintType], result: UintType },
  ]),
  fn('_<_', [
    { id: 'less_bool', params: [BoolType, BoolType], result: BoolType },
    { id: 'less_int64', params: [IntType, IntType], result: BoolType },
    { id: 'less_int64_double', params: [IntType, DoubleType], result: BoolType },
    { id: 'less_int64_uint64', params: [IntType, UintType], result: BoolType },
    { id: 'less_uint64', params: [UintType, UintType], result: BoolType },
    { id: 'less_uint64_double', params: [UintType, DoubleType], result: BoolType },
    { id: 'less_uint64_int64', params: [UintType, IntType], result: BoolType },
    { id: 'less_double', params: [DoubleType, DoubleType], result: BoolType },
    { id: 'less_double_int64', params: [DoubleType, IntType], result: BoolType },
    { id: 'less_double_uint64', params: [DoubleType, UintType], result: BoolType },
    { id: 'less_string', params: [StringType, StringType], result: BoolType },
    { id: 'less_bytes', params: [BytesType, BytesType], result: BoolType },
    { id: 'less_timestamp', params: [TimestampType, TimestampType], result: BoolType },
    { id: 'less_duration', params: [DurationType, DurationType], result: BoolType },
  ]),
  fn('_<=_', [
    { id: 'less_equals_bool', params: [BoolType, BoolType], result: BoolType },
    { id: 'less_equals_int64', params: [IntType, IntType], result: BoolType },
    { id: 'less_equals_int64_double', params: [IntType, DoubleType], result: BoolType },
    { id: 'less_equals_int64_uint64', params: [IntType, UintType], result: BoolType },
    { id: 'less_equals_uint64', params: [UintType, UintType], result: BoolType },
    { id: 'less_equals_uint64_double', params: [UintType, DoubleType], result: BoolType },
    { id: 'less_equals_uint64_int64', params: [UintType, IntType], result: BoolType },
    { id: 'less_equals_double', params: [DoubleType, DoubleType], result: BoolType },
    { id: 'less_equals_double_int64', params: [DoubleType, IntType], result: BoolType },
    { id: 'less_equals_double_uint64', params: [DoubleType, UintType], result: BoolType },
    { id: 'less_equals_string', params: [StringType, StringType], result: BoolType },
    { id: 'less_equals_bytes', params: [BytesType, BytesType], result: BoolType },
    { id: 'less_equals_timestamp', params: [TimestampType, TimestampType], result: BoolType },
    { id: 'less_equals_duration', params: [DurationType, DurationType], result: BoolType },
  ]),
  fn('_>_', [
    { id: 'greater_bool', params: [BoolType, BoolType], result: BoolType },
    { id: 'greater_int64', params: [IntType, IntType], result: BoolType },
    { id: 'greater_int64_double', params: [IntType, DoubleType], result: BoolType },
    { id: 'greater_int64_uint64', params: [IntType, UintType], result: BoolType },
    { id: 'greater_uint64', params: [UintType, UintType], result: BoolType },
    { id: 'greater_uint64_double', params: [UintType, DoubleType], result: BoolType },
    { id: 'greater_uint64_int64', params: [UintType, IntType], result: BoolType },
    { id: 'greater_double', params: [DoubleType, DoubleType], result: BoolType },
    { id: 'greater_double_int64', params: [DoubleType, IntType], result: BoolType },
    { id: 'greater_double_uint64', params: [DoubleType, UintType], result: BoolType },
    { id: 'greater_string', params: [StringType, StringType], result: BoolType },
    { id: 'greater_bytes', params: [BytesType, BytesType], result: BoolType },
    { id: 'greater_timestamp', params: [TimestampType, TimestampType], result: BoolType },
    { id: 'greater_duration', params: [DurationType, DurationType], result: BoolType },
  ]),
  fn('_>=_', [
    { id: 'greater_equals_bool', params: [BoolType, BoolType], result: BoolType },
    { id: 'greater_equals_int64', params: [IntType, IntType], result: BoolType },
    { id: 'greater_equals_int64_double', params: [IntType, DoubleType], result: BoolType },
    { id: 'greater_equals_int64_uint64', params: [IntType, UintType], result: BoolType },
    { id: 'greater_equals_uint64', params: [UintType, UintType], result: BoolType },
    { id: 'greater_equals_uint64_double', params: [UintType, DoubleType], result: BoolType },
    { id: 'greater_equals_uint64_int64', params: [UintType, IntType], result: BoolType },
    { id: 'greater_equals_double', params: [DoubleType, DoubleType], result: BoolType },
    { id: 'greater_equals_double_int64', params: [DoubleType, IntType], result: BoolType },
    { id: 'greater_equals_double_uint64', params: [DoubleType, UintType], result: BoolType },
    { id: 'greater_equals_string', params: [StringType, StringType], result: BoolType },
    { id: 'greater_equals_bytes', params: [BytesType, BytesType], result: BoolType },
    { id: 'greater_equals_timestamp', params: [TimestampType, TimestampType], result: BoolType },
    { id: 'greater_equals_duration', params: [DurationType, DurationType], result: BoolType },
  ]),
  fn('_[_]', [
    { id: 'index_list', params: [listOf(A), IntType], result: A, typeParams: ['A'] },
    { id: 'index_map', params: [mapOf(A, B), A], result: B, typeParams: ['A', 'B'] },
  ]),
  fn('@in', [
    { id: 'in_list', params: [A, listOf(A)], result: BoolType, typeParams: ['A'] },
    { id: 'in_map', params: [A, mapOf(A, B)], result: BoolType, typeParams: ['A', 'B'] },
  ]),
  fn('size', [
    { id: 'size_bytes', params: [BytesType], result: IntType },
    { id: 'bytes_size', params: [BytesType], result: IntType, receiver: true },
    { id: 'size_list', params: [listOf(A)], result: IntType, typeParams: ['A'] },
    { id: 'list_size', params: [listOf(A)], result: IntType, receiver: true, typeParams: ['A'] },
    { id: 'size_map', params: [mapOf(A, B)], result: IntType, typeParams: ['A', 'B'] },
    { id: 'map_size', params: [mapOf(A, B)], result: IntType, receiver: true, typeParams: ['A', 'B'] },
    { id: 'size_string', params: [StringType], result: IntType },
    { id: 'string_size', params: [StringType], result: IntType, receiver: true },
  ]),
  fn('type', [
    { id: 'type', params: [A], result: typeOf(A), typeParams: ['A'] },
  ]),
  fn('bool', [
    { id: 'bool_to_bool', params: [BoolType], result: BoolType },
    { id: 'string_to_bool', params: [StringType], result: BoolType },
  ]),
  fn('bytes', [
    { id: 'bytes_to_bytes', params: [BytesType], result: BytesType },
    { id: 'string_to_bytes', params: [StringType], result: BytesType },
  ]),
  fn('double', [
    { id: 'double_to_double', params: [DoubleType], result: DoubleType },
    { id: 'int64_to_double', params: [IntType], result: DoubleType },
    { id: 'string_to_double', params: [StringType], result: DoubleType },
    { id: 'uint64_to_double', params: [UintType], result: DoubleType },
  ]),
  fn('duration', [
    { id: 'duration_to_duration', params: [DurationType], result: DurationType },
    { id: 'string_to_duration', params: [StringType], result: DurationType },
  ]),
  fn('dyn', [
    { id: 'to_dyn', params: [A], result: DynType, typeParams: ['A'] },
  ]),
  fn('int', [
    { id: 'int64_to_int64', params: [IntType], result: IntType },
    { id: 'double_to_int64', params: [DoubleType], result: IntType },
    { id: 'duration_to_int64', params: [DurationType], result: IntType },
    { id: 'string_to_int64', params: [StringType], result: IntType },
    { id: 'timestamp_to_int64', params: [TimestampType], result: IntType },
    { id: 'uint64_to_int64', params: [UintType], result: IntType },
  ]),
  fn('string', [
    { id: 'string_to_string', params: [StringType], result: StringType },
    { id: 'bool_to_string', params: [BoolType], result: StringType },
    { id: 'bytes_to_string', params: [BytesType], result: StringType },
    { id: 'double_to_string', params: [DoubleType], result: StringType },
    { id: 'duration_to_string', params: [DurationType], result: StringType },
    { id: 'int64_to_string', params: [IntType], result: StringType },
    { id: 'timestamp_to_string', params: [TimestampType], result: StringType },
    { id: 'uint64_to_string', params: [UintType], result: StringType },
  ]),
  fn('timestamp', [
    { id: 'timestamp_to_timestamp', params: [TimestampType], result: TimestampType },
    { id: 'int64_to_timestamp', params: [IntType], result: TimestampType },
    { id: 'string_to_timestamp', params: [StringType], result: TimestampType },
  ]),
  fn('uint', [
    { id: 'uint64_to_uint64', params: [UintType], result: UintType },
    { id: 'double_to_uint64', params: [DoubleType], result: UintType },
    { id: 'int64_to_uint64', params: [IntType], result: UintType },
    { id: 'string_to_uint64', params: [StringType], result: UintType },
  ]),
  fn('contains', [
    { id: 'contains_string', params: [StringType, StringType], result: BoolType, receiver: true },
  ]),
  fn('endsWith', [
    { id: 'ends_with_string', params: [StringType, StringType], result: BoolType, receiver: true },
  ]),
  fn('startsWith', [
    { id: 'starts_with_string', params: [StringType, StringType], result: BoolType, receiver: true },
  ]),
  fn('matches', [
    { id: 'matches', params: [StringType, StringType], result: BoolType },
    { id: 'matches_string', params: [StringType, StringType], result: BoolType, receiver: true },
  ]),
  fn('getFullYear', [
    { id: 'timestamp_to_year', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_year_with_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
  ]),
  fn('getMonth', [
    { id: 'timestamp_to_month', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_month_with_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
  ]),
  fn('getDayOfYear', [
    { id: 'timestamp_to_day_of_year', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_day_of_year_with_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
  ]),
  fn('getDayOfMonth', [
    { id: 'timestamp_to_day_of_month', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_day_of_month_with_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
  ]),
  fn('getDate', [
    { id: 'timestamp_to_day_of_month_1_based', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_day_of_month_1_based_with_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
  ]),
  fn('getDayOfWeek', [
    { id: 'timestamp_to_day_of_week', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_day_of_week_with_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
  ]),
  fn('getHours', [
    { id: 'timestamp_to_hours', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_hours_with_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
    { id: 'duration_to_hours', params: [DurationType], result: IntType, receiver: true },
  ]),
  fn('getMinutes', [
    { id: 'timestamp_to_minutes', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_minutes_with_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
    { id: 'duration_to_minutes', params: [DurationType], result: IntType, receiver: true },
  ]),
  fn('getSeconds', [
    { id: 'timestamp_to_seconds', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_seconds_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
    { id: 'duration_to_seconds', params: [DurationType], result: IntType, receiver: true },
  ]),
  fn('getMilliseconds', [
    { id: 'timestamp_to_milliseconds', params: [TimestampType], result: IntType, receiver: true },
    { id: 'timestamp_to_milliseconds_with_tz', params: [TimestampType, StringType], result: IntType, receiver: true },
    { id: 'duration_to_milliseconds', params: [DurationType], result: IntType, receiver: true },
  ]),
];

/** CEL's standard library: functions, operators and type identifiers. */
export const standardLibrary: Library = {
  name: 'cel.lib.std',
  functions: standardFunctions,
  variables: standardTypes,
  macros: ['has', 'all', 'exists', 'exists_one', 'map', 'filter'],
};

const K = typeParam('K');
const V = typeParam('V');
const optV = optionalOf(V);

/**
 * The optional-value library (cel-go's `cel.OptionalTypes()` at its latest version): the
 * `optional_type` type identifier, optional.of/ofNonZeroValue/none/unwrap, hasValue, value, or,
 * orValue, the `_?._` and `_[?_]` operators, `_[_]` on optional lists and maps, first/last and
 * unwrapOpt. `optMap` and `optFlatMap` are macros the parser expands.
 */
export const optionalLibrary: Library = {
  name: 'cel.lib.optional',
  variables: [{ name: 'optional_type', type: typeOf(optionalOf(V)) }],
  macros: ['optMap', 'optFlatMap'],
  functions: [
    fn('optional.of', [{ id: 'optional_of', params: [V], result: optV, typeParams: ['V'] }]),
    fn('optional.ofNonZeroValue', [
      { id: 'optional_ofNonZeroValue', params: [V], result: optV, typeParams: ['V'] },
    ]),
    fn('optional.none', [{ id: 'optional_none', params: [], result: optV, typeParams: ['V'] }]),
    fn('value', [{ id: 'optional_value', receiver: true, params: [optV], result: V, typeParams: ['V'] }]),
    fn('hasValue', [
      { id: 'optional_hasValue', receiver: true, params: [optV], result: BoolType, typeParams: ['V'] },
    ]),
    fn('or', [
      { id: 'optional_or_optional', receiver: true, params: [optV, optV], result: optV, typeParams: ['V'] },
    ]),
    fn('orValue', [
      { id: 'optional_orValue_value', receiver: true, params: [optV, V], result: V, typeParams: ['V'] },
    ]),
    fn('_?._', [
      { id: 'select_optional_field', params: [DynType, StringType], result: optV, typeParams: ['V'] },
    ]),
    fn('_[?_]', [
      { id: 'list_optindex_optional_int', params: [listOf(V), IntType], result: optV, typeParams: ['V'] },
      {
        id: 'optional_list_optindex_optional_int',
        params: [optionalOf(listOf(V)), IntType],
        result: optV,
        typeParams: ['V'],
      },
      { id: 'map_optindex_optional_value', params: [mapOf(K, V), K], result: optV, typeParams: ['K', 'V'] },
      {
        id: 'optional_map_optindex_optional_value',
        params: [optionalOf(mapOf(K, V)), K],
        result: optV,
        typeParams: ['K', 'V'],
      },
    ]),
    fn('_[_]', [
      { id: 'optional_list_index_int', params: [optionalOf(listOf(V)), IntType], result: optV, typeParams: ['V'] },
      {
        id: 'optional_map_index_value',
        params: [optionalOf(mapOf(K, V)), K],
        result: optV,
        typeParams: ['K', 'V'],
      },
    ]),
    fn('last', [{ id: 'list_last', receiver: true, params: [listOf(V)], result: optV, typeParams: ['V'] }]),
    fn('first', [{ id: 'list_first', receiver: true, params: [listOf(V)], result: optV, typeParams: ['V'] }]),
    fn('optional.unwrap', [
      { id: 'optional_unwrap', params: [listOf(optV)], result: listOf(V), typeParams: ['V'] },
    ]),
    fn('unwrapOpt', [
      { id: 'optional_unwrapOpt', receiver: true, params: [listOf(optV)], result: listOf(V), typeParams: ['V'] },
    ]),
  ],
};
