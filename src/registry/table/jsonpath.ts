/**
 * The JSONPath dialect of k8s.io/client-go/util/jsonpath, as the CRD table convertor uses it for
 * additionalPrinterColumns: a template `{.spec.replicas}` evaluated against an object, with
 * fields (`.a`, `['a']`), indices and slices (`[0]`, `[-1]`, `[1:3]`), wildcards (`[*]`, `.*`),
 * recursive descent (`..name`) and filters (`[?(@.type=="Ready")]`, `[?(@.x)]`).
 * `allowMissingKeys` is on (as the convertor sets it): a missing key yields no result.
 * `printResult` formats one value as PrintResults does (strings bare, maps/arrays as JSON,
 * numbers and bools as Go's fmt prints them).
 */
import { goFloatString } from '../../apimachinery/index.ts';
import { canonicalJSON, stringifyJSON } from '../../apimachinery/index.ts';

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'recursive' }
  | { kind: 'wildcard' }
  | { kind: 'slice'; start?: number; end?: number; step?: number; single: boolean }
  | { kind: 'filter'; left: Operand; op: string; right?: Operand }
  | { kind: 'union'; names: string[] };

type Operand = { kind: 'path'; steps: Step[] } | { kind: 'literal'; value: unknown };

/** A compiled template: literal text and path expressions. */
export interface JSONPath {
  parts: Array<{ text: string } | { steps: Step[] }>;
}

class Parser {
  i = 0;
  constructor(readonly s: string) {}
  peek(off = 0): string {
    return this.s[this.i + off] ?? '';
  }
  eof(): boolean {
    return this.i >= this.s.length;
  }
  fail(msg: string): never {
    throw new Error(msg);
  }
}

function parseName(p: Parser): string {
  let name = '';
  while (!p.eof()) {
    const c = p.peek();
    if (c === '\\' && p.i + 1 < p.s.length) {
      name += p.s[p.i + 1];
      p.i += 2;
      continue;
    }
    if ('.[]}, ()=!<>'.includes(c) || c === '\t') break;
    name += c;
    p.i++;
  }
  return name;
}

function parseQuoted(p: Parser): string {
  const q = p.peek();
  p.i++;
  let out = '';
  while (!p.eof() && p.peek() !== q) {
    if (p.peek() === '\\') p.i++;
    out += p.peek();
    p.i++;
  }
  if (p.eof()) p.fail('unterminated string');
  p.i++;
  return out;
}

function parseLiteral(p: Parser): Operand {
  const c = p.peek();
  if (c === '"' || c === "'") return { kind: 'literal', value: parseQuoted(p) };
  const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(p.s.slice(p.i));
  if (!m) p.fail(`unrecognized filter operand at ${p.i}`);
  p.i += m[0].length;
  return { kind: 'literal', value: JSON.parse(m[0]) };
}

function skipWs(p: Parser): void {
  while (p.peek() === ' ' || p.peek() === '\t') p.i++;
}

function parseOperand(p: Parser): Operand {
  skipWs(p);
  if (p.peek() === '@' || p.peek() === '$') {
    p.i++;
    return { kind: 'path', steps: parseSteps(p, true) };
  }
  return parseLiteral(p);
}

function parseBracket(p: Parser): Step {
  // p.peek() === '['
  p.i++;
  skipWs(p);
  let step: Step;
  if (p.peek() === '?') {
    p.i++;
    if (p.peek() !== '(') p.fail('expected ( after ?');
    p.i++;
    const left = parseOperand(p);
    skipWs(p);
    const m = /^(==|!=|<=|>=|<|>)/.exec(p.s.slice(p.i));
    if (m) {
      p.i += m[0].length;
      const right = parseOperand(p);
      step = { kind: 'filter', left, op: m[0], right };
    } else {
      step = { kind: 'filter', left, op: 'exists' };
    }
    skipWs(p);
    if (p.peek() !== ')') p.fail('expected ) in filter');
    p.i++;
  } else if (p.peek() === '*') {
    p.i++;
    step = { kind: 'wildcard' };
  } else if (p.peek() === "'" || p.peek() === '"') {
    const names = [parseQuoted(p)];
    skipWs(p);
    while (p.peek() === ',') {
      p.i++;
      skipWs(p);
      names.push(parseQuoted(p));
      skipWs(p);
    }
    step = names.length === 1 ? { kind: 'field', name: names[0]! } : { kind: 'union', names };
  } else {
    const m = /^\s*(-?\d+)?\s*(:\s*(-?\d+)?\s*(:\s*(-?\d+)?)?)?\s*/.exec(p.s.slice(p.i))!;
    if (m[0].trim() === '') p.fail(`invalid array index ${p.s.slice(p.i)}`);
    p.i += m[0].length;
    const num = (x: string | undefined): number | undefined => (x === undefined ? undefined : Number(x));
    step = { kind: 'slice', start: num(m[1]), end: num(m[3]), step: num(m[5]), single: m[2] === undefined };
  }
  skipWs(p);
  if (p.peek() !== ']') p.fail('unclosed array expect ]');
  p.i++;
  return step;
}

