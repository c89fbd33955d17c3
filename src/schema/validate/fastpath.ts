/**
 * The validator's fast "valid?" pass: JavaScript generated once per schema (as ajv does) that
 * answers exactly whether the detailed validator (validator.ts) would report no error, without
 * tracking paths or building messages. Valid objects, the common case, pay only for this pass;
 * the detailed validator runs when it answers false, to produce Kubernetes' messages.
 *
 * Each schema node becomes one function of the value. Its body dispatches on the value's kind and
 * handles, for the kinds the schema's type admits, the checks that have a direct translation:
 * property names and enum strings are string literals, lengths and bounds numeric literals. Every
 * other case (kinds whose type check depends on the value, tuple items, uniqueItems,
 * patternProperties, dependencies, enums of non-strings, bounds beyond 2^53) calls the detailed
 * node on a scratch context, so the answer stays exact. Literals are written with JSON.stringify
 * or as safe-integer digits; anything else the schema holds (closures, other numbers, sets) is
 * passed in by reference, so no schema text is ever spliced into the code. Every generated loop
 * visits each element or key once: the pass is linear in the input.
 */
import { GoFloat, goFloatString } from '../../apimachinery/field/govalue.ts';

/** What the generator needs to know of a compiled schema node `N` (validator.ts fills it in). */
export interface NodeFacts<N> {
  /** The detailed validator's verdict (no errors) for v at this node. */
  slow: (v: unknown) => boolean;
  /**
   * checkType's verdict by kind code (null, bool, int, float, string, array, object): true or
   * false when it depends on the kind alone, undefined when it depends on the value.
   */
  typeOk: readonly (boolean | undefined)[];
  /** Where typeOk is false: the failure's [type name, data type], as the type error reports them. */
  typeFail: readonly (readonly [string, string] | undefined)[];
  /** The verdict for null (and undefined): only the type and enum checks run on it. */
  nullValid: boolean;
  anyOf?: readonly N[];
  oneOf?: readonly N[];
  allOf?: readonly N[];
  not?: N;
  /** `dependencies` present (left to the detailed validator). */
  hasDeps: boolean;
  enumValues?: readonly unknown[];
  /** The enum as a set, when all its values are strings. */
  stringEnum?: ReadonlySet<string>;
  maxLength?: number;
  minLength?: number;
  pattern?: (s: string) => boolean;
  /** The pattern as the Pattern message quotes it. */
  patternMsg: string;
  format?: (s: string) => boolean;
  /** The format's name, as the format error names it. */
  formatName: string;
  /**
   * Reports v's errors with the detailed validator, v being known invalid and named p (its
   * kube-openapi path): the error pass's fallback for what it does not translate.
   */
  slowErrors: (v: unknown, p: string) => void;
  /** The list-type set/map check of an array at this node (listtype.ts), when it has one. */
  listCheck?: (arr: readonly unknown[]) => boolean;
  /** The type a number is range-checked against ('integer', 'number' or ''), and its format. */
  numType: string;
  numFormat: string;
  /** Some bound (multipleOf, minimum, maximum) is itself out of the type's range: every number fails. */
  boundOutOfRange: boolean;
  multipleOf?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum: boolean;
  exclusiveMaximum: boolean;
  items?: N;
  /** Tuple items, additionalItems or uniqueItems (left to the detailed validator). */
  sliceSlow: boolean;
  minItems?: number;
  maxItems?: number;
  properties: readonly (readonly [string, N])[];
  additionalProperties?: N;
  /** additionalProperties false or patternProperties (left to the detailed validator). */
  objectSlow: boolean;
  required?: readonly string[];
  minProperties?: number;
  maxProperties?: number;
}

/**
 * Where the fast pass found an object or array invalid: the node's id (see generateFastChecks),
 * the value, and the first key or index whose check failed (null: every key or element passed,
 * a later check failed). The entries before it passed, so the detailed validator, walking the same
 * keys in the same for...in order, skips them and goes straight into the failing one. At most
 * TRAIL_MAX entries are kept per validation; without an entry the detailed walk checks everything.
 */
