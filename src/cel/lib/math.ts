/**
 * The math extension library (cel-go ext/math.go): math.greatest/least (cel-go's macros expand
 * them to math.@max/@min; both spellings are implemented), ceil, floor, round, trunc, abs, sign,
 * isNaN, isInf, isFinite, sqrt and the bit operations on int and uint.
 */
import { BoolType, DoubleType, DynType, IntType, UintType, listOf, type Type } from '../check/types.ts';
import type { OverloadDecl } from './decls.ts';
import { CelError, INT_MIN, Uint, type Val, compare, errOverflow } from '../eval/values.ts';
import type { Library } from './decls.ts';
import { err, fn, global } from './define.ts';

const D = DoubleType;
const I = IntType;
const U = UintType;

function extreme(name: string, want: number, vals: Val[]): Val {
  if (vals.length === 0) return err(`${name}(list) argument must not be empty`);
  let best = vals[0]!;
  for (const v of vals) {
    if (typeof v !== 'bigint' && typeof v !== 'number' && !(v instanceof Uint)) return new CelError(`no such overload: ${name}`);
  }
  for (let i = 1; i < vals.length; i++) {
    const c = compare(vals[i]!, best);
    if (c instanceof CelError) {
      if (typeof vals[i] === 'number' && Number.isNaN(vals[i])) best = vals[i]!;
      continue;
    }
    if (Math.sign(c) === want) best = vals[i]!;
  }
  return best;
}

/** math.greatest/least and @max/@min for 1..8 arguments (a single list argument is spread). */
function extremeOverloads(prefix: string, name: string, want: number): OverloadDecl[] {
  const out: OverloadDecl[] = [
    global(`${prefix}_list`, [listOf(DynType)], DynType, (l: Val[]) => extreme(name, want, l)),
  ];
  for (const t of [D, I, U]) out.push(global(`${prefix}_${t.kind}`, [t], t, (x: Val) => x));
  for (let n = 2; n <= 8; n++) {
    const params: Type[] = Array.from({ length: n }, () => DynType);
    out.push(global(`${prefix}_dyn${n}`, params, DynType, (...a: Val[]) => extreme(name, want, a)));
  }
  return out;
}

function round(d: number): number {
  // Go's math.Round: half away from zero.
  if (!Number.isFinite(d)) return d;
  const r = Math.round(Math.abs(d));
  return d < 0 || Object.is(d, -0) ? -r : r;
}

const MASK64 = (1n << 64n) - 1n;
const toSigned = (x: bigint) => BigInt.asIntN(64, x);

function shiftLeft(v: Val, n: bigint): Val {
  if (n < 0n) return err(`math.bitShiftLeft() negative offset: ${n}`);
  if (typeof v === 'bigint') return n > 63n ? 0n : toSigned(v << n);
  return new Uint(n > 63n ? 0n : ((v as Uint).v << n) & MASK64);
}

function shiftRight(v: Val, n: bigint): Val {
  if (n < 0n) return err(`math.bitShiftRight() negative offset: ${n}`);
  if (typeof v === 'bigint') return n > 63n ? 0n : toSigned(BigInt.asUintN(64, v) >> n);
  return new Uint(n > 63n ? 0n : (v as Uint).v >> n);
}

const bitOp = (name: string, f: (a: bigint, b: bigint) => bigint) =>
  fn(
    `math.${name}`,
    global(`math_${name}_int_int`, [I, I], I, (a: bigint, b: bigint) => toSigned(f(a, b))),
    global(`math_${name}_uint_uint`, [U, U], U, (a: Uint, b: Uint) => new Uint(f(a.v, b.v) & MASK64)),
  );

const sqrt = (x: Val) => Math.sqrt(typeof x === 'number' ? x : Number(x instanceof Uint ? x.v : (x as bigint)));

export const mathLibrary: Library = {
  name: 'cel.lib.ext.math',
  macros: ['math.greatest', 'math.least'],
  functions: [
    fn('math.greatest', ...extremeOverloads('math_greatest', 'math.greatest', 1)),
    fn('math.least', ...extremeOverloads('math_least', 'math.least', -1)),
    fn('math.@max', ...extremeOverloads('math_@max', 'math.@max', 1)),
    fn('math.@min', ...extremeOverloads('math_@min', 'math.@min', -1)),
    fn('math.ceil', global('math_ceil_double', [D], D, Math.ceil)),
    fn('math.floor', global('math_floor_double', [D], D, Math.floor)),
    fn('math.round', global('math_round_double', [D], D, round)),
    fn('math.trunc', global('math_trunc_double', [D], D, Math.trunc)),
    fn('math.isInf', global('math_isInf_double', [D], BoolType, (d: number) => d === Infinity || d === -Infinity)),
    fn('math.isNaN', global('math_isNaN_double', [D], BoolType, Number.isNaN)),
    fn('math.isFinite', global('math_isFinite_double', [D], BoolType, Number.isFinite)),
    fn(
      'math.abs',
      global('math_abs_double', [D], D, Math.abs),
      global('math_abs_int', [I], I, (x: bigint) => (x === INT_MIN ? errOverflow() : x < 0n ? -x : x)),
      global('math_abs_uint', [U], U, (x: Uint) => x),
    ),
    fn(
      'math.sign',
      global('math_sign_double', [D], D, (d: number) => (Number.isNaN(d) ? d : d > 0 ? 1 : d < 0 ? -1 : 0)),
      global('math_sign_int', [I], I, (x: bigint) => (x > 0n ? 1n : x < 0n ? -1n : 0n)),
      global('math_sign_uint', [U], U, (x: Uint) => new Uint(x.v > 0n ? 1n : 0n)),
    ),
    fn(
      'math.sqrt',
      global('math_sqrt_double', [D], D, sqrt),
      global('math_sqrt_int', [I], D, sqrt),
      global('math_sqrt_uint', [U], D, sqrt),
    ),
    bitOp('bitAnd', (a, b) => a & b),
    bitOp('bitOr', (a, b) => a | b),
    bitOp('bitXor', (a, b) => a ^ b),
    fn(
      'math.bitNot',
      global('math_bitNot_int_int', [I], I, (a: bigint) => ~a),
      global('math_bitNot_uint_uint', [U], U, (a: Uint) => new Uint(~a.v & MASK64)),
    ),
    fn(
      'math.bitShiftLeft',
      global('math_bitShiftLeft_int_int', [I, I], I, shiftLeft),
      global('math_bitShiftLeft_uint_int', [U, I], U, shiftLeft),
    ),
    fn(
      'math.bitShiftRight',
      global('math_bitShiftRight_int_int', [I, I], I, shiftRight),
      global('math_bitShiftRight_uint_int', [U, I], U, shiftRight),
    ),
  ],
};
