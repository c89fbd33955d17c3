/**
 * Validators run on a checked expression (cel-go's `cel/validator.go` ASTValidators), the ones
 * Kubernetes installs: homogeneous aggregate literals (no mixed-type list or map literals),
 * duration / timestamp literal arguments, regex literal patterns; plus the comprehension nesting
 * limit. They report into the same Issues as the checker, with cel-go's messages.
 */
import type { Constant, Expr } from '../syntax/ast.ts';
import type { Issues } from '../common/issues.ts';
import { compileRegex } from '../lib/re2.ts';
import type { CheckedExpr } from './checker.ts';
import { formatType, isEquivalentType, typeName, typeParams, type Type } from './types.ts';

export interface ValidatorOptions {
  /** Reject mixed element, key or value types in literals (cel.HomogeneousAggregateLiterals). */
  homogeneousAggregateLiterals?: boolean;
  /** Functions inside whose calls literals may be mixed (e.g. `format`). */
  homogeneousExemptFunctions?: string[];
  /**
   * Whether a literal argument of `duration(...)` is valid; supplied by the runtime, which owns
   * the conversion (cel.ValidateDurationLiterals evaluates the call).
   */
  durationLiteral?: (arg: Constant) => boolean;
  /** As durationLiteral, for `timestamp(...)` (cel.ValidateTimestampLiterals). */
  timestampLiteral?: (arg: Constant) => boolean;
  /** Compile literal `matches` patterns (cel.ValidateRegexLiterals). */
  regexLiterals?: boolean;
  /** Maximum nesting of comprehensions with a non-empty range (cel.ValidateComprehensionNestingLimit). */
  comprehensionNestingLimit?: number;
  /**
   * Check `'<constant>'.format([<list literal>])` calls against the argument types, as ext.Strings
   * versions 1 to 3 do (cel-go ext/formatting.go stringFormatValidator): clause syntax, clause and
   * argument type agreement, argument count.
   */
  stringFormatArgs?: boolean;
}

/** The validators Kubernetes installs (k8s.io/apiserver/pkg/cel/environment base.go, 1.29+). */
export function kubernetesValidators(literals: {
  durationLiteral: (arg: Constant) => boolean;
  timestampLiteral: (arg: Constant) => boolean;
}): ValidatorOptions {
  return { homogeneousAggregateLiterals: true, regexLiterals: true, ...literals };
}

/**
 * Runs the selected validators over a checked expression and reports problems into `issues`
 * (create it from the checked expression's source, or reuse the checker's).
 */
export function validateChecked(checked: CheckedExpr, issues: Issues, opts: ValidatorOptions): void {
  const at = (id: number, message: string): void => {
    issues.report(checked.sourceInfo.positions.get(id) ?? -1, message, id);
  };
  const typeOf = (e: Expr): Type => checked.typeMap.get(e.id) ?? { kind: 'dyn' };

  // cel-go runs each validator over the whole tree in turn.
  if (opts.durationLiteral) literalCalls(checked.expr, 'duration', opts.durationLiteral, at);
  if (opts.timestampLiteral) literalCalls(checked.expr, 'timestamp', opts.timestampLiteral, at);
  if (opts.regexLiterals) {
    literalCalls(
      checked.expr,
      'matches',
      (c) => {
        if (c.kind !== 'string') return true;
        try {
          compileRegex(c.value);
          return true;
        } catch {
          return false;
        }
      },
      at,
    );
  }
  if (opts.homogeneousAggregateLiterals) {
    homogeneousLiterals(checked.expr, new Set(opts.homogeneousExemptFunctions ?? []), typeOf, at);
  }
  if (opts.comprehensionNestingLimit !== undefined) {
    nestingLimit(checked.expr, opts.comprehensionNestingLimit, at);
  }
  if (opts.stringFormatArgs) formatCalls(checked, typeOf, at);
}

