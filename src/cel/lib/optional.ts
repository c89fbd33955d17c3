/**
 * Runtime implementations of the optional-value library whose declarations live in std/decls.ts
 * (cel-go's `cel.OptionalTypes()`): optional.of/ofNonZeroValue/none/unwrap, value, hasValue,
 * or/orValue (the planner short-circuits these), first/last and unwrapOpt, and `_[_]` on optionals.
 */
import { index } from '../eval/access.ts';
import type { RtOverload } from '../eval/dispatch.ts';
import { CelError, CelMap, Duration, Optional, Timestamp, Uint, type Val } from '../eval/values.ts';

/** 0001-01-01T00:00:00Z, Go's zero time.Time, in nanoseconds since the Unix epoch. */
const GO_ZERO_TIME_NS = -62135596800n * 1_000_000_000n;

/** Whether v is its type's zero value (cel-go's ofNonZeroValue test). */
export function isZeroValue(v: Val): boolean {
  switch (typeof v) {
    case 'boolean':
      return v === false;
    case 'bigint':
      return v === 0n;
    case 'number':
      return v === 0;
    case 'string':
      return v === '';
  }
  if (v === null) return true;
  if (v instanceof Uint) return v.v === 0n;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof CelMap) return v.size === 0;
  if (v instanceof Uint8Array) return v.length === 0;
  if (v instanceof Timestamp) return v.ns === GO_ZERO_TIME_NS; // Go's zero time.Time
  if (v instanceof Duration) return v.ns === 0n;
  if (v instanceof Optional) return v.value === undefined;
  return false;
}

function unwrap(l: Val[]): Val {
  const out: Val[] = [];
  for (const e of l) {
    if (!(e instanceof Optional)) return new CelError(`no such overload: optional.unwrap(${String(e)})`);
    if (e.value !== undefined) out.push(e.value);
  }
  return out;
}

/** Runtime overloads of the optional library. */
export const optionalOverloads: RtOverload[] = [
  { id: 'optional_of', name: 'optional.of', receiver: false, kinds: ['*'], impl: (v) => new Optional(v) },
  {
    id: 'optional_ofNonZeroValue',
    name: 'optional.ofNonZeroValue',
    receiver: false,
    kinds: ['*'],
    impl: (v) => (isZeroValue(v) ? Optional.none : new Optional(v)),
  },
  { id: 'optional_none', name: 'optional.none', receiver: false, kinds: [], impl: () => Optional.none },
  {
    id: 'optional_value',
    name: 'value',
    receiver: true,
    kinds: ['o'],
    impl: (o) => (o as Optional).value ?? new CelError('optional.none() dereference'),
  },
  { id: 'optional_hasValue', name: 'hasValue', receiver: true, kinds: ['o'], impl: (o) => (o as Optional).value !== undefined },
  {
    id: 'optional_or_optional',
    name: 'or',
    receiver: true,
    kinds: ['o', 'o'],
    impl: (a, b) => ((a as Optional).value !== undefined ? a : b),
  },
  {
    id: 'optional_orValue_value',
    name: 'orValue',
    receiver: true,
    kinds: ['o', '*'],
    impl: (a, b) => (a as Optional).value ?? b,
  },
  { id: 'optional_list_index_int', name: '_[_]', receiver: false, kinds: ['o', '*'], impl: index },
  {
    id: 'list_first',
    name: 'first',
    receiver: true,
    kinds: ['l'],
    impl: (l) => ((l as Val[]).length ? new Optional((l as Val[])[0]!) : Optional.none),
  },
  {
    id: 'list_last',
    name: 'last',
    receiver: true,
    kinds: ['l'],
    impl: (l) => ((l as Val[]).length ? new Optional((l as Val[])[(l as Val[]).length - 1]!) : Optional.none),
  },
  { id: 'optional_unwrap', name: 'optional.unwrap', receiver: false, kinds: ['l'], impl: (l) => unwrap(l as Val[]) },
  { id: 'optional_unwrapOpt', name: 'unwrapOpt', receiver: true, kinds: ['l'], impl: (l) => unwrap(l as Val[]) },
];
