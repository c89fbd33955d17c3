/**
 * Regular-expression functions beyond the standard `matches` (Kubernetes' regex library):
 * `s.find(re)` (the first match, or ''), `s.findAll(re)` and `s.findAll(re, n)`. Patterns are
 * RE2 (lib/re2.ts), so matching is linear in the input.
 */
import { IntType, StringType, listOf } from '../check/types.ts';
import { actualSize } from '../eval/planner.ts';
import { CelError, type Val } from '../eval/values.ts';
import type { Library } from './decls.ts';
import { fn, member } from './define.ts';
import { RegexSyntaxError, compileRegex, type CompiledRegex } from './re2.ts';

function withRegex(pattern: string, f: (re: CompiledRegex) => Val): Val {
  let re: CompiledRegex;
  try {
    re = compileRegex(pattern);
  } catch (e) {
    if (e instanceof RegexSyntaxError) return new CelError(e.message);
    throw e;
  }
  return f(re);
}

const S = StringType;
/** Kubernetes' regex cost: string length x regex length, as matches. */
const regexCost = (...a: Val[]) => Math.ceil((1 + actualSize(a[0]!)) * 0.1) * Math.ceil(actualSize(a[1]!) * 0.25);

export const regexLibrary: Library = {
  name: 'kubernetes.regex',
  functions: [
    fn('find', member('string_find_string', [S, S], S, (s: string, p: string) => withRegex(p, (re) => re.find(s)?.match ?? ''), { cost: regexCost })),
    fn(
      'findAll',
      member('string_find_all_string', [S, S], listOf(S), (s: string, p: string) => withRegex(p, (re) => re.findAll(s, -1)), { cost: regexCost }),
      member('string_find_all_string_int', [S, S, IntType], listOf(S), (s: string, p: string, n: bigint) => withRegex(p, (re) => re.findAll(s, Number(n))), {
        cost: regexCost,
      }),
    ),
  ],
};
