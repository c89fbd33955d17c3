/**
 * The lists extension library (cel-go ext/lists.go): slice, flatten, sort, distinct, reverse,
 * lists.range and `@sortByAssociatedKeys` (what the sortBy macro expands to). first/last are in the
 * optional library (std/decls.ts, optional.ts).
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
  UintType,
  listOf,
  typeName as checkedTypeName,
  typeParam,
  type Type,
} from '../check/types.ts';
import { reserveAllocation } from '../eval/planner.ts';
import { CelError, type Val, compare, equals, typeName } from '../eval/values.ts';
import type { Library } from './decls.ts';
import { err, fn, global, member } from './define.ts';

const T = typeParam('T');
const LT = listOf(T);
const I = IntType;

function slice(l: Val[], start: bigint, end: bigint): Val {
  if (start < 0n || end < 0n) return err(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end) return err(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (end > BigInt(l.length)) return err(`cannot slice(${start}, ${end}), list is length ${l.length}`);
  return l.slice(Number(start), Number(end));
}

function flatten(l: Val[], depth: bigint): Val {
  if (depth < 0n) return err('level must be non-negative');
  const out: Val[] = [];
  for (const e of l) {
    if (Array.isArray(e) && depth > 0n) {
      const inner = flatten(e as Val[], depth - 1n);
      if (inner instanceof CelError) return inner;
      out.push(...(inner as Val[]));
    } else out.push(e);
  }
  return out;
}

function sortList(l: Val[], keys?: Val[]): Val {
  const ks = keys ?? l;
  if (ks.length === 0) return l;
  const t = typeName(ks[0]!);
  for (const k of ks) {
    if (typeName(k) !== t) return err('list elements must have the same type');
    if (compare(k, k) instanceof CelError && !(typeof k === 'number')) return err('list elements must be comparable');
  }
  const idx = ks.map((_, i) => i);
  let failure: CelError | undefined;
  idx.sort((a, b) => {
    const c = compare(ks[a]!, ks[b]!);
    if (c instanceof CelError) {
      failure ??= c;
      return 0;
    }
    return c;
  });
  if (failure) return failure;
  return idx.map((i) => l[i]!);
}

function sortByAssociatedKeys(l: Val[], k: Val[]): Val {
  if (k.length !== l.length) {
    return err(`@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${l.length} and ${k.length} elements respectively`);
  }
  return sortList(l, k);
}

/** ext.Lists' comparableTypes: the element types sort and sortBy accept. */
const COMPARABLE_TYPES: readonly Type[] = [IntType, UintType, DoubleType, BoolType, DurationType, TimestampType, StringType, BytesType];

function range(n: bigint): Val {
  const len = Math.max(0, Number(n));
  // Its cost (len + 11) is charged after the call: refuse what could not be paid before allocating.
  reserveAllocation(len);
  return Array.from({ length: len }, (_, i) => BigInt(i));
}

function distinct(l: Val[]): Val {
  const out: Val[] = [];
  for (const e of l) if (!out.some((x) => equals(x, e))) out.push(e);
  return out;
}

/** cel-go's trackAllocatingListCall: the traversal, the call and the new list. */
const allocating = (factor: number, size: number) => Math.floor(size * factor) + 1 + 10;
const sizeOf = (v: Val) => (Array.isArray(v) ? v.length : 1);
const outputCost = (...a: Val[]) => allocating(1, sizeOf(a[a.length - 1]!));
const flattenCost = (...a: Val[]) => allocating(a.length === 3 ? Number(a[1] as bigint) : 1, sizeOf(a[0]!));
/** O(n^2) self-comparison (sort, distinct); strings and bytes cost a little more per comparison. */
function selfCompareCost(l: Val): number {
  const n = sizeOf(l);
  if (n === 0) return allocating(2, 0);
  const e = (l as Val[])[0];
  const factor = typeof e === 'string' || e instanceof Uint8Array ? 2.1 : 2;
  return allocating(factor, n * n);
}

export const listsLibrary: Library = {
  name: 'cel.lib.ext.lists',
  macros: ['sortBy'],
  functions: [
    fn('slice', member('list_slice', [LT, I, I], LT, slice, { typeParams: ['T'], cost: outputCost })),
    fn(
      'flatten',
      member('list_flatten', [listOf(DynType)], listOf(DynType), (l: Val[]) => flatten(l, 1n), { cost: flattenCost }),
      member('list_flatten_int', [listOf(DynType), I], listOf(DynType), flatten, { cost: flattenCost }),
    ),
    // One overload per comparable element type, named as cel-go names them (list_int_sort,
    // list_google.protobuf.Duration_sortByAssociatedKeys, ...): the checker then rejects lists of
    // incomparable elements, and the cost estimators find the element type in the id.
    fn(
      'sort',
      ...COMPARABLE_TYPES.map((t) =>
        member(`list_${checkedTypeName(t)}_sort`, [listOf(t)], listOf(t), (l: Val[]) => sortList(l), { cost: (l: Val) => selfCompareCost(l) }),
      ),
    ),
    fn(
      '@sortByAssociatedKeys',
      ...COMPARABLE_TYPES.map((u) =>
        member(`list_${checkedTypeName(u)}_sortByAssociatedKeys`, [LT, listOf(u)], LT, sortByAssociatedKeys, {
          typeParams: ['T'],
          cost: (_l: Val, k: Val) => selfCompareCost(k),
        }),
      ),
    ),
    fn('lists.range', global('lists_range', [I], listOf(I), range, { cost: outputCost })),
    fn('reverse', member('list_reverse', [LT], LT, (l: Val[]) => [...l].reverse(), { typeParams: ['T'], cost: outputCost })),
    fn('distinct', member('list_distinct', [LT], LT, distinct, { typeParams: ['T'], cost: (l: Val) => selfCompareCost(l) })),
  ],
};
