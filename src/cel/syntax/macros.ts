/**
 * CEL macros: the parser-time rewrites of has(), all(), exists(), exists_one()/existsOne(), map(),
 * filter(), cel.bind(), the two-variable comprehensions of cel-go's ext/comprehensions.go, the
 * optional library's optMap/optFlatMap, ext.Lists' sortBy, ext.Math's math.greatest/least and
 * ext.Protos' proto.getExt/hasExt, expanded exactly as cel-go builds them (parser/macro.go and the
 * ext libraries), node for node and id for id, so that ids, positions and error messages line up
 * with cel-go.
 */
import type { Constant, Expr } from './ast.ts';

/** cel-go's AccumulatorName (used when hidden accumulator names are disabled). */
export const ACCUMULATOR_NAME = '__result__';
/** cel-go's HiddenAccumulatorName, the default. */
export const HIDDEN_ACCUMULATOR_NAME = '@result';

/** An expansion failure: message reported at the node `exprId` (its source position). */
export interface MacroError {
  error: string;
  exprId: number;
}

/**
 * Builds new nodes for an expansion. Every constructor takes the next id, positioned at the macro
 * call (cel-go's exprHelper), so argument expressions keep their own ids and positions.
 */
export interface MacroHelper {
  readonly accuName: string;
  ident(name: string): Expr;
  accuIdent(): Expr;
  literal(value: Constant): Expr;
  list(...elements: Expr[]): Expr;
  map(): Expr;
  call(fn: string, ...args: Expr[]): Expr;
  memberCall(fn: string, target: Expr, ...args: Expr[]): Expr;
  /** A deep copy with fresh ids, each positioned where the original node was (cel-go's Copy). */
  copy(e: Expr): Expr;
  presenceTest(operand: Expr, field: string): Expr;
  /** A field selection `operand.field` (cel-go's NewSelect). */
  select(operand: Expr, field: string): Expr;
  comprehension(
    iterRange: Expr, iterVar: string, iterVar2: string, accuVar: string, accuInit: Expr,
    loopCondition: Expr, loopStep: Expr, result: Expr,
  ): Expr;
  error(exprId: number, message: string): MacroError;
}

/**
 * Expands a call; returns undefined when the call is not this macro after all (it then stays a
 * call), or a MacroError.
 */
export type MacroExpander = (h: MacroHelper, target: Expr | undefined, args: Expr[]) => Expr | MacroError | undefined;

export interface Macro {
  name: string;
  /** Argument count, or '*' for any. */
  argCount: number | '*';
  receiver: boolean;
  expand: MacroExpander;
}

/** The lookup key cel-go uses (`name:argc:receiver`). */
export function macroKey(name: string, argCount: number | '*', receiver: boolean): string {
  return `${name}:${argCount}:${receiver}`;
}

const TRUE: Constant = { kind: 'bool', value: true };
const FALSE: Constant = { kind: 'bool', value: false };
const ZERO: Constant = { kind: 'int', value: 0n };
const ONE: Constant = { kind: 'int', value: 1n };

function identName(e: Expr): string | undefined {
  return e.kind === 'ident' ? e.name : undefined;
}

function isAccu(h: MacroHelper, v: string): boolean {
  return v === h.accuName || v === ACCUMULATOR_NAME;
}

type Quantifier = 'all' | 'exists' | 'exists_one';

/** cel-go's makeQuantifier steps, shared by the one- and two-variable forms. */
function quantifierParts(h: MacroHelper, kind: Quantifier, pred: Expr): [Expr, Expr, Expr, Expr] {
  switch (kind) {
    case 'all': {
      const init = h.literal(TRUE);
      const cond = h.call('@not_strictly_false', h.accuIdent());
      const step = h.call('_&&_', h.accuIdent(), pred);
      return [init, cond, step, h.accuIdent()];
    }
    case 'exists': {
      const init = h.literal(FALSE);
      const cond = h.call('@not_strictly_false', h.call('!_', h.accuIdent()));
      const step = h.call('_||_', h.accuIdent(), pred);
      return [init, cond, step, h.accuIdent()];
    }
    case 'exists_one': {
      const init = h.literal(ZERO);
      const cond = h.literal(TRUE);
      const step = h.call('_?_:_', pred, h.call('_+_', h.accuIdent(), h.literal(ONE)), h.accuIdent());
      const result = h.call('_==_', h.accuIdent(), h.literal(ONE));
      return [init, cond, step, result];
    }
  }
}

