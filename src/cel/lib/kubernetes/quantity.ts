/**
 * Kubernetes' quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go): `quantity(string)`,
 * `isQuantity`, `sign`, `isGreaterThan`, `isLessThan`, `compareTo`, `add`/`sub` (quantity or int),
 * `asInteger`, `isInteger` and `asApproximateFloat`, over the resource.Quantity port in
 * resource-quantity.ts. Values are `kubernetes.Quantity` objects equal when upstream's Cmp is 0.
 */
import { BoolType, DoubleType, IntType, StringType, structType } from '../../check/types.ts';
import { errNoOverload, type Val } from '../../eval/values.ts';
import type { Library } from '../decls.ts';
import { err, fn, global, member } from '../define.ts';
import { LibraryValue } from './object.ts';
import { Quantity, QuantityError, parseQuantity } from './resource-quantity.ts';
import { stringCost } from './costs.ts';

export const QUANTITY_TYPE_NAME = 'kubernetes.Quantity';
/** The checker's type of quantity values. */
export const QuantityType = structType(QUANTITY_TYPE_NAME);

/** A CEL `kubernetes.Quantity` value. */
export class QuantityValue extends LibraryValue {
  constructor(readonly quantity: Quantity) {
    super(QUANTITY_TYPE_NAME, quantity.equalityKey());
  }
}

const Q = QuantityType;

/** Applies f to the quantity arguments, or reports no such overload for other values. */
function withQ<R extends Val>(f: (...q: Quantity[]) => R) {
  return (...args: Val[]): Val => {
    const qs: Quantity[] = [];
    for (const a of args) {
      if (!(a instanceof QuantityValue)) return errNoOverload();
      qs.push(a.quantity);
    }
    return f(...qs);
  };
}

function toQuantity(s: string): Val {
  const q = parseQuantity(s);
  return q instanceof QuantityError ? err(q.message) : new QuantityValue(q);
}

function addInt(q: Val, n: bigint, negate: boolean): Val {
  if (!(q instanceof QuantityValue)) return errNoOverload();
  const c = q.quantity.copy();
  const y = Quantity.fromInt(n, 'DecimalExponent');
  if (negate) c.sub(y);
  else c.add(y);
  return new QuantityValue(c);
}

export const quantityLibrary: Library = {
  name: 'kubernetes.quantity',
  functions: [
    fn('quantity', global('string_to_quantity', [StringType], Q, toQuantity, { cost: stringCost })),
    fn('isQuantity', global('is_quantity_string', [StringType], BoolType, (s: string) => !(parseQuantity(s) instanceof QuantityError), { cost: stringCost })),
    // Upstream declares sign as a global overload, so it is called `sign(q)`, not `q.sign()`.
    fn('sign', global('quantity_sign', [Q], IntType, withQ((q) => BigInt(q.sign())), { cost: () => 1 })),
    fn('isGreaterThan', member('quantity_is_greater_than', [Q, Q], BoolType, withQ((a, b) => a!.cmp(b!) === 1), { cost: () => 1 })),
    fn('isLessThan', member('quantity_is_less_than', [Q, Q], BoolType, withQ((a, b) => a!.cmp(b!) === -1), { cost: () => 1 })),
    fn('compareTo', member('quantity_compare_to', [Q, Q], IntType, withQ((a, b) => BigInt(a!.cmp(b!))), { cost: () => 1 })),
    fn('asApproximateFloat', member('quantity_get_float', [Q], DoubleType, withQ((q) => q.asApproximateFloat64()), { cost: () => 1 })),
    fn(
      'asInteger',
      member('quantity_get_int', [Q], IntType, withQ((q): Val => q.asInt64() ?? err('cannot convert value to integer')), { cost: () => 1 }),
    ),
    fn('isInteger', member('quantity_is_integer', [Q], BoolType, withQ((q) => q.asInt64() !== undefined), { cost: () => 1 })),
    fn(
      'add',
      member(
        'quantity_add',
        [Q, Q],
        Q,
        withQ((a, b) => {
          const c = a!.copy();
          c.add(b!);
          return new QuantityValue(c);
        }),
        { cost: () => 1 },
      ),
      member('quantity_add_int', [Q, IntType], Q, (q: Val, n: bigint) => addInt(q, n, false), { cost: () => 1 }),
    ),
    fn(
      'sub',
      member(
        'quantity_sub',
        [Q, Q],
        Q,
        withQ((a, b) => {
          const c = a!.copy();
          c.sub(b!);
          return new QuantityValue(c);
        }),
        { cost: () => 1 },
      ),
      member('quantity_sub_int', [Q, IntType], Q, (q: Val, n: bigint) => addInt(q, n, true), { cost: () => 1 }),
    ),
  ],
};
