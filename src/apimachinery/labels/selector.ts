/**
 * Label selectors as k8s.io/apimachinery/pkg/labels implements them (Kubernetes 1.35): the
 * selector language (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`,
 * joined by `,`), parsed with the upstream lexer and parser so that errors read the same
 * (`unable to parse requirement: ...`); matching against a label map; and metav1.LabelSelector
 * (matchLabels / matchExpressions) conversion and validation.
 */
import { Path } from '../field/path.ts';
import { aggregateString, forbidden, invalid, notSupported, required, type FieldError } from '../field/errors.ts';
import { goQuote } from '../field/govalue.ts';
import { isQualifiedName, isValidLabelValue } from '../validation/names.ts';
import { validateLabelName, validateLabels } from '../validation/objectmeta.ts';

export type Operator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

const binaryOperators = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const validRequirementOperators = [...binaryOperators, 'exists', '!'];

/** One requirement: key, operator and values (sorted, as upstream keeps them for set operators). */
export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: readonly string[];
}

/** A parsed selector: requirements sorted by key. `nothing` matches no object at all. */
export interface Selector {
  readonly requirements: readonly Requirement[];
  readonly nothing?: boolean;
}

/** An error whose message is what Kubernetes returns (typically wrapped into a 400 BadRequest). */
export class SelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorParseError';
  }
}

/** Labels.Everything(): the empty selector. */
export function everything(): Selector {
  return { requirements: [] };
}

/** Labels.Nothing(): matches nothing (a nil metav1.LabelSelector). */
export function nothing(): Selector {
  return { requirements: [], nothing: true };
}

function validateLabelKey(k: string, path: Path): FieldError | undefined {
  const errs = isQualifiedName(k);
  return errs.length > 0 ? invalid(path, k, errs.join('; ')) : undefined;
}

function validateLabelValue(k: string, v: string, path: Path): FieldError | undefined {
  const errs = isValidLabelValue(v);
  return errs.length > 0 ? invalid(path.key(k), v, errs.join('; ')) : undefined;
}