function quantifier(kind: Quantifier): MacroExpander {
  return (h, target, args) => {
    const v = identName(args[0]!);
    if (v === undefined) return h.error(args[0]!.id, 'argument must be a simple name');
    if (isAccu(h, v)) return h.error(args[0]!.id, 'iteration variable overwrites accumulator variable');
    const [init, cond, step, result] = quantifierParts(h, kind, args[1]!);
    return h.comprehension(target!, v, '', h.accuName, init, cond, step, result);
  };
}

const makeMap: MacroExpander = (h, target, args) => {
  const v = identName(args[0]!);
  if (v === undefined) return h.error(args[0]!.id, 'argument is not an identifier');
  if (isAccu(h, v)) return h.error(args[0]!.id, 'iteration variable overwrites accumulator variable');
  const filter = args.length === 3 ? args[1] : undefined;
  const fn = args.length === 3 ? args[2]! : args[1]!;
  const init = h.list();
  const cond = h.literal(TRUE);
  let step = h.call('_+_', h.accuIdent(), h.list(fn));
  if (filter) step = h.call('_?_:_', filter, step, h.accuIdent());
  return h.comprehension(target!, v, '', h.accuName, init, cond, step, h.accuIdent());
};

const makeFilter: MacroExpander = (h, target, args) => {
  const v = identName(args[0]!);
  if (v === undefined) return h.error(args[0]!.id, 'argument is not an identifier');
  if (isAccu(h, v)) return h.error(args[0]!.id, 'iteration variable overwrites accumulator variable');
  const init = h.list();
  const cond = h.literal(TRUE);
  let step = h.call('_+_', h.accuIdent(), h.list(args[0]!));
  step = h.call('_?_:_', args[1]!, step, h.accuIdent());
  return h.comprehension(target!, v, '', h.accuName, init, cond, step, h.accuIdent());
};

const makeHas: MacroExpander = (h, _target, args) => {
  const a = args[0]!;
  if (a.kind === 'select') return h.presenceTest(a.operand, a.field);
  return h.error(a.id, 'invalid argument to has() macro');
};

/** The standard macros (cel-go's parser.AllMacros). */
export const STANDARD_MACROS: readonly Macro[] = [
  { name: 'has', argCount: 1, receiver: false, expand: makeHas },
  { name: 'all', argCount: 2, receiver: true, expand: quantifier('all') },
  { name: 'exists', argCount: 2, receiver: true, expand: quantifier('exists') },
  { name: 'exists_one', argCount: 2, receiver: true, expand: quantifier('exists_one') },
  { name: 'existsOne', argCount: 2, receiver: true, expand: quantifier('exists_one') },
  { name: 'map', argCount: 2, receiver: true, expand: makeMap },
  { name: 'map', argCount: 3, receiver: true, expand: makeMap },
  { name: 'filter', argCount: 2, receiver: true, expand: makeFilter },
];

/** `cel.bind(var, init, result)` (cel-go ext.Bindings): a comprehension over an empty list. */
export const BIND_MACRO: Macro = {
  name: 'bind',
  argCount: 3,
  receiver: true,
  expand: (h, target, args) => {
    if (!target || target.kind !== 'ident' || target.name !== 'cel') return undefined;
    const name = identName(args[0]!);
    if (name === undefined) return h.error(args[0]!.id, 'cel.bind() variable names must be simple identifiers');
    return h.comprehension(h.list(), '#unused', '', name, args[1]!, h.literal(FALSE), h.ident(name), args[2]!);
  },
};