/** Steps until the end of the expression (a `}` or, inside filters, an operator or `)`). */
function parseSteps(p: Parser, inFilter: boolean): Step[] {
  const steps: Step[] = [];
  while (!p.eof()) {
    const c = p.peek();
    if (c === '.') {
      p.i++;
      if (p.peek() === '.') {
        p.i++;
        steps.push({ kind: 'recursive' });
      }
      if (p.peek() === '*') {
        p.i++;
        steps.push({ kind: 'wildcard' });
        continue;
      }
      if (p.peek() === '[') continue;
      const name = parseName(p);
      if (name !== '') steps.push({ kind: 'field', name });
    } else if (c === '[') {
      steps.push(parseBracket(p));
    } else if (c === '$' || c === '@') {
      p.i++;
    } else if (inFilter || c === '}' || c === ' ') {
      break;
    } else {
      const name = parseName(p);
      if (name === '') p.fail(`unrecognized character in action: ${JSON.stringify(c)}`);
      steps.push({ kind: 'field', name });
    }
  }
  return steps;
}

/** Parses a template such as `{.spec.replicas}` (throws on syntax errors). */
export function parseJSONPath(template: string): JSONPath {
  const parts: JSONPath['parts'] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      parts.push({ text: template.slice(i) });
      break;
    }
    if (open > i) parts.push({ text: template.slice(i, open) });
    const p = new Parser(template);
    p.i = open + 1;
    skipWs(p);
    const steps = parseSteps(p, false);
    skipWs(p);
    if (p.peek() !== '}') throw new Error(`unclosed action`);
    parts.push({ steps });
    i = p.i + 1;
  }
  return { parts };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** v and everything below it, in document order (pre-order), with an explicit stack: data nests deep. */
function descendants(v: unknown, out: unknown[]): void {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    out.push(x);
    const children = Array.isArray(x) ? x : isObj(x) ? Object.keys(x).map((k) => x[k]) : undefined;
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
  }
  if (typeof a === 'number' && typeof b === 'number') {
    return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
  }
  if (typeof a === 'string' && typeof b === 'string') {
    return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
  }
  throw new Error('incomparable types');
}

function operandValues(o: Operand, cur: unknown): unknown[] {
  return o.kind === 'literal' ? [o.value] : evalSteps(o.steps, [cur]);
}

function evalSteps(steps: Step[], input: unknown[]): unknown[] {
  let cur = input;
  for (const s of steps) {
    const next: unknown[] = [];
    switch (s.kind) {
      case 'field':
        for (const v of cur) if (isObj(v) && Object.hasOwn(v, s.name)) next.push(v[s.name]);
        break;
      case 'union':
        for (const v of cur) if (isObj(v)) for (const n of s.names) if (Object.hasOwn(v, n)) next.push(v[n]);
        break;
      case 'wildcard':
        for (const v of cur) {
          if (Array.isArray(v)) next.push(...v);
          else if (isObj(v)) for (const k of Object.keys(v)) next.push(v[k]);
        }
        break;
      case 'recursive':
        for (const v of cur) descendants(v, next);
        break;
      case 'slice':
        for (const v of cur) {
          if (!Array.isArray(v)) throw new Error(`${stringifyJSON(v)} is not array or slice`);
          const len = v.length;
          let start = s.start ?? 0;
          if (start < 0) start += len;
          let end = s.single ? start + 1 : (s.end ?? len);
          if (!s.single && end < 0) end += len;
          if (end === start) continue;
          if (start >= len || start < 0) throw new Error(`array index out of bounds: index ${start}, length ${len}`);
          if (end > len || end < 0) throw new Error(`array index out of bounds: index ${end - 1}, length ${len}`);
          const step = s.step ?? 1;
          if (step <= 0) throw new Error('step must be > 0');
          for (let k = start; k < end; k += step) next.push(v[k]);
        }
        break;
      case 'filter':
        for (const v of cur) {
          if (!Array.isArray(v)) throw new Error(`${stringifyJSON(v)} is not array or slice and cannot be filtered`);
          for (const el of v) {
            const lefts = operandValues(s.left, el);
            if (s.op === 'exists') {
              if (lefts.length !== 0) next.push(el);
              continue;
            }
            if (lefts.length === 0) continue;
            if (lefts.length > 1) throw new Error('can only compare one element at a time');
            const rights = operandValues(s.right!, el);
            if (rights.length === 0) continue;
            if (rights.length > 1) throw new Error('can only compare one element at a time');
            if (compare(lefts[0], s.op, rights[0])) next.push(el);
          }
        }
        break;
    }
    cur = next;
  }
  return cur;
}

/** FindResults: one result list per path expression in the template (text parts are skipped). */
export function findResults(jp: JSONPath, data: unknown): unknown[][] {
  const out: unknown[][] = [];
  for (const part of jp.parts) if ('steps' in part) out.push(evalSteps(part.steps, [data]));
  return out;
}

/** PrintResults of a single value: JSON for maps and arrays, Go's %v for scalars. */
export function printResult(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloatString(v);
  return goJSON(v);
}

/** encoding/json's Marshal: sorted map keys and HTML-escaped <, >, &. */
function goJSON(v: unknown): string {
  return canonicalJSON(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}