const int64Re = /^[+-]?\d+$/;
function isInt64(s: string): boolean {
  if (!int64Re.test(s)) return false;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

/**
 * NewRequirement: validates key, operator and values; throws SelectorParseError with the
 * aggregated field errors (the path defaults to the nil path, printed `<nil>`).
 */
export function newRequirement(key: string, op: Operator, vals: readonly string[], path: Path = Path.root()): Requirement {
  const errs: FieldError[] = [];
  const ke = validateLabelKey(key, path.child('key'));
  if (ke) errs.push(ke);
  const valuePath = path.child('values');
  switch (op) {
    case 'in':
    case 'notin':
      if (vals.length === 0) errs.push(invalid(valuePath, [...vals], "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) errs.push(invalid(valuePath, [...vals], 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) errs.push(invalid(valuePath, [...vals], 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) errs.push(invalid(valuePath, [...vals], "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (!isInt64(v)) errs.push(invalid(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(notSupported(path.child('operator'), op, validRequirementOperators));
  }
  vals.forEach((v, i) => {
    const e = validateLabelValue(key, v, valuePath.index(i));
    if (e) errs.push(e);
  });
  if (errs.length > 0) throw new SelectorParseError(aggregateString(errs));
  return { key, operator: op, values: [...vals] };
}

/** Requirement.Matches */
export function requirementMatches(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const val = has ? labels[r.key]! : '';
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(val);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(val);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !isInt64(val) || r.values.length !== 1 || !isInt64(r.values[0]!)) return false;
      const a = BigInt(val);
      const b = BigInt(r.values[0]!);
      return r.operator === 'gt' ? a > b : a < b;
    }
  }
}

/** Selector.Matches: every requirement holds; Nothing matches nothing. */
export function matches(s: Selector, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (s.nothing) return false;
  const l = labels ?? {};
  return s.requirements.every((r) => requirementMatches(r, l));
}

/** Selector.Empty */
export function isEmpty(s: Selector): boolean {
  return !s.nothing && s.requirements.length === 0;
}

/** Requirement.String */
export function requirementString(r: Requirement): string {
  let s = r.operator === '!' ? '!' + r.key : r.key;
  switch (r.operator) {
    case 'exists':
    case '!':
      return s;
    case 'in':
      s += ' in ';
      break;
    case 'notin':
      s += ' notin ';
      break;
    case 'gt':
      s += '>';
      break;
    case 'lt':
      s += '<';
      break;
    default:
      s += r.operator;
  }
  const vals = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${s}(${vals})` : s + vals;
}

/** Selector.String: requirements joined by ','. */
export function selectorString(s: Selector): string {
  return s.requirements.map(requirementString).join(',');
}

/**
 * RequiresExactMatch: the value a selector pins a label to (`=`, `==`, or `in` with one value),
 * used to narrow list scans.
 */
export function requiresExactMatch(s: Selector, label: string): string | undefined {
  const r = s.requirements.find((x) => x.key === label);
  if (r === undefined) return undefined;
  if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
  return undefined;
}

function sortByKey(reqs: Requirement[]): Requirement[] {
  // Array.prototype.sort is stable; upstream's sort.Sort is not, but only order among equal keys differs.
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

// ---- lexer and parser, token for token as upstream ----

const enum Tok {
  Error = 0,
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const string2token: Record<string, Tok> = {
  ')': Tok.ClosedPar,
  ',': Tok.Comma,
  '!': Tok.DoesNotExist,
  '==': Tok.DoubleEquals,
  '=': Tok.Equals,
  '>': Tok.GreaterThan,
  in: Tok.In,
  '<': Tok.LessThan,
  '!=': Tok.NotEquals,
  notin: Tok.NotIn,
  '(': Tok.OpenPar,
};

const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string) =>
  ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';

interface Item {
  tok: Tok;
  lit: string;
}

function lex(s: string): Item[] {
  let pos = 0;
  // A NUL ends the input, as the upstream lexer's read() returns 0 at the end.
  const read = (): string => {
    if (pos < s.length) return s[pos++]!;
    pos++;
    return '\0';
  };
  const unread = () => {
    pos--;
  };
  const items: Item[] = [];
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    let item: Item;
    if (ch === '\0') {
      item = { tok: Tok.EndOfString, lit: '' };
    } else if (isSpecialSymbol(ch)) {
      unread();
      let buffer = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (isSpecialSymbol(c)) {
          buffer += c;
          const t = string2token[buffer];
          if (t !== undefined) last = { tok: t, lit: buffer };
          else if (last !== undefined) {
            unread();
            break;
          }
        } else {
          unread();
          break;
        }
      }
      item = last ?? { tok: Tok.Error, lit: `error expected: keyword found '${buffer}'` };
    } else {
      unread();
      let buffer = '';
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (isSpecialSymbol(c) || isWhitespace(c)) {
          unread();
          break;
        }
        buffer += c;
      }
      const t = string2token[buffer];
      item = { tok: t ?? Tok.Identifier, lit: buffer };
    }
    items.push(item);
    if (item.tok === Tok.EndOfString) return items;
  }
}

class Parser {
  private position = 0;
  constructor(
    private readonly items: Item[],
    private readonly path: Path,
  ) {}

  private static ctx(it: Item, values: boolean): Item {
    if (values && (it.tok === Tok.In || it.tok === Tok.NotIn)) return { tok: Tok.Identifier, lit: it.lit };
    return it;
  }

  lookahead(values = true): Item {
    return Parser.ctx(this.items[this.position]!, values);
  }

  consume(values = true): Item {
    return Parser.ctx(this.items[this.position++]!, values);
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead();
      switch (tok) {
        case Tok.Identifier:
        case Tok.DoesNotExist: {
          let r: Requirement;
          try {
            r = this.parseRequirement();
          } catch (e) {
            if (e instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
            throw e;
          }
          reqs.push(r);
          const t = this.consume();
          if (t.tok === Tok.EndOfString) return reqs;
          if (t.tok === Tok.Comma) {
            const t2 = this.lookahead();
            if (t2.tok !== Tok.Identifier && t2.tok !== Tok.DoesNotExist) {
              throw new SelectorParseError(`found '${t2.lit}', expected: identifier after ','`);
            }
          } else {
            throw new SelectorParseError(`found '${t.lit}', expected: ',' or 'end of string'`);
          }
          break;
        }
        case Tok.EndOfString:
          return reqs;
        default:
          throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const [key, inferred] = this.parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newRequirement(key, inferred, [], this.path);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort(), this.path);
  }

  private parseKeyAndInferOperator(): [string, Operator | undefined] {
    let op: Operator | undefined;
    let t = this.consume();
    if (t.tok === Tok.DoesNotExist) {
      op = '!';
      t = this.consume();
    }
    if (t.tok !== Tok.Identifier) throw new SelectorParseError(`found '${t.lit}', expected: identifier`);
    const ke = validateLabelKey(t.lit, this.path);
    if (ke) throw new SelectorParseError(aggregateString([ke]));
    const next = this.lookahead().tok;
    if ((next === Tok.EndOfString || next === Tok.Comma) && op !== '!') op = 'exists';
    return [t.lit, op];
  }

  private parseOperator(): Operator {
    const t = this.consume(false);
    switch (t.tok) {
      case Tok.In:
        return 'in';
      case Tok.Equals:
        return '=';
      case Tok.DoubleEquals:
        return '==';
      case Tok.GreaterThan:
        return 'gt';
      case Tok.LessThan:
        return 'lt';
      case Tok.NotIn:
        return 'notin';
      case Tok.NotEquals:
        return '!=';
      default:
        throw new SelectorParseError(`found '${t.lit}', expected: ${binaryOperators.join(', ')}`);
    }
  }

  private parseValues(): Set<string> {
    let t = this.consume();
    if (t.tok !== Tok.OpenPar) throw new SelectorParseError(`found '${t.lit}' expected: '('`);
    t = this.lookahead();
    switch (t.tok) {
      case Tok.Identifier:
      case Tok.Comma: {
        const s = this.parseIdentifiersList();
        if (this.consume().tok !== Tok.ClosedPar) throw new SelectorParseError(`found '${t.lit}', expected: ')'`);
        return s;
      }
      case Tok.ClosedPar:
        this.consume();
        return new Set(['']);
      default:
        throw new SelectorParseError(`found '${t.lit}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const t = this.consume();
      switch (t.tok) {
        case Tok.Identifier: {
          s.add(t.lit);
          const t2 = this.lookahead();
          if (t2.tok === Tok.Comma) continue;
          if (t2.tok === Tok.ClosedPar) return s;
          throw new SelectorParseError(`found '${t2.lit}', expected: ',' or ')'`);
        }
        case Tok.Comma: {
          if (s.size === 0) s.add('');
          const t2 = this.lookahead();
          if (t2.tok === Tok.ClosedPar) {
            s.add('');
            return s;
          }
          if (t2.tok === Tok.Comma) s.add('');
          break;
        }
        default:
          throw new SelectorParseError(`found '${t.lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): Set<string> {
    const la = this.lookahead();
    if (la.tok === Tok.EndOfString || la.tok === Tok.Comma) return new Set(['']);
    const t = this.consume();
    if (t.tok === Tok.Identifier) return new Set([t.lit]);
    throw new SelectorParseError(`found '${t.lit}', expected: identifier`);
  }
}

/**
 * labels.Parse: parses a selector string; throws SelectorParseError with upstream's message.
 * `path` prefixes the field errors of invalid keys and values (nil by default, printed `<nil>`).
 */
export function parseSelector(selector: string, path: Path = Path.root()): Selector {
  const reqs = new Parser(lex(selector), path).parse();
  return { requirements: sortByKey(reqs) };
}

/** labels.SelectorFromSet: `k=v` for each entry (not validated). */
export function selectorFromSet(set: Readonly<Record<string, string>>): Selector {
  return {
    requirements: sortByKey(Object.entries(set).map(([key, v]) => ({ key, operator: '=' as const, values: [v] }))),
  };
}

// ---- metav1.LabelSelector ----

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/**
 * metav1.LabelSelectorAsSelector: null/undefined selects nothing, an empty selector everything.
 * Throws SelectorParseError with upstream's messages (`"Foo" is not a valid label selector
 * operator`, or the aggregated requirement errors).
 */
export function labelSelectorAsSelector(ps: LabelSelector | null | undefined): Selector {
  if (ps === null || ps === undefined) return nothing();
  const ml = ps.matchLabels ?? {};
  const me = ps.matchExpressions ?? [];
  if (Object.keys(ml).length + me.length === 0) return everything();
  const reqs: Requirement[] = [];
  for (const k of Object.keys(ml).sort()) reqs.push(newRequirement(k, '=', [ml[k]!]));
  for (const e of me) {
    const op = ({ In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' } as const)[e.operator as 'In'];
    if (op === undefined) throw new SelectorParseError(`${goQuote(e.operator)} is not a valid label selector operator`);
    reqs.push(newRequirement(e.key, op, [...(e.values ?? [])]));
  }
  return { requirements: sortByKey(reqs) };
}

export interface LabelSelectorValidationOptions {
  allowInvalidLabelValueInSelector?: boolean;
  allowUnknownOperatorInRequirement?: boolean;
}

/** metav1validation.ValidateLabelSelectorRequirement */
export function validateLabelSelectorRequirement(
  sr: LabelSelectorRequirement,
  opts: LabelSelectorValidationOptions,
  fldPath: Path,
): FieldError[] {
  const errs: FieldError[] = [];
  const values = sr.values ?? [];
  switch (sr.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) {
        errs.push(required(fldPath.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(forbidden(fldPath.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
      break;
    default:
      if (!opts.allowUnknownOperatorInRequirement) {
        errs.push(invalid(fldPath.child('operator'), sr.operator, 'not a valid selector operator'));
      }
  }
  errs.push(...validateLabelName(sr.key, fldPath.child('key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => {
      for (const m of isValidLabelValue(v)) errs.push(invalid(fldPath.child('values').index(i), v, m));
    });
  }
  return errs;
}

/** metav1validation.ValidateLabelSelector */
export function validateLabelSelector(
  ps: LabelSelector | null | undefined,
  opts: LabelSelectorValidationOptions,
  fldPath: Path,
): FieldError[] {
  if (ps === null || ps === undefined) return [];
  const errs = validateLabels(ps.matchLabels, fldPath.child('matchLabels'));
  (ps.matchExpressions ?? []).forEach((e, i) => {
    errs.push(...validateLabelSelectorRequirement(e, opts, fldPath.child('matchExpressions').index(i)));
  });
  return errs;
}
