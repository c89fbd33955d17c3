/**
 * Static cost estimators that cel-go's extension libraries register per overload
 * (`checker.OverloadCostEstimate`): ext.Sets (sets.contains/intersects/equivalent), ext.Lists
 * version 3 (slice, flatten, range, reverse, distinct, sort, sortBy) and ext.Strings version 5
 * (charAt, indexOf, replace, split, substring, trim, join, ...) and ext.Regex (regex.extract,
 * regex.extractAll, regex.replace). Kubernetes installs the first two
 * (its strings library is version 2, which has none). Pass them to estimateCost as
 * `overloadEstimators` when the library at that version is installed.
 */
import {
  LIST_CREATE_BASE_COST,
  MAX_UINT64,
  REGEX_STRING_LENGTH_COST_FACTOR,
  STRING_TRAVERSAL_COST_FACTOR,
  add,
  addU64,
  fixed,
  mulU64,
  multiply,
  multiplyByFactor,
  type AstNode,
  type CallCostEstimator,
  type CallEstimate,
  type CostEstimate,
  type SizeEstimate,
} from './cost.ts';

const CALL_COST = fixed(1n);

/** cel-go ext's nodeAsUintValue: an int literal argument (negative as 0), else the default. */
function nodeAsUint(node: AstNode, dflt: bigint): bigint {
  const e = node.expr;
  if (!e || e.kind !== 'const' || e.value.kind !== 'int') return dflt;
  return e.value.value < 0n ? 0n : e.value.value;
}

/** Cost of a call producing a list of listSize elements at costFactor per element. */
function allocatingListCall(costFactor: number, listSize: SizeEstimate): CallEstimate {
  const cost = add(add(multiplyByFactor(listSize, costFactor), CALL_COST), fixed(LIST_CREATE_BASE_COST));
  return { ...cost, resultSize: listSize };
}

function setsCost(costFactor: number): CallCostEstimator {
  return (_fn, _id, _target, args, sizeOf) => {
    if (args.length !== 2) return undefined;
    const product = multiply(sizeOf(args[0]!), sizeOf(args[1]!));
    return add(multiplyByFactor(product, costFactor), CALL_COST);
  };
}

/** ext.Sets estimators, by overload id. */
export const setsCostEstimators: Record<string, CallCostEstimator> = {
  list_sets_contains_list: setsCost(1),
  list_sets_intersects_list: setsCost(1),
  // Equivalence may need both m*n containment checks.
  list_sets_equivalent_list: setsCost(2),
};

const listSlice: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target || args.length !== 2) return undefined;
  const sz = sizeOf(target);
  const start = nodeAsUint(args[0]!, 0n);
  const end = nodeAsUint(args[1]!, sz.max);
  // Go's uint64 subtraction wraps when end < start.
  return allocatingListCall(1, fixed(BigInt.asUintN(64, end - start)));
};

const listsRange: CallCostEstimator = (_fn, _id, target, args) => {
  if (target || args.length !== 1) return undefined;
  return allocatingListCall(1, fixed(nodeAsUint(args[0]!, MAX_UINT64)));
};

const listReverse: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target || args.length !== 0) return undefined;
  return allocatingListCall(1, sizeOf(target));
};

const listFlatten: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target || args.length > 1) return undefined;
  const depth = args.length === 1 ? nodeAsUint(args[0]!, MAX_UINT64) : 1n;
  return allocatingListCall(Number(depth), sizeOf(target));
};

const listDistinct: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target || args.length !== 0) return undefined;
  const sz = sizeOf(target);
  return allocatingListCall(2, multiply(sz, sz));
};

function sortCost(node: AstNode, elemType: string, sizeOf: (n: AstNode) => SizeEstimate): CallEstimate {
  const sz = sizeOf(node);
  let costFactor = 2.0;
  if (elemType === 'string' || elemType === 'bytes') costFactor += STRING_TRAVERSAL_COST_FACTOR;
  return allocatingListCall(costFactor, multiply(sz, sz));
}

/** ext.Lists' comparable element types, by the type names its overload ids use. */
const COMPARABLE_TYPE_NAMES = [
  'int',
  'uint',
  'double',
  'bool',
  'google.protobuf.Duration',
  'google.protobuf.Timestamp',
  'string',
  'bytes',
];