/** What each format clause accepts (cel-go's stringFormatChecker), and its error message. */
const FORMAT_CLAUSES: Record<string, { kinds: string[]; message: string }> = {
  d: { kinds: ['int', 'uint'], message: 'decimal clause can only be used on integers' },
  f: { kinds: ['double', 'string'], message: 'fixed-point clause can only be used on doubles' },
  e: { kinds: ['double', 'string'], message: 'scientific clause can only be used on doubles' },
  b: { kinds: ['int', 'uint', 'bool'], message: 'only integers and bools can be formatted as binary' },
  x: { kinds: ['int', 'uint', 'string', 'bytes'], message: 'only integers, byte buffers, and strings can be formatted as hex' },
  X: { kinds: ['int', 'uint', 'string', 'bytes'], message: 'only integers, byte buffers, and strings can be formatted as hex' },
  o: { kinds: ['int', 'uint'], message: 'octal clause can only be used on integers' },
};
const STRING_CLAUSE_KINDS = ['list', 'map', 'int', 'uint', 'double', 'bool', 'string', 'timestamp', 'bytes', 'duration', 'type', 'null_type'];
const STRING_CLAUSE_MESSAGE =
  'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps';

function formatCalls(checked: CheckedExpr, typeOf: (e: Expr) => Type, at: (id: number, m: string) => void): void {
  const oneOf = (e: Expr, kinds: string[]): boolean => {
    const t = typeOf(e);
    return t.kind === 'dyn' || kinds.includes(t.kind);
  };
  // %s: the argument, and recursively the elements, keys and values of list and map literals.
  const badString = (e: Expr): Expr | undefined => {
    if (!oneOf(e, STRING_CLAUSE_KINDS)) return e;
    if (e.kind === 'list') {
      for (const x of e.elements) {
        const bad = badString(x);
        if (bad) return bad;
      }
    }
    if (e.kind === 'map') {
      for (const en of e.entries) {
        const bad = badString(en.key) ?? badString(en.value);
        if (bad) return bad;
      }
    }
    return undefined;
  };
  walk(checked.expr, [], (e) => {
    if (e.kind !== 'call' || e.fn !== 'format' || !e.target || e.args.length !== 1) return;
    const ids = checked.referenceMap.get(e.id)?.overloadIds ?? [];
    if (ids.length && !ids.includes('string_format')) return;
    if (e.target.kind !== 'const' || e.target.value.kind !== 'string' || e.args[0]!.kind !== 'list') return;
    const f = e.target.value.value;
    const args = e.args[0]!.elements;
    let argIndex = 0;
    let requested = 0;
    for (let i = 0; i < f.length; ) {
      if (f[i] !== '%') {
        i++;
        continue;
      }
      if (f[i + 1] === '%') {
        i += 2;
        continue;
      }
      requested++;
      if (i + 1 >= f.length) return at(e.id, 'unexpected end of string');
      if (argIndex >= args.length) return at(e.id, `index ${argIndex} out of range`);
      let j = i + 1;
      if (f[j] === '.') {
        j++;
        while (j < f.length && f[j]! >= '0' && f[j]! <= '9') j++;
        if (j >= f.length) {
          return at(e.id, 'could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
        }
      }
      const verb = f[j]!;
      const arg = args[argIndex]!;
      if (verb === 's') {
        const bad = badString(arg);
        if (bad) return at(bad.id, `error during formatting: ${STRING_CLAUSE_MESSAGE}, was given ${typeName(typeOf(bad))}`);
      } else {
        const clause = FORMAT_CLAUSES[verb];
        if (!clause) return at(e.id, `could not parse formatting clause: unrecognized formatting clause "${verb}"`);
        if (!oneOf(arg, clause.kinds)) return at(arg.id, `error during formatting: ${clause.message}, was given ${typeName(typeOf(arg))}`);
      }
      i = j + 1;
      argIndex++;
    }
    if (args.length > requested) at(e.id, `too many arguments supplied to string.format (expected ${requested}, got ${args.length})`);
  });
}

/** Calls of `fn` whose first argument is a literal the check rejects: `invalid <fn> argument`. */
function literalCalls(
  root: Expr,
  fn: string,
  valid: (arg: Constant) => boolean,
  at: (id: number, m: string) => void,
): void {
  walk(root, [], (e) => {
    if (e.kind !== 'call' || e.fn !== fn || e.args.length === 0) return;
    const arg = e.args[0]!;
    if (arg.kind === 'const' && !valid(arg.value)) at(arg.id, `invalid ${fn} argument`);
  });
}

function homogeneousLiterals(
  root: Expr,
  exempt: Set<string>,
  typeOf: (e: Expr) => Type,
  at: (id: number, m: string) => void,
): void {
  const mismatch = (id: number, expected: Type, actual: Type): void =>
    at(id, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
  const inExempt = (parents: Expr[]): boolean =>
    exempt.size > 0 && parents.some((p) => p.kind === 'call' && exempt.has(p.fn));
  // cel-go visits all list literals first, then all map literals.
  walk(root, [], (e, parents) => {
    if (e.kind !== 'list' || inExempt(parents)) return;
    const optional = new Set(e.optionalIndices);
    let elemType: Type | undefined;
    for (let i = 0; i < e.elements.length; i++) {
      const el = e.elements[i]!;
      let et = typeOf(el);
      if (optional.has(i)) et = typeParams(et)[0] ?? et;
      if (!elemType) {
        elemType = et;
        continue;
      }
      if (!isEquivalentType(elemType, et)) {
        mismatch(el.id, elemType, et);
        break;
      }
    }
  });
  walk(root, [], (e, parents) => {
    if (e.kind !== 'map' || inExempt(parents)) return;
    let keyType: Type | undefined;
    let valType: Type | undefined;
    for (const entry of e.entries) {
      const kt = typeOf(entry.key);
      let vt = typeOf(entry.value);
      if (entry.optional) vt = typeParams(vt)[0] ?? vt;
      if (!keyType || !valType) {
        keyType = kt;
        valType = vt;
        continue;
      }
      if (!isEquivalentType(keyType, kt)) mismatch(entry.key.id, keyType, kt);
      if (!isEquivalentType(valType, vt)) mismatch(entry.value.id, valType, vt);
    }
  });
}

/**
 * Every comprehension with more than `limit` comprehensions around and including it is reported;
 * those with an empty literal range (cel.bind) do not count.
 */
function nestingLimit(root: Expr, limit: number, at: (id: number, m: string) => void): void {
  const comps: [Expr, Expr[]][] = [];
  walk(root, [], (e, parents) => {
    if (e.kind === 'comprehension') comps.push([e, parents]);
  });
  if (comps.length <= limit) return;
  for (const [comp, parents] of comps) {
    let count = 0;
    for (const e of [comp, ...[...parents].reverse()]) {
      if (e.kind !== 'comprehension') continue;
      if (e.iterRange.kind === 'list' && e.iterRange.elements.length === 0) continue;
      if (++count > limit) {
        at(comp.id, 'comprehension exceeds nesting limit');
        break;
      }
    }
  }
}

/** Post-order walk (cel-go's MatchDescendants order), passing each node's ancestors. */
function walk(e: Expr, parents: Expr[], f: (e: Expr, parents: Expr[]) => void): void {
  const next = [...parents, e];
  for (const c of children(e)) walk(c, next, f);
  f(e, parents);
}

function children(e: Expr): Expr[] {
  switch (e.kind) {
    case 'select':
      return [e.operand];
    case 'call':
      return e.target ? [e.target, ...e.args] : e.args;
    case 'list':
      return e.elements;
    case 'map':
      return e.entries.flatMap((en) => [en.key, en.value]);
    case 'struct':
      return e.fields.map((f) => f.value);
    case 'comprehension':
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result];
    default:
      return [];
  }
}