export class FailTrail {
  ids: number[] = [];
  values: unknown[] = [];
  keys: (string | number | null)[] = [];
  n = 0;
  /**
   * Set by the error pass (generated with lists folded): some array it reached fails its
   * list-type check, or some value was handed to the detailed validator, which does not run
   * list-type checks. Together false after an error pass: every list-type check would pass (each
   * value was either accepted by a fast check, which folds them in, or walked by the error pass,
   * which runs them). Cleared by the caller, not by reset.
   */
  listBad = false;
  listsUnknown = false;
  reset(): void {
    for (let i = 0; i < this.n; i++) this.values[i] = undefined;
    this.n = 0;
  }
  /** Records a failure and returns false (the generated code's `return fail(...)`). */
  fail(id: number, v: unknown, k: string | number | null): false {
    const n = this.n;
    if (n < TRAIL_MAX) {
      this.ids[n] = id;
      this.values[n] = v;
      this.keys[n] = k;
      this.n = n + 1;
    }
    return false;
  }
  /** The failing key recorded for node id on v; undefined when there is none. */
  find(id: number, v: unknown): string | number | null | undefined {
    for (let i = this.n - 1; i >= 0; i--) if (this.values[i] === v && this.ids[i] === id) return this.keys[i];
    return undefined;
  }
}

const TRAIL_MAX = 64;

/**
 * The error pass's reporting (validator.ts): each pushes the error the detailed validator would
 * push for a value named p, with the same code, fields and message. Keys that make up a path are
 * given to `key` so that the caller learns of keys containing `: `.
 */
export interface ErrorSink {
  tooLong(p: string, v: string, max: number): void;
  tooShort(p: string, v: string, min: number): void;
  pattern(p: string, v: string, pattern: string): void;
  format(p: string, v: string, format: string): void;
  /** The type check's failure ('p in body must be of type T: "data"'). */
  type(p: string, typeName: string, data: string): void;
  enum(p: string, v: unknown, values: readonly unknown[]): void;
  /** The int32 range check ('Checked value must be of type integer with format int32 in p'). */
  checked(p: string, numType: string, numFormat: string): void;
  multipleOf(p: string, v: number, factor: string): void;
  min(p: string, v: number, exclusive: boolean, bound: string): void;
  max(p: string, v: number, exclusive: boolean, bound: string): void;
  minItems(p: string, n: number, min: number): void;
  maxItems(p: string, n: number, max: number): void;
  tooFewProperties(p: string, n: number, min: number): void;
  tooManyProperties(p: string, n: number, max: number): void;
  required(p: string, key: string): void;
  key(k: string): void;
}

/** What generateFastChecks produces. */
export interface GeneratedChecks<N> {
  /** Per node: its trail id, its fast check, and its error pass (v known invalid, named p). */
  nodes: Map<N, { id: number; fast: (v: unknown) => boolean; errors: (v: unknown, p: string, knownInvalid: boolean) => void }>;
  /**
   * With `lists`: the root's fast check also rejects list-type set/map violations anywhere below,
   * so a true answer means the list-type checks would report nothing either. False when some node
   * could not fold them in (its check hands a subtree with lists to the detailed validator).
   */
  listsFolded: boolean;
}

/** Enums up to this size are tested with `===` chains; larger ones with their Set. */
const INLINE_ENUM = 8;

const TWO53 = 9007199254740992;

/**
 * Generates the fast pass for the node `root` and every node below it: for each, a function that is
 * true exactly when the detailed validator reports no error for the value at that node.
 */