function iterVars(h: MacroHelper, a0: Expr, a1: Expr): [string, string] | MacroError {
  const v1 = identName(a0);
  if (v1 === undefined) return h.error(a0.id, 'argument must be a simple name');
  const v2 = identName(a1);
  if (v2 === undefined) return h.error(a1.id, 'argument must be a simple name');
  if (v1 === v2) return h.error(a1.id, `duplicate variable name: ${v1}`);
  if (isAccu(h, v1)) return h.error(a0.id, 'iteration variable overwrites accumulator variable');
  if (isAccu(h, v2)) return h.error(a1.id, 'iteration variable overwrites accumulator variable');
  return [v1, v2];
}

function quantifier2(kind: Quantifier): MacroExpander {
  return (h, target, args) => {
    const vars = iterVars(h, args[0]!, args[1]!);
    if (!Array.isArray(vars)) return vars;
    const [init, cond, step, result] = quantifierParts(h, kind, args[2]!);
    return h.comprehension(target!, vars[0], vars[1], h.accuName, init, cond, step, result);
  };
}

type Transform = 'list' | 'map' | 'entry';

function transform(kind: Transform): MacroExpander {
  return (h, target, args) => {
    const vars = iterVars(h, args[0]!, args[1]!);
    if (!Array.isArray(vars)) return vars;
    const filter = args.length === 4 ? args[2] : undefined;
    const fn = args.length === 4 ? args[3]! : args[2]!;
    let step: Expr;
    if (kind === 'list') step = h.call('_+_', h.accuIdent(), h.list(fn));
    else if (kind === 'map') step = h.call('cel.@mapInsert', h.accuIdent(), h.ident(vars[0]), fn);
    else step = h.call('cel.@mapInsert', h.accuIdent(), fn);
    if (filter) step = h.call('_?_:_', filter, step, h.accuIdent());
    const init = kind === 'list' ? h.list() : h.map();
    return h.comprehension(target!, vars[0], vars[1], h.accuName, init, h.literal(TRUE), step, h.accuIdent());
  };
}

/** The two-variable comprehension macros of cel-go's ext.TwoVarComprehensions. */
export const TWO_VAR_MACROS: readonly Macro[] = [
  { name: 'all', argCount: 3, receiver: true, expand: quantifier2('all') },
  { name: 'exists', argCount: 3, receiver: true, expand: quantifier2('exists') },
  { name: 'existsOne', argCount: 3, receiver: true, expand: quantifier2('exists_one') },
  { name: 'exists_one', argCount: 3, receiver: true, expand: quantifier2('exists_one') },
  { name: 'transformList', argCount: 3, receiver: true, expand: transform('list') },
  { name: 'transformList', argCount: 4, receiver: true, expand: transform('list') },
  { name: 'transformMap', argCount: 3, receiver: true, expand: transform('map') },
  { name: 'transformMap', argCount: 4, receiver: true, expand: transform('map') },
  { name: 'transformMapEntry', argCount: 3, receiver: true, expand: transform('entry') },
  { name: 'transformMapEntry', argCount: 4, receiver: true, expand: transform('entry') },
];

function optMapper(name: 'optMap' | 'optFlatMap'): MacroExpander {
  return (h, target, args) => {
    const v = identName(args[0]!);
    if (v === undefined) return h.error(args[0]!.id, `${name}() variable name must be a simple identifier`);
    const hasValue = h.memberCall('hasValue', target!);
    const init = h.list();
    const value = h.memberCall('value', h.copy(target!));
    const compre = h.comprehension(init, '#unused', '', v, value, h.literal(FALSE), h.ident(v), args[1]!);
    const present = name === 'optMap' ? h.call('optional.of', compre) : compre;
    return h.call('_?_:_', hasValue, present, h.call('optional.none'));
  };
}

