/**
 * The sets extension library (cel-go ext/sets.go): sets.contains(a, b) (every element of b is in
 * a), sets.equivalent(a, b) (same elements, ignoring order and duplicates), sets.intersects(a, b).
 * Element equality is CEL equality (numbers compare across int/uint/double).
 */
import { BoolType, listOf, typeParam } from '../check/types.ts';
import { type Val, equals } from '../eval/values.ts';
import type { Library } from './decls.ts';
import { fn, global } from './define.ts';

const LT = listOf(typeParam('T'));
const has = (l: Val[], x: Val) => l.some((e) => equals(e, x));
const contains = (a: Val[], b: Val[]) => b.every((x) => has(a, x));
/** cel-go's trackSetsCost: 1 + |a| * |b| * factor. */
const costFactor = (factor: number) => (...a: Val[]) => 1 + Math.floor((a[0] as Val[]).length * (a[1] as Val[]).length * factor);
const cost = costFactor(1);

export const setsLibrary: Library = {
  name: 'cel.lib.ext.sets',
  functions: [
    fn('sets.contains', global('list_sets_contains_list', [LT, LT], BoolType, contains, { typeParams: ['T'], cost })),
    fn('sets.equivalent', global('list_sets_equivalent_list', [LT, LT], BoolType, (a: Val[], b: Val[]) => contains(a, b) && contains(b, a), { typeParams: ['T'], cost: costFactor(2) })),
    fn('sets.intersects', global('list_sets_intersects_list', [LT, LT], BoolType, (a: Val[], b: Val[]) => a.some((x) => has(b, x)), { typeParams: ['T'], cost })),
  ],
};