export function generateFastChecks<N>(
  root: N,
  factsOf: (n: N) => NodeFacts<N>,
  trail: FailTrail,
  sink: ErrorSink,
  lists = false,
): GeneratedChecks<N> {
  const refs: unknown[] = [];
  const ids = new Map<N, string>();
  const trivial = new Set<string>();
  const fns: string[] = [];

  /** A value passed by reference: its name in the generated code. */
  const ref = (x: unknown): string => {
    refs.push(x);
    return `R${refs.length - 1}`;
  };
  /** A number as code: digits for safe integers, else a reference. */
  const num = (x: number): string => (Number.isSafeInteger(x) ? String(x) : ref(x));

  // Junctor alternatives must answer exactly "valid?": list-type checks stay out of them.
  let inJunctor = 0;
  let listsFolded = lists;
  const listMemo = new Map<N, boolean>();
  /** Whether a list-type check applies at or below n (in the main tree). */
  const hasList = (n: N): boolean => {
    let r = listMemo.get(n);
    if (r === undefined) {
      listMemo.set(n, false);
      const f = factsOf(n);
      r = f.listCheck !== undefined || (f.items !== undefined && hasList(f.items)) || (f.additionalProperties !== undefined && hasList(f.additionalProperties));
      for (const [, c] of f.properties) r ||= hasList(c);
      listMemo.set(n, r);
    }
    return r;
  };

  const fnOf = (n: N): string => {
    let id = ids.get(n);
    if (id !== undefined) return id;
    const num = ids.size;
    id = `f${num}`;
    ids.set(n, id);
    const f = factsOf(n);
    const slow = ref(f.slow);
    const body = genNode(n, f, `${slow}(v)`, num);
    if (body === null) trivial.add(id);
    fns.push(`function ${id}(v) {\n${body ?? 'return true;'}\n}`);
    fns.push(`function e${num}(v, p, kb) {\nif (!kb && ${id}(v)) return;\n${genErrors(f, num)}\nT.listsUnknown = true;\n${ref(f.slowErrors)}(v, p);\n}`);
    return id;
  };

  /** The error function of node n, for a child known to be invalid; null when n accepts everything. */
  const errCall = (n: N): string | null => {
    const id = fnOf(n);
    return trivial.has(id) ? null : `e${id.slice(1)}`;
  };

  /**
   * The error pass of one node: for the value kinds whose checks translate directly (the type
   * passes, no junctors), the errors in the detailed validator's order, then `return`; any other
   * value falls through to the detailed validator.
   */
  const genErrors = (f: NodeFacts<N>, id: number): string => {
    if (f.hasDeps || junctors(f) !== '') return '';
    // A kind whose type check fails reports that first; the kind's own checks still run after it.
    const ok: boolean[] = [];
    const pre: string[] = [];
    for (let k = 0; k < 7; k++) {
      const tf = f.typeFail[k];
      ok[k] = f.typeOk[k] === true || (f.typeOk[k] === false && tf !== undefined);
      pre[k] = f.typeOk[k] === false && tf !== undefined ? `H.type(p, ${JSON.stringify(tf[0])}, ${JSON.stringify(tf[1])});\n` : '';
    }
    const out: string[] = ['switch (typeof v) {'];
    if (ok[4] && stringChecks(f) !== undefined) out.push(`case 'string': {\n${pre[4]}${stringErrors(f, f.typeOk[4] === true)}\nreturn;\n}`);
    const numbers = !f.boundOutOfRange;
    const int = numbers && ok[2] && boundChecks(f, true) !== undefined ? pre[2] + numberErrors(f, true) : undefined;
    const float = numbers && f.typeOk[3] === true && boundChecks(f, false) !== undefined ? numberErrors(f, false) : undefined;
    if (int !== undefined || float !== undefined) {
      out.push(`case 'number':`);
      if (int !== undefined) out.push(`if (Number.isSafeInteger(v) && (v !== 0 || 1 / v > 0)) {\n${int}\nreturn;\n}`);
      if (float !== undefined) out.push(`if (!Number.isSafeInteger(v) || (v === 0 && 1 / v < 0)) {\n${float}\nreturn;\n}`);
      out.push('break;');
    }
    const arr = ok[5] && arrayChecks(f, id) !== undefined ? pre[5] + arrayErrors(f, id) : undefined;
    const obj = ok[6] && objectChecks(f, id) !== undefined ? pre[6] + objectErrors(f, id) : undefined;
    if (ok[1] && f.enumValues === undefined) out.push(`case 'boolean': {\n${pre[1]}return;\n}`);
    if (arr !== undefined || obj !== undefined) {
      out.push(`case 'object':`);
      if (arr !== undefined) out.push(`if (Array.isArray(v)) {\n${arr}\nreturn;\n}`);
      if (obj !== undefined) out.push(`if (v !== null && !Array.isArray(v) && !isGoFloat(v)) {\n${obj}\nreturn;\n}`);
      out.push('break;');
    }
    out.push('}');
    return out.join('\n');
  };

  /**
   * `typeOk`: strings pass the type check, so a string known invalid here (kb) fails one of these
   * checks; when there is only one, it is not run again (a format or pattern costs the most).
   */
  const stringErrors = (f: NodeFacts<N>, typeOk: boolean): string => {
    const checks = [f.maxLength, f.minLength, f.pattern, f.format, f.stringEnum].filter((x) => x !== undefined).length;
    const known = typeOk && checks === 1 ? 'kb || ' : '';
    const c: string[] = [];
    // stringValidator stops at its first failure.
    const chain: string[] = [];
    if (f.maxLength !== undefined) {
      const m = num(f.maxLength);
      chain.push(`if (${known}v.length > ${m} && runeCount(v) > ${m}) H.tooLong(p, v, ${m});`);
    }
    if (f.minLength !== undefined) {
      const m = num(f.minLength);
      chain.push(`if (${known}v.length < ${m} || runeCount(v) < ${m}) H.tooShort(p, v, ${m});`);
    }
    if (f.pattern !== undefined) chain.push(`if (${known}!${ref(f.pattern)}(v)) H.pattern(p, v, ${JSON.stringify(f.patternMsg)});`);
    if (chain.length > 0) c.push(chain.join('\nelse '));
    if (f.format !== undefined) c.push(`if (${known}!${ref(f.format)}(v)) H.format(p, v, ${JSON.stringify(f.formatName)});`);
    if (f.stringEnum !== undefined) c.push(`if (${known}!${ref(f.stringEnum)}.has(v)) H.enum(p, v, ${ref(f.enumValues)});`);
    return c.join('\n');
  };

  const numberErrors = (f: NodeFacts<N>, isInt: boolean): string => {
    const c: string[] = [];
    if (isInt && f.numType === 'integer' && f.numFormat === 'int32') {
      c.push(`if (v < -2147483648 || v > 2147483647) H.checked(p, ${JSON.stringify(f.numType)}, ${JSON.stringify(f.numFormat)});`);
    }
    if (f.multipleOf !== undefined) c.push(`if (v % ${num(f.multipleOf)} !== 0) H.multipleOf(p, v, ${JSON.stringify(String(f.multipleOf))});`);
    for (const [bound, excl, op, eqOp, fn] of [
      [f.minimum, f.exclusiveMinimum, '<', '<=', 'min'],
      [f.maximum, f.exclusiveMaximum, '>', '>=', 'max'],
    ] as const) {
      if (bound === undefined) continue;
      const b = isInt ? Math.trunc(bound) : bound;
      const text = isInt ? String(b) : goFloatString(b);
      c.push(`if (v ${excl ? eqOp : op} ${num(b)}) H.${fn}(p, v, ${excl}, ${JSON.stringify(text)});`);
    }
    return c.join('\n');
  };

  const arrayErrors = (f: NodeFacts<N>, id: number): string => {
    const c: string[] = [];
    // The error pass reaches every array whose fast check it did not see pass: it runs the
    // list-type check there, so that the caller knows whether the list-type walk can be skipped.
    if (lists && inJunctor === 0 && f.listCheck !== undefined) c.push(`if (${ref(f.listCheck)}(v)) T.listBad = true;`);
    if (f.items !== undefined) {
      const e = errCall(f.items);
      if (e !== null) {
        c.push(`{ const from = T.find(${id}, v);`);
        c.push(`for (let i = typeof from === 'number' ? from : 0; i < v.length; i++) { const x = v[i]; if (i === from || !${call(f.items, 'x')}) ${e}(x, p + '[' + i + ']', true); } }`);
      }
    }
    if (f.minItems !== undefined) c.push(`if (v.length < ${num(f.minItems)}) H.minItems(p, v.length, ${num(f.minItems)});`);
    if (f.maxItems !== undefined) c.push(`if (v.length > ${num(f.maxItems)}) H.maxItems(p, v.length, ${num(f.maxItems)});`);
    return c.join('\n');
  };

  const objectErrors = (f: NodeFacts<N>, id: number): string => {
    const c: string[] = [];
    if (f.minProperties !== undefined || f.maxProperties !== undefined) {
      c.push('{ const n = Object.keys(v).length;');
      if (f.minProperties !== undefined) c.push(`if (n < ${num(f.minProperties)}) H.tooFewProperties(p, n, ${num(f.minProperties)});`);
      if (f.maxProperties !== undefined) c.push(`if (n > ${num(f.maxProperties)}) H.tooManyProperties(p, n, ${num(f.maxProperties)});`);
      c.push('}');
    }
    const ap = f.additionalProperties !== undefined ? errCall(f.additionalProperties) : null;
    const cases: string[] = [];
    for (const [k, n] of f.properties) {
      const e = errCall(n);
      const lit = JSON.stringify(k);
      const colon = k.includes(': ') ? 'H.key(k); ' : '';
      // A root property named '.x' would be named with a leading '.': the detailed node reports it.
      const atRoot = k.startsWith('.') ? `(T.listsUnknown = true, ${ref(factsOf(n).slowErrors)}(x, ${lit}))` : `${e}(x, ${lit}, true)`;
      if (e !== null) cases.push(`case ${lit}: { const x = v[k]; if (bad || !${call(n, 'x')}) { ${colon}if (p === '') ${atRoot}; else ${e}(x, p + ${JSON.stringify('.' + k)}, true); } break; }`);
      else if (ap !== null) cases.push(`case ${lit}: break;`);
    }
    if (ap !== null) {
      // At the root an additionalProperties value is named '.k': the detailed node reports it.
      const apSlow = ref(factsOf(f.additionalProperties!).slowErrors);
      cases.push(`default: { const x = v[k]; if (bad || !${call(f.additionalProperties!, 'x')}) { H.key(k); if (p === '') { T.listsUnknown = true; ${apSlow}(x, '.' + k); } else ${ap}(x, p + '.' + k, true); } }`);
    }
    if (cases.length > 0) {
      // Keys before the one the fast check failed on passed: the walk starts at that key.
      c.push(`{ let from = T.find(${id}, v);`);
      c.push('if (from !== null) for (const k in v) {');
      c.push('let bad = false;');
      c.push('if (from !== undefined) { if (k !== from) continue; from = undefined; bad = true; }');
      c.push(`switch (k) {\n${cases.join('\n')}\n}`);
      c.push('} }');
    }
    if (f.required !== undefined) for (const k of f.required) c.push(`if (!Object.hasOwn(v, ${JSON.stringify(k)})) H.required(p, ${JSON.stringify(k)});`);
    return c.join('\n');
  };

  /** A call of node n on expression x, or null when the node accepts everything. */
  const call = (n: N, x: string): string | null => {
    const id = fnOf(n);
    return trivial.has(id) ? null : `${id}(${x})`;
  };

  /** The junctors' verdict as an expression ('' when there are none). */
  const junctors = (f: NodeFacts<N>): string => {
    const parts: string[] = [];
    inJunctor++;
    if (f.anyOf !== undefined) parts.push(`(${f.anyOf.map((n) => call(n, 'v') ?? 'true').join(' || ')})`);
    if (f.oneOf !== undefined) parts.push(`(${f.oneOf.map((n) => `(${call(n, 'v') ?? 'true'} ? 1 : 0)`).join(' + ')}) === 1`);
    if (f.allOf !== undefined) for (const n of f.allOf) parts.push(call(n, 'v') ?? 'true');
    if (f.not !== undefined) parts.push(`!${call(f.not, 'v') ?? 'true'}`);
    inJunctor--;
    return parts.join(' && ');
  };

  /** Statements for one kind: null means "always valid", else code that returns the verdict. */
  const kindBody = (typeOk: boolean | undefined, f: NodeFacts<N>, slow: string, checks: () => string[] | undefined): string => {
    if (typeOk === false) return 'return false;';
    if (typeOk === undefined || f.hasDeps) return `return ${slow};`;
    const c = checks();
    if (c === undefined) return `return ${slow};`;
    const j = junctors(f);
    if (j !== '') c.unshift(`if (!(${j})) return false;`);
    c.push('return true;');
    return c.join('\n');
  };

  const stringChecks = (f: NodeFacts<N>): string[] | undefined => {
    const c: string[] = [];
    if (f.maxLength !== undefined) {
      const m = num(f.maxLength);
      c.push(`if (v.length > ${m} && runeCount(v) > ${m}) return false;`);
    }
    if (f.minLength !== undefined) {
      const m = num(f.minLength);
      c.push(`if (v.length < ${m} || runeCount(v) < ${m}) return false;`);
    }
    if (f.pattern !== undefined) c.push(`if (!${ref(f.pattern)}(v)) return false;`);
    if (f.format !== undefined) c.push(`if (!${ref(f.format)}(v)) return false;`);
    if (f.enumValues !== undefined) {
      if (f.stringEnum === undefined) return undefined;
      if (f.stringEnum.size <= INLINE_ENUM) {
        c.push(`if (${[...f.stringEnum].map((e) => `v !== ${JSON.stringify(e)}`).join(' && ')}) return false;`);
      } else {
        c.push(`if (!${ref(f.stringEnum)}.has(v)) return false;`);
      }
    }
    return c;
  };

  /** Bound checks on a number v; `isInt`: v is a safe integer (kube-openapi truncates the bound). */
  const boundChecks = (f: NodeFacts<N>, isInt: boolean): string[] | undefined => {
    if (f.enumValues !== undefined) return undefined;
    if (f.boundOutOfRange) return ['return false;'];
    const c: string[] = [];
    if (isInt && f.numType === 'integer' && f.numFormat === 'int32') c.push('if (v < -2147483648 || v > 2147483647) return false;');
    if (!isInt && f.numType !== '' && f.numFormat !== '' && f.numFormat !== 'double') return undefined;
    if (f.multipleOf !== undefined) {
      if (!isInt || !Number.isSafeInteger(f.multipleOf) || f.multipleOf <= 0) return undefined;
      c.push(`if (v % ${num(f.multipleOf)} !== 0) return false;`);
    }
    for (const [bound, excl, op, eqOp] of [
      [f.minimum, f.exclusiveMinimum, '<', '<='],
      [f.maximum, f.exclusiveMaximum, '>', '>='],
    ] as const) {
      if (bound === undefined) continue;
      if (isInt) {
        if (!(Math.abs(bound) < TWO53)) return undefined;
        c.push(`if (v ${excl ? eqOp : op} ${num(Math.trunc(bound))}) return false;`);
      } else {
        c.push(`if (v ${excl ? eqOp : op} ${num(bound)}) return false;`);
      }
    }
    return c;
  };

  const arrayChecks = (f: NodeFacts<N>, id: number): string[] | undefined => {
    if (f.sliceSlow || f.enumValues !== undefined) return undefined;
    const c: string[] = [];
    if (f.minItems !== undefined) c.push(`if (v.length < ${num(f.minItems)}) return false;`);
    if (f.maxItems !== undefined) c.push(`if (v.length > ${num(f.maxItems)}) return false;`);
    if (f.items !== undefined) {
      const e = call(f.items, 'v[i]');
      if (e !== null) c.push(`for (let i = 0; i < v.length; i++) if (!${e}) return fail(${id}, v, i);`);
    }
    return c;
  };

  const objectChecks = (f: NodeFacts<N>, id: number): string[] | undefined => {
    if (f.objectSlow || f.enumValues !== undefined) return undefined;
    const c: string[] = [];
    if (f.minProperties !== undefined || f.maxProperties !== undefined) {
      c.push('{ const n = Object.keys(v).length;');
      if (f.minProperties !== undefined) c.push(`if (n < ${num(f.minProperties)}) return false;`);
      if (f.maxProperties !== undefined) c.push(`if (n > ${num(f.maxProperties)}) return false;`);
      c.push('}');
    }
    const ap = f.additionalProperties !== undefined ? call(f.additionalProperties, 'v[k]') : null;
    const cases: string[] = [];
    for (const [k, n] of f.properties) {
      const e = call(n, 'v[k]');
      if (e !== null) cases.push(`case ${JSON.stringify(k)}: if (!${e}) return fail(${id}, v, k); break;`);
      else if (ap !== null) cases.push(`case ${JSON.stringify(k)}: break;`);
    }
    if (ap !== null) cases.push(`default: if (!${ap}) return fail(${id}, v, k);`);
    // The detailed validator visits the same keys: for...in, properties first, else additionalProperties.
    if (cases.length > 0) c.push(`for (const k in v) switch (k) {\n${cases.join('\n')}\n}`);
    if (f.required !== undefined) for (const k of f.required) c.push(`if (!Object.hasOwn(v, ${JSON.stringify(k)})) return fail(${id}, v, null);`);
    return c;
  };

  /** The body of a node's function, or null when it accepts every value. */
  const genNode = (n: N, f: NodeFacts<N>, slow: string, id: number): string | null => {
    const t = f.typeOk;
    const str = kindBody(t[4], f, slow, () => stringChecks(f));
    const bool = kindBody(t[1], f, slow, () => (f.enumValues !== undefined ? undefined : []));
    const int = kindBody(t[2], f, slow, () => boundChecks(f, true));
    const float = kindBody(t[3], f, slow, () => boundChecks(f, false));
    let arr = kindBody(t[5], f, slow, () => arrayChecks(f, id));
    const obj = kindBody(t[6], f, slow, () => objectChecks(f, id));
    if (lists && inJunctor === 0) {
      if (f.listCheck !== undefined && arr !== 'return false;') arr = `if (${ref(f.listCheck)}(v)) return false;\n${arr}`;
      // A subtree handed to the detailed validator would not have its lists checked.
      if (hasList(n) && (arr.endsWith(`return ${slow};`) || obj.endsWith(`return ${slow};`))) listsFolded = false;
    }
    const nul = `return ${f.nullValid};`;
    const all = [str, bool, int, float, arr, obj];
    if (f.nullValid && all.every((b) => b === 'return true;')) return null;
    return [
      'switch (typeof v) {',
      `case 'string': {\n${str}\n}`,
      `case 'number':\nif (Number.isSafeInteger(v) && (v !== 0 || 1 / v > 0)) {\n${int}\n}\n{\n${float}\n}`,
      `case 'boolean': {\n${bool}\n}`,
      `case 'object':\nif (v === null) ${nul}\nif (Array.isArray(v)) {\n${arr}\n}\nif (isGoFloat(v)) return ${slow};\n{\n${obj}\n}`,
      `case 'bigint': return ${slow};`,
      '}',
      nul,
    ].join('\n');
  };

  fnOf(root);
  const decls = refs.map((_, i) => `const R${i} = R[${i}];`).join('\n');
  const all = [...ids.values()].map((id) => `[${id}, e${id.slice(1)}]`);
  // `v instanceof GoFloat` with GoFloat a variable is a generic instanceof (no constant to fold):
  // it costs more than the rest of a small object's check. A plain object is ruled out first by
  // its inherited constructor: a GoFloat's is GoFloat, and decoded data holds no functions, so no
  // own `constructor` property can equal Object.
  const src = `"use strict";\nconst fail = (id, v, k) => T.fail(id, v, k);\nconst isGoFloat = (v) => v.constructor !== Object && v instanceof GoFloat;\n${decls}\n${fns.join('\n')}\nreturn [${all.join(', ')}];`;
  // Every schema-derived value enters through R; the source holds only literals made safe above.
  type Fns = [(v: unknown) => boolean, (v: unknown, p: string, kb: boolean) => void][];
  type Make = (g: typeof GoFloat, rc: typeof runeCount, t: FailTrail, h: ErrorSink, r: unknown[]) => Fns;
  const made = (new Function('GoFloat', 'runeCount', 'T', 'H', 'R', src) as Make)(GoFloat, runeCount, trail, sink, refs);
  const out: GeneratedChecks<N>['nodes'] = new Map();
  let i = 0;
  for (const n of ids.keys()) {
    const [fast, errors] = made[i]!;
    out.set(n, { id: i, fast, errors });
    i++;
  }
  return { nodes: out, listsFolded };
}

/** Counts runes as utf8.RuneCount does (a lone surrogate is one rune). */
export function runeCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
