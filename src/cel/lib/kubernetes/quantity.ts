/**
 * Kubernetes' quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go): `quantity(string)`,
 * `isQuantity`, `sign`, `isGreaterThan`, `isLessThan`, `compareTo`, `add`/`sub` (quantity or int),
 * `asInteger`, `isInteger` and `asApproximateFloat`, over the resource.Quantity port in
 * resource-quantity.ts. Values are `kubernetes.Quantity` objects equal when upstream's Cmp is 0.
 *
 * Two upstream facts are observable and kept. `isInteger`/`asInteger` are AsInt64: true only for a
 * quantity held as an int64 amount, so `quantity('1.5Gi').isInteger()` is false although the value
 * is 1610612736 (a fraction with a binary suffix is parsed as a decimal). And `add`/`sub` return a
 * pointer (`&apiservercel.Quantity`) where `quantity()` returns a value, while Quantity.Equal only
 * accepts a value as its operand: `q == q.add(0)` is the error `no such overload` (`q.add(0) == q`
 * is true, and `!=` is true in both orders).
 */
import { BoolType, DoubleType, IntType, StringType, structType } from '../../check/types.ts';
import { type CelError, errNoOverload, type Val } from '../../eval/values.ts';
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
  constructor(
    readonly quantity: Quantity,
    /** Whether upstream holds it by pointer (results of add and sub), which its Equal refuses as an operand. */
    readonly byPointer = false,
  ) {
    super(QUANTITY_TYPE_NAME, quantity.equalityKey());
  }
  override equal(other: Val): boolean | CelError {
    if (other instanceof QuantityValue && other.byPointer) return errNoOverload();
    return super.equal(other);
  }
  /** The canonical string (`1536Mi`), as upstream converts a Quantity to a string. */
  override toString(): string {
    return this.quantity.toString();
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
  return new QuantityValue(c, true);
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
          return new QuantityValue(c, true);
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
          return new QuantityValue(c, true);
        }),
        { cost: () => 1 },
      ),
      member('quantity_sub_int', [Q, IntType], Q, (q: Val, n: bigint) => addInt(q, n, true), { cost: () => 1 }),
    ),
  ],
};
