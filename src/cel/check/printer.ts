/**
 * Prints a checked expression as cel-go's `checker.Print` does (the debug form of the tree, each
 * node adorned with `~type` and `^reference`), e.g. `_+_(1~int, 2~int)~int^add_int64`. Used to
 * compare the checker against cel-go's own tables, which ignore whitespace.
 */
import { toDebugString } from '../syntax/debug.ts';
import type { CheckedExpr } from './checker.ts';
import { formatType } from './types.ts';

/**
 * The adorned debug string of a checked expression (cel-go's checker.Print): the parser's debug
 * printer with cel-go's semantic adorner (map and struct entries carry no adornment).
 */
export function printChecked(checked: CheckedExpr): string {
  return toDebugString(checked.expr, (node, isEntry) => (isEntry ? '' : adornment(checked, node.id)));
}

function adornment(checked: CheckedExpr, id: number): string {
  let result = '';
  const t = checked.typeMap.get(id);
  if (t) result += '~' + formatType(t);
  const ref = checked.referenceMap.get(id);
  if (ref) {
    if (ref.overloadIds.length === 0) result += '^' + (ref.name ?? '');
    else result += '^' + [...ref.overloadIds].sort().join('|');
  }
  return result;
}