/**
 * `opt.optMap(v, expr)` and `opt.optFlatMap(v, expr)` of cel-go's optional library
 * (cel.OptionalTypes): `opt.hasValue() ? optional.of(<bind v to opt.value()> expr) : optional.none()`.
 */
export const OPTIONAL_MACROS: readonly Macro[] = [
  { name: 'optMap', argCount: 2, receiver: true, expand: optMapper('optMap') },
  { name: 'optFlatMap', argCount: 2, receiver: true, expand: optMapper('optFlatMap') },
];

/** The name of the variable sortBy binds its input list to (unreachable from source text). */
export const SORT_BY_INPUT = '@__sortBy_input__';

/** Expression kinds sortBy accepts as its target (cel-go rejects literals, maps and messages). */
const SORT_BY_TARGETS = new Set<Expr['kind']>(['list', 'select', 'ident', 'comprehension', 'call']);

/**
 * `list.sortBy(e, key)` of cel-go's ext.Lists (version 2 and later), expanded as cel-go's
 * sortByMacro does:
 *
 *     cel.bind(@__sortBy_input__, list,
 *              @__sortBy_input__.@sortByAssociatedKeys(@__sortBy_input__.map(e, key)))
 *
 * so the list is evaluated once, the keys are computed by an ordinary map comprehension, and the
 * runtime function `@sortByAssociatedKeys` orders the list by its keys.
 */
const makeSortBy: MacroExpander = (h, target, args) => {
  const input = h.ident(SORT_BY_INPUT);
  // The parser's error placeholder stands for cel-go's unspecified expression, which is rejected.
  if (!SORT_BY_TARGETS.has(target!.kind) || isErrorPlaceholder(target!)) {
    return h.error(target!.id, 'sortBy can only be applied to a list, identifier, comprehension, call or select expression');
  }
  const keys = makeMap(h, h.copy(input), args);
  if (!keys || 'error' in keys) return keys;
  const sorted = h.memberCall('@sortByAssociatedKeys', h.copy(input), keys);
  return h.comprehension(h.list(), '#unused', '', SORT_BY_INPUT, target!, h.literal(FALSE), input, sorted);
};

/** The macros of cel-go's ext.Lists library (version 2 and later): sortBy. */
export const LISTS_MACROS: readonly Macro[] = [{ name: 'sortBy', argCount: 2, receiver: true, expand: makeSortBy }];

function isErrorPlaceholder(e: Expr): boolean {
  return e.kind === 'call' && e.fn === '<<error>>';
}

/** cel-go ext.Math's isNumericArgType: a literal must be a number; a list, map or message never is. */
function isNumericArg(e: Expr): boolean {
  switch (e.kind) {
    case 'const':
      return e.value.kind === 'int' || e.value.kind === 'uint' || e.value.kind === 'double';
    case 'list':
    case 'map':
    case 'struct':
      return false;
    default:
      return true;
  }
}

function isNumericListLiteral(e: Expr): boolean {
  return e.kind === 'list' && e.elements.length > 0 && e.elements.every(isNumericArg);
}

/**
 * `math.greatest(...)` / `math.least(...)` of cel-go's ext.Math: any number of arguments, checked
 * where they are literals, rewritten to `math.@max` / `math.@min` with one argument (a number or a
 * list), two arguments, or a list of three or more. A receiver other than `math` is left a call.
 */
function mathExtreme(name: 'greatest' | 'least'): MacroExpander {
  const fn = name === 'greatest' ? 'math.@max' : 'math.@min';
  const label = `math.${name}()`;
  return (h, target, args) => {
    if (!target || target.kind !== 'ident' || target.name !== 'math') return undefined;
    if (args.length === 0) return h.error(target.id, `${label} requires at least one argument`);
    if (args.length === 1) {
      if (isNumericListLiteral(args[0]!) || isNumericArg(args[0]!)) return h.call(fn, args[0]!);
      return h.error(args[0]!.id, `${label} invalid single argument value`);
    }
    for (const a of args) {
      if (!isNumericArg(a)) return h.error(a.id, `${label} simple literal arguments must be numeric`);
    }
    return args.length === 2 ? h.call(fn, ...args) : h.call(fn, h.list(...args));
  };
}

