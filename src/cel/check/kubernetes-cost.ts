/**
 * The static call costs Kubernetes adds for its CEL libraries (k8s.io/apiserver/pkg/cel/library
 * cost.go, `CostEstimator.EstimateCallCost`): strings and lists extensions, regex find, url, ip,
 * cidr, quantity, semver, format, authz and selector functions, and the O(1) equality of
 * Kubernetes object types. Plug it into estimateCost as `callCost`.
 *
 * Changing any figure here changes which CRD rules are accepted: they must stay as upstream's.
 */
import {
  LIST_CREATE_BASE_COST,
  MAX_UINT64,
  REGEX_STRING_LENGTH_COST_FACTOR,
  STRING_TRAVERSAL_COST_FACTOR,
  STRUCT_CREATE_BASE_COST,
  add,
  fixed,
  multiply,
  multiplyByFactor,
  union,
  type AstNode,
  type CallCostEstimator,
  type CallEstimate,
  type CostEstimate,
  type SizeEstimate,
} from './cost.ts';
import { kindOf, typeName, typeParams } from './types.ts';

/** k8s.io/apiserver/pkg/cel limits. */
export const MAX_FORMAT_SIZE = 64n;
export const MAX_NAME_FORMAT_REGEX_SIZE = 128;

const SELECTOR_LENGTH_TO_REQUIREMENT_COUNT = 0.5;
const COST_PER_REQUIREMENT = Number(LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST);

/** Object types whose equality costs 1. */
const UNIT_EQUALITY_STRUCTS = new Set([
  'kubernetes.Quantity',
  'kubernetes.authorization.Authorizer',
  'kubernetes.authorization.PathCheck',
  'kubernetes.authorization.GroupCheck',
  'kubernetes.authorization.ResourceCheck',
  'kubernetes.authorization.Decision',
  'kubernetes.Semver',
]);

function selectorCostEstimate(selectorLength: SizeEstimate): CostEstimate {
  const parseCost = multiplyByFactor(selectorLength, STRING_TRAVERSAL_COST_FACTOR);
  const requirementCount = multiplyByFactor(selectorLength, SELECTOR_LENGTH_TO_REQUIREMENT_COUNT);
  const requirementCost = multiplyByFactor(requirementCount, COST_PER_REQUIREMENT);
  return add(add(fixed(LIST_CREATE_BASE_COST), parseCost), requirementCost);
}

/** A list node's element, with the `@items` path when the list has a path (for maxLength lookups). */
function listElementNode(list: AstNode): AstNode | undefined {
  const params = typeParams(list.type);
  if (params.length === 0) return undefined;
  return {
    path: list.path ? [...list.path, '@items'] : undefined,
    type: params[0]!,
    expr: undefined,
    computedSize: undefined,
  };
}

function literalInt(node: AstNode): bigint | undefined {
  const e = node.expr;
  return e && e.kind === 'const' && e.value.kind === 'int' ? e.value.value : undefined;
}

const nominal = (): CallEstimate => fixed(1n);