/** ext.Lists version 3 estimators, by overload id. */
export const listsCostEstimators: Record<string, CallCostEstimator> = {
  list_slice: listSlice,
  list_flatten: listFlatten,
  list_flatten_int: listFlatten,
  lists_range: listsRange,
  list_reverse: listReverse,
  list_distinct: listDistinct,
};
for (const t of COMPARABLE_TYPE_NAMES) {
  listsCostEstimators[`list_${t}_sort`] = (_fn, _id, target, args, sizeOf) =>
    target && args.length === 0 ? sortCost(target, t, sizeOf) : undefined;
  listsCostEstimators[`list_${t}_sortByAssociatedKeys`] = (_fn, _id, target, args, sizeOf) =>
    target && args.length === 1 ? sortCost(args[0]!, t, sizeOf) : undefined;
}

const STRING_COST_FACTOR = STRING_TRAVERSAL_COST_FACTOR;

const atLeastOne = (s: SizeEstimate): SizeEstimate => ({ min: s.min === 0n ? 1n : s.min, max: s.max === 0n ? 1n : s.max });
const ranged = (min: bigint, max: bigint): SizeEstimate => ({ min, max });

/** O(n) transforms with a result as long as the input (lowerAscii, upperAscii, reverse). */
const fixedTransform: CallCostEstimator = (_fn, _id, target, _args, sizeOf) => {
  if (!target) return undefined;
  const size = sizeOf(target);
  return { ...add(add(multiplyByFactor(size, STRING_COST_FACTOR), CALL_COST), size), resultSize: size };
};

/** O(n) transforms with a result up to the input's length (trim). */
const variableTransform: CallCostEstimator = (_fn, _id, target, _args, sizeOf) => {
  if (!target) return undefined;
  const size = sizeOf(target);
  const transformSize = ranged(0n, size.max);
  return {
    ...add(add(multiplyByFactor(size, STRING_COST_FACTOR), CALL_COST), transformSize),
    resultSize: transformSize,
  };
};

const charAt: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target || args.length !== 1) return undefined;
  const cost = multiplyByFactor(sizeOf(target), STRING_COST_FACTOR);
  return { ...add(add(cost, CALL_COST), CALL_COST), resultSize: ranged(0n, 1n) };
};

const substring: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target || args.length < 1 || args.length > 2) return undefined;
  const targetSize = sizeOf(target);
  const cost = multiplyByFactor(targetSize, STRING_COST_FACTOR);
  const start = nodeAsUint(args[0]!, 0n);
  const end = args.length === 2 ? nodeAsUint(args[1]!, targetSize.max) : targetSize.max;
  const resultSize = fixed(BigInt.asUintN(64, end - start));
  return { ...add(add(cost, CALL_COST), resultSize), resultSize };
};

/** O(n*m) searches (indexOf, lastIndexOf). */
const search: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target || args.length < 1) return undefined;
  const searchSize = multiply(sizeOf(target), sizeOf(args[0]!));
  return add(multiplyByFactor(searchSize, STRING_COST_FACTOR), CALL_COST);
};

const replace: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target || args.length < 2) return undefined;
  const targetSize = sizeOf(target);
  const needleSize = atLeastOne(sizeOf(args[0]!));
  const searchCost = multiplyByFactor(multiply(atLeastOne(targetSize), needleSize), STRING_COST_FACTOR);
  const replacementSize = add(sizeOf(args[1]!), fixed(1n));
  const allReplacedSize = mulU64(addU64(targetSize.max, 1n), replacementSize.max);
  const resultMin = targetSize.min > replacementSize.min ? replacementSize.min : targetSize.min;
  const resultSize = ranged(resultMin, allReplacedSize);
  return { ...add(add(searchCost, resultSize), CALL_COST), resultSize };
};

const split: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target || args.length < 1) return undefined;
  const targetSize = sizeOf(target);
  const traversalCost = multiplyByFactor(add(targetSize, fixed(1n)), STRING_COST_FACTOR);
  const resultSize = ranged(0n, targetSize.max);
  const allocationCost = add(multiplyByFactor(resultSize, 1), fixed(LIST_CREATE_BASE_COST));
  return { ...add(add(traversalCost, allocationCost), CALL_COST), resultSize };
};

