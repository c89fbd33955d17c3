/**
 * Static cost estimators that cel-go's extension libraries register per overload
 * (`checker.OverloadCostEstimate`): ext.Sets (sets.contains/intersects/equivalent) and ext.Lists
 * version 3 (slice, flatten, range, reverse, distinct, sort, sortBy). Kubernetes installs both.
 * Pass them to estimateCost as `overloadEstimators` when the library is installed.
 */
import {
  LIST_CREATE_BASE_COST,
  MAX_UINT64,
  STRING_TRAVERSAL_COST_FACTOR,
  add,
  fixed,
  multiply,
  multiplyByFactor,
  type AstNode,
  type CallCostEstimator,
  type CallEstimate,
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

/** The extension estimators Kubernetes' environment carries (sets and lists v3). */
export const kubernetesExtensionCostEstimators: Record<string, CallCostEstimator> = {
  ...setsCostEstimators,
  ...listsCostEstimators,
};