/** The macros of cel-go's ext.Math library: math.greatest and math.least. */
export const MATH_MACROS: readonly Macro[] = [
  { name: 'least', argCount: '*', receiver: true, expand: mathExtreme('least') },
  { name: 'greatest', argCount: '*', receiver: true, expand: mathExtreme('greatest') },
];

/** cel-go ext.Protos' validateIdentifier: a dotted name made of identifiers, or undefined. */
function dottedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind !== 'select' || e.testOnly) return undefined;
  const op = dottedName(e.operand);
  return op === undefined ? undefined : `${op}.${e.field}`;
}

function protoExt(kind: 'get' | 'has'): MacroExpander {
  return (h, target, args) => {
    if (!target || target.kind !== 'ident' || target.name !== 'proto') return undefined;
    // The extension must be a qualified name (a selection), never a lone identifier.
    const name = args[1]!.kind === 'select' ? dottedName(args[1]!) : undefined;
    if (name === undefined) return h.error(args[1]!.id, 'invalid extension field');
    return kind === 'get' ? h.select(args[0]!, name) : h.presenceTest(args[0]!, name);
  };
}

/**
 * `proto.getExt(msg, pkg.ext)` and `proto.hasExt(msg, pkg.ext)` of cel-go's ext.Protos: a selection
 * (or presence test) of the extension field by its fully qualified name.
 */
export const PROTOS_MACROS: readonly Macro[] = [
  { name: 'getExt', argCount: 2, receiver: true, expand: protoExt('get') },
  { name: 'hasExt', argCount: 2, receiver: true, expand: protoExt('has') },
];

/**
 * Every macro Kubernetes enables: the standard ones, cel.bind, the two-variable comprehensions and
 * the optional library's optMap/optFlatMap. ext.Lists', ext.Math's and ext.Protos' macros are
 * opt-in, as in cel-go: add LISTS_MACROS / MATH_MACROS / PROTOS_MACROS (or use macrosForLibraries)
 * where those libraries are installed.
 */
export const ALL_MACROS: readonly Macro[] = [...STANDARD_MACROS, BIND_MACRO, ...TWO_VAR_MACROS, ...OPTIONAL_MACROS];

/** The opt-in extension macros by the names libraries declare them under (`Library.macros`). */
const OPT_IN_MACROS: ReadonlyMap<string, readonly Macro[]> = new Map([
  ['sortBy', LISTS_MACROS],
  ['math.greatest', MATH_MACROS.filter((m) => m.name === 'greatest')],
  ['math.least', MATH_MACROS.filter((m) => m.name === 'least')],
  ['proto.getExt', PROTOS_MACROS.filter((m) => m.name === 'getExt')],
  ['proto.hasExt', PROTOS_MACROS.filter((m) => m.name === 'hasExt')],
]);

const macroSets = new Map<string, readonly Macro[]>();

/**
 * The parser's macro set for an environment: ALL_MACROS plus the opt-in extension macros named, as
 * `Library.macros` lists them (`sortBy` for ext.Lists, `math.greatest` and `math.least` for
 * ext.Math, `proto.getExt` and `proto.hasExt` for ext.Protos); other names add nothing (their macros are already in ALL_MACROS). The same names give
 * the same array, so the parser's per-array lookup table is built once.
 */
export function macrosForLibraries(names: Iterable<string>): readonly Macro[] {
  const wanted = [...new Set(names)].filter((n) => OPT_IN_MACROS.has(n)).sort();
  if (wanted.length === 0) return ALL_MACROS;
  const key = wanted.join('\0');
  let set = macroSets.get(key);
  if (!set) macroSets.set(key, (set = [...ALL_MACROS, ...wanted.flatMap((n) => OPT_IN_MACROS.get(n)!)]));
  return set;
}