const join: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (!target) return undefined;
  const targetSize = sizeOf(target);
  const sepSize = args.length >= 1 ? sizeOf(args[0]!) : fixed(0n);
  const traversalCost = multiplyByFactor(add(targetSize, fixed(1n)), STRING_COST_FACTOR);
  const maxResultSize = addU64(mulU64(targetSize.max, addU64(1n, sepSize.max)), sepSize.max);
  const resultSize = ranged(0n, maxResultSize);
  return { ...add(add(traversalCost, multiplyByFactor(resultSize, 1)), CALL_COST), resultSize };
};

/** ext.Strings version 5 estimators, by overload id (cel-go's default, latest version). */
export const stringsCostEstimators: Record<string, CallCostEstimator> = {
  string_char_at_int: charAt,
  string_index_of_string: search,
  string_index_of_string_int: search,
  string_last_index_of_string: search,
  string_last_index_of_string_int: search,
  string_lower_ascii: fixedTransform,
  string_upper_ascii: fixedTransform,
  string_replace_string_string: replace,
  string_replace_string_string_int: replace,
  string_split_string: split,
  string_split_string_int: split,
  string_substring_int: substring,
  string_substring_int_int: substring,
  string_trim: variableTransform,
  string_reverse: fixedTransform,
  list_join: join,
  list_join_string: join,
};

/** Search cost of a regex over a target: (target + 1) * 0.1 by (pattern + 1) * 0.25. */
function regexSearch(target: SizeEstimate, pattern: SizeEstimate): CostEstimate {
  const targetCost = multiplyByFactor(add(target, fixed(1n)), STRING_COST_FACTOR);
  const regexCost = multiplyByFactor(add(pattern, fixed(1n)), REGEX_STRING_LENGTH_COST_FACTOR);
  return multiply(regexCost, targetCost);
}

const regexExtract: CallCostEstimator = (_fn, _id, _target, args, sizeOf) => {
  if (args.length !== 2) return undefined;
  const targetSize = sizeOf(args[0]!);
  const resultSize = ranged(0n, targetSize.max);
  return { ...add(regexSearch(targetSize, sizeOf(args[1]!)), resultSize), resultSize };
};

const regexExtractAll: CallCostEstimator = (_fn, _id, _target, args, sizeOf) => {
  if (args.length !== 2) return undefined;
  const targetSize = sizeOf(args[0]!);
  const resultSize = ranged(0n, targetSize.max);
  const allocationSize = add(resultSize, fixed(LIST_CREATE_BASE_COST));
  return { ...add(regexSearch(targetSize, sizeOf(args[1]!)), allocationSize), resultSize };
};

const regexReplace: CallCostEstimator = (_fn, _id, target, args, sizeOf) => {
  if (target || (args.length !== 3 && args.length !== 4)) return undefined;
  const targetSize = sizeOf(args[0]!);
  const replacementSize = sizeOf(args[2]!);
  // Go multiplies these uint64s without a saturation check: the product wraps.
  const allReplacedSize = BigInt.asUintN(64, targetSize.max * replacementSize.max);
  const noneReplacedSize = targetSize.max;
  const resultSize =
    replacementSize.max === 0n ? ranged(allReplacedSize, noneReplacedSize) : ranged(noneReplacedSize, allReplacedSize);
  return { ...add(regexSearch(targetSize, sizeOf(args[1]!)), resultSize), resultSize };
};

/** ext.Regex estimators, by overload id. */
export const regexCostEstimators: Record<string, CallCostEstimator> = {
  regex_extract_string_string: regexExtract,
  regex_extractAll_string_string: regexExtractAll,
  regex_replace_string_string_string: regexReplace,
  regex_replace_string_string_string_int: regexReplace,
};

/** The extension estimators Kubernetes' environment carries (sets and lists v3). */
export const kubernetesExtensionCostEstimators: Record<string, CallCostEstimator> = {
  ...setsCostEstimators,
  ...listsCostEstimators,
};