/** Kubernetes' EstimateCallCost; undefined leaves the call to cel-go's defaults. */
export const kubernetesCallCost: CallCostEstimator = (fn, overloadId, target, args, sizeOf) => {
  switch (fn) {
    case 'check':
      return fixed(350000n);
    case 'serviceAccount':
    case 'path':
    case 'group':
    case 'resource':
    case 'subresource':
    case 'namespace':
    case 'name':
    case 'allowed':
    case 'reason':
    case 'error':
    case 'errored':
      return nominal();
    case 'fieldSelector':
    case 'labelSelector':
      if (args.length === 1) return selectorCostEstimate(sizeOf(args[0]!));
      break;
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
    case 'includes':
      if (target) {
        let elCost = fixed(1n);
        const elNode = listElementNode(target);
        if (elNode) {
          const k = kindOf(elNode.type);
          if (k === 'string' || k === 'bytes') {
            elCost = add(elCost, multiplyByFactor(sizeOf(elNode), STRING_TRAVERSAL_COST_FACTOR));
          }
          return multiply(sizeOf(target), elCost);
        }
        if (fn === 'includes') return multiply(sizeOf(target), elCost);
        return multiplyByFactor(sizeOf(target), STRING_TRAVERSAL_COST_FACTOR);
      }
      break;
    case 'url':
    case 'jsonpatch.escapeKey':
      if (args.length === 1) {
        const sz = sizeOf(args[0]!);
        return { ...multiplyByFactor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: sz };
      }
      break;
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      if (target) {
        const sz = sizeOf(target);
        return { ...multiplyByFactor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: sz };
      }
      break;
    case 'replace':
      if (target && args.length >= 2) return replaceEstimate(sizeOf(target), sizeOf(args[0]!), sizeOf(args[1]!));
      break;
    case 'split':
      if (target) {
        const sz = sizeOf(target);
        let max = sz.max;
        if (args.length > 1) {
          const limit = literalInt(args[1]!);
          // Go converts the int64 limit to uint64: a negative limit wraps around.
          if (limit !== undefined) max = BigInt.asUintN(64, limit);
        }
        return {
          ...multiplyByFactor(sz, 2 * STRING_TRAVERSAL_COST_FACTOR),
          resultSize: { min: 0n, max },
        };
      }
      break;
    case 'join':
      if (target) {
        let sz: SizeEstimate = { min: 0n, max: 0n };
        const listSize = sizeOf(target);
        const elNode = listElementNode(target);
        if (elNode) sz = multiply(listSize, sizeOf(elNode));
        if (args.length > 0) {
          const sepSize = sizeOf(args[0]!);
          const minSeparators = listSize.min > 0n ? listSize.min - 1n : 0n;
          const maxSeparators = listSize.max > 0n ? listSize.max - 1n : 0n;
          sz = add(sz, multiply(sepSize, { min: minSeparators, max: maxSeparators }));
        }
        return { ...multiplyByFactor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: sz };
      }
      break;
    case 'find':
    case 'findAll':
      if (target && args.length >= 1) {
        const sz = sizeOf(target);
        const strCost = multiplyByFactor(add(sz, fixed(1n)), STRING_TRAVERSAL_COST_FACTOR);
        const regexCost = multiplyByFactor(sizeOf(args[0]!), REGEX_STRING_LENGTH_COST_FACTOR);
        return { ...multiply(strCost, regexCost), resultSize: { min: 0n, max: sz.max } };
      }
      break;
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
      if (args.length >= 1) return multiplyByFactor(sizeOf(args[0]!), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'ip':
      if (overloadId === 'cidr_ip') return nominal();
      if (args.length >= 1) return multiplyByFactor(sizeOf(args[0]!), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'ip.isCanonical':
      if (args.length >= 1) return multiplyByFactor(sizeOf(args[0]!), 2 * STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'masked':
    case 'prefixLength':
    case 'family':
    case 'isUnspecified':
    case 'isLoopback':
    case 'isLinkLocalMulticast':
    case 'isLinkLocalUnicast':
    case 'isGlobalUnicast':
      return nominal();
    case 'containsIP':
      if (args.length >= 1) {
        const sz: SizeEstimate = { min: 4n, max: 16n };
        let ipCompCost = multiplyByFactor(add(sz, sz), STRING_TRAVERSAL_COST_FACTOR);
        if (overloadId === 'cidr_contains_ip_string') {
          ipCompCost = add(ipCompCost, multiplyByFactor(sizeOf(args[0]!), STRING_TRAVERSAL_COST_FACTOR));
        }
        return ipCompCost;
      }
      break;
    case 'containsCIDR':
      if (args.length >= 1) {
        const sz: SizeEstimate = { min: 4n, max: 16n };
        let ipCompCost = multiplyByFactor(add(sz, sz), STRING_TRAVERSAL_COST_FACTOR);
        ipCompCost = add(ipCompCost, multiplyByFactor(sz, STRING_TRAVERSAL_COST_FACTOR));
        ipCompCost = add(ipCompCost, fixed(1n));
        if (overloadId === 'cidr_contains_cidr_string') {
          ipCompCost = add(ipCompCost, multiplyByFactor(sizeOf(args[0]!), STRING_TRAVERSAL_COST_FACTOR));
        }
        return ipCompCost;
      }
      break;
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      if (args.length >= 1) return multiplyByFactor(sizeOf(args[0]!), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'validate':
      if (args.length >= 1) {
        return multiplyByFactor(
          multiplyByFactor(sizeOf(args[0]!), STRING_TRAVERSAL_COST_FACTOR),
          MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR,
        );
      }
      break;
    case 'format.named':
    case 'sign':
    case 'asInteger':
    case 'isInteger':
    case 'asApproximateFloat':
    case 'isGreaterThan':
    case 'isLessThan':
    case 'compareTo':
    case 'add':
    case 'sub':
    case 'major':
    case 'minor':
    case 'patch':
    case 'getScheme':
    case 'getHostname':
    case 'getHost':
    case 'getPort':
    case 'getEscapedPath':
    case 'getQuery':
      return nominal();
    case '_==_':
      if (args.length === 2) {
        const lhs = args[0]!;
        const rhs = args[1]!;
        const t = lhs.type;
        // cel-go's Type.Equal compares type names only.
        if (typeName(t) === typeName(rhs.type)) {
          if (kindOf(t) === 'opaque' && (typeName(t) === 'net.IP' || typeName(t) === 'net.CIDR')) return nominal();
          if (kindOf(t) === 'struct') {
            const name = typeName(t);
            if (UNIT_EQUALITY_STRUCTS.has(name)) return nominal();
            if (name === 'kubernetes.NamedFormat') {
              return multiplyByFactor({ min: 1n, max: MAX_FORMAT_SIZE }, STRING_TRAVERSAL_COST_FACTOR);
            }
            if (name === 'kubernetes.URL') {
              // Upstream takes both sizes from the right-hand side.
              let size: SizeEstimate = { min: 1n, max: 1n };
              const r = rhs.computedSize;
              if (r) size = union(r, r);
              return multiplyByFactor({ min: 1n, max: size.max }, STRING_TRAVERSAL_COST_FACTOR);
            }
          }
        }
      }
      break;
  }
  return undefined;
};

/** The size of `s.replace(old, new)` and its cost (upstream's case analysis, kept as is). */
function replaceEstimate(sz: SizeEstimate, toReplaceSz: SizeEstimate, replaceWithSz: SizeEstimate): CallEstimate {
  const replaceCount = { min: 0n, max: 0n };
  const retainedSz = { min: 0n, max: 0n };
  if (toReplaceSz.min === 0n) {
    replaceCount.max = sz.max < MAX_UINT64 ? sz.max + 1n : sz.max;
    retainedSz.max = sz.max;
  } else if (replaceWithSz.max <= toReplaceSz.min) {
    replaceCount.max = 0n;
    retainedSz.max = sz.max;
  } else {
    replaceCount.max = ceilDivFloat(sz.max, toReplaceSz.min);
  }
  if (toReplaceSz.max === 0n) {
    replaceCount.min = sz.min < MAX_UINT64 ? sz.min + 1n : sz.min;
    retainedSz.min = sz.min;
  } else if (toReplaceSz.max <= replaceWithSz.min) {
    replaceCount.min = 0n;
    retainedSz.min = sz.min;
  } else {
    replaceCount.min = ceilDivFloat(sz.min, toReplaceSz.max);
  }
  const size = add(multiply(replaceCount, replaceWithSz), retainedSz);
  return { ...multiplyByFactor(sz, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize: size };
}

/** uint64(math.Ceil(float64(a) / float64(b))), with Go's saturating float -> uint64 conversion. */
function ceilDivFloat(a: bigint, b: bigint): bigint {
  const c = Math.ceil(Number(a) / Number(b));
  return c >= 2 ** 64 ? MAX_UINT64 : BigInt(c);
}

