/**
 * Kubernetes' list library (k8s.io/apiserver/pkg/cel/library/lists.go, at its latest version):
 * `isSorted`, `sum`, `min`, `max` over lists of each comparable (summable) type, with upstream's
 * per-type overload ids, `indexOf` / `lastIndexOf` by CEL equality, and `includes`. Runtime cost
 * is one traversal of the receiver (cost.go traversalCost).
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
  typeParam,
  type Type,
} from '../../check/types.ts';
import {
  CelError,
  CelMap,
  Duration,
  Uint,
  type Val,
  checkInt,
  checkUint,
  compare,
  equals,
  errNoOverload,
  stringToBytes,
} from '../../eval/values.ts';
import type { FunctionDecl, Library } from '../decls.ts';
import { err, fn, member } from '../define.ts';
import { STRING_TRAVERSAL_COST_FACTOR } from './costs.ts';

const COMPARABLE: [string, Type][] = [
  ['int', IntType],
  ['uint', UintType],
  ['double', DoubleType],
  ['bool', BoolType],
  ['duration', DurationType],
  ['timestamp', TimestampType],
  ['string', StringType],
  ['bytes', BytesType],
];
const SUMMABLE: [string, Type][] = [
  ['int', IntType],
  ['uint', UintType],
  ['double', DoubleType],
  ['duration', DurationType],
];
const ZERO: Record<string, () => Val> = {
  int: () => 0n,
  uint: () => new Uint(0n),
  double: () => 0,
  duration: () => new Duration(0n),
};

/** upstream's traversalCost: string bytes × 0.1 (truncated), summed over lists and maps. */
export function traversalCost(v: Val): number {
  if (typeof v === 'string') return Math.floor(stringToBytes(v).length * STRING_TRAVERSAL_COST_FACTOR);
  if (v instanceof Uint8Array) return Math.floor(v.length * STRING_TRAVERSAL_COST_FACTOR);
  if (Array.isArray(v)) {
    let c = 0;
    for (const e of v) c += traversalCost(e);
    return c;
  }
  if (v instanceof CelMap) {
    let c = 0;
    for (const [k, x] of v.entries()) c += traversalCost(k) + traversalCost(x);
    return c;
  }
  return 1;
}

const cost = (l: Val) => traversalCost(l);

function isSorted(l: Val[]): Val {
  for (let i = 1; i < l.length; i++) {
    const c = compare(l[i - 1]!, l[i]!);
    if (c instanceof CelError) return c;
    if (c === 1) return false;
  }
  return true;
}

/** CEL `+` for the summable types, with overflow errors. */
function add(a: Val, b: Val): Val {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkInt(a + b);
  if (a instanceof Uint && b instanceof Uint) return checkUint(a.v + b.v);
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (a instanceof Duration && b instanceof Duration) {
    const r = checkInt(a.ns + b.ns);
    return r instanceof CelError ? r : new Duration(r);
  }
  return errNoOverload();
}

/**
 * The sum of a list; an empty list sums to the overload's zero. A non-empty list is folded from
 * its first element: cel-go dispatches a `dyn` receiver to the overload whose element type matches
 * the list's first element, so the sum is that of the elements' own type either way.
 */
function sum(zero: () => Val) {
  return (l: Val[]): Val => {
    if (l.length === 0) return zero();
    let acc = add(zero0(l[0]!), l[0]!);
    for (let i = 1; i < l.length && !(acc instanceof CelError); i++) acc = add(acc, l[i]!);
    return acc;
  };
}

/** The zero of a summable value's own type (so that `0 + x` keeps x's type and errors). */
function zero0(v: Val): Val {
  if (typeof v === 'bigint') return 0n;
  if (v instanceof Uint) return new Uint(0n);
  if (typeof v === 'number') return 0;
  if (v instanceof Duration) return new Duration(0n);
  return v;
}

/** min/max: keeps the first element unless a later one compares `prefer` against it. */
function extreme(op: string, prefer: number) {
  return (l: Val[]): Val => {
    let result: Val | undefined;
    for (const e of l) {
      if (result === undefined) result = e;
      else {
        const c = compare(result, e);
        if (c instanceof CelError) return c;
        if (c === prefer) result = e;
      }
    }
    return result === undefined ? err(`${op} called on empty list`) : result;
  };
}

function indexOf(l: Val[], x: Val): Val {
  for (let i = 0; i < l.length; i++) if (equals(l[i]!, x)) return BigInt(i);
  return -1n;
}

function lastIndexOf(l: Val[], x: Val): Val {
  for (let i = l.length - 1; i >= 0; i--) if (equals(l[i]!, x)) return BigInt(i);
  return -1n;
}

function includes(target: Val, x: Val): Val {
  if (Array.isArray(target)) return target.some((e) => equals(e, x));
  return equals(target, x);
}

const A = typeParam('A');

function templated(name: string, types: [string, Type][], make: (n: string, t: Type) => ReturnType<typeof member>): FunctionDecl {
  return fn(name, ...types.map(([n, t]) => make(n, t)));
}

export const kubernetesListsLibrary: Library = {
  name: 'kubernetes.lists',
  functions: [
    templated('isSorted', COMPARABLE, (n, t) => member(`list_${n}_is_sorted_bool`, [listOf(t)], BoolType, isSorted, { cost })),
    templated('sum', SUMMABLE, (n, t) => member(`list_${n}_sum_${n}`, [listOf(t)], t, sum(ZERO[n]!), { cost })),
    templated('max', COMPARABLE, (n, t) => member(`list_${n}_max_${n}`, [listOf(t)], t, extreme('max', -1), { cost })),
    templated('min', COMPARABLE, (n, t) => member(`list_${n}_min_${n}`, [listOf(t)], t, extreme('min', 1), { cost })),
    fn('indexOf', member('list_a_index_of_int', [listOf(A), A], IntType, indexOf, { typeParams: ['A'], cost })),
    fn('lastIndexOf', member('list_a_last_index_of_int', [listOf(A), A], IntType, lastIndexOf, { typeParams: ['A'], cost })),
    fn('includes', member('list_includes_dyn_dyn', [DynType, DynType], BoolType, includes, { cost })),
  ],
};
