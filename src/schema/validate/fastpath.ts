/**
 * The validator's generated passes: JavaScript written once per schema (as ajv does), in front of
 * the detailed validator (validator.ts), which stays the reference for every behaviour.
 *
 * 1. The fast "valid?" check: one function per schema node that answers exactly whether the
 *    detailed validator would report no error for a value, without tracking paths or building
 *    messages. The detailed nodes consult it before descending, and the error pass uses it where
 *    it hands a value over.
 * 2. The error pass: one walk that reports every error where it finds it, with the detailed
 *    validator's codes, messages and order. A node's checks are written into its parent's code,
 *    so a value's path is known while generating (static text plus the loop's index or key
 *    variables) and rendered only in a statement that reports; a subtree too large to inline, or
 *    a kind of value other than the one the node's type expects, goes to a function of (value,
 *    path). Valid objects cost this walk alone; invalid ones only the errors' objects more.
 *
 * Both handle, for the kinds the schema's type admits, the checks that have a direct translation:
 * property names and enum strings are string literals, lengths and bounds numeric literals. Every
 * other case (kinds whose type check depends on the value, tuple items, uniqueItems,
 * patternProperties, dependencies, junctors, enums of non-strings, bounds beyond 2^53) goes to the
 * detailed node, so the answers stay exact. Literals are written with JSON.stringify or as
 * safe-integer digits; anything else the schema holds (closures, other numbers, sets) is passed in
 * by reference, so no schema text is ever spliced into the code. Every generated loop visits each
 * element or key once: both passes are linear in the input.
 */
import { GoFloat, goFloatString, goFloatsMade } from '../../apimachinery/index.ts';
import { enumDetail, msg } from './messages.ts';

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
   * value was either walked by the error pass, which runs them, or accepted by a fast check,
   * which folds them in). Cleared by the caller, not by reset.
   */
  listBad = false;
  listsUnknown = false;
  /** Set by the error pass: it went below a key containing `: ` (see validator.ts toFieldErrors). */
  colonKey = false;
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
 * push for a value named p, with the same code, fields and message.
 */
export interface ErrorSink {
  // `tail`: the message after the value's name, known when generating (msg.*('', ...)).
  tooLong(p: string, v: string, max: number, tail: string): void;
  tooShort(p: string, v: string, min: number, tail: string): void;
  pattern(p: string, v: string, tail: string): void;
  /** A format's failure; mid: the message between p and the quoted value (msg.typeFailMiddle). */
  format(p: string, v: string, mid: string): void;
  /** The type check's failure ('p in body must be of type T: "data"'). */
  type(p: string, data: string, tail: string): void;
  enum(p: string, v: unknown, values: readonly unknown[], tail: string, detail: string): void;
  /** The int32 range check ('Checked value must be of type integer with format int32 in p'; head: all but p). */
  checked(p: string, head: string): void;
  multipleOf(p: string, v: number, tail: string): void;
  min(p: string, v: number, tail: string): void;
  max(p: string, v: number, tail: string): void;
  minItems(p: string, n: number, min: number, tail: string): void;
  maxItems(p: string, n: number, max: number, tail: string): void;
  tooFewProperties(p: string, n: number, min: number, tail: string): void;
  tooManyProperties(p: string, n: number, max: number, tail: string): void;
  required(p: string, key: string): void;
  /** required's error with its name, field and message known while generating. */
  requiredAt(name: string, field: string, message: string): void;
}

/** What generateFastChecks produces. */
export interface GeneratedChecks<N> {
  /** Per node: its trail id and its fast check. */
  nodes: Map<N, { id: number; fast: (v: unknown) => boolean }>;
  /**
   * The error pass: reports every error of a value at the root into the sink, as the detailed
   * validator would, in its order.
   */
  report: (v: unknown) => void;
  /**
   * With `lists`: the root's fast check also rejects list-type set/map violations anywhere below,
   * so a true answer means the list-type checks would report nothing either. False when some node
   * could not fold them in (its check hands a subtree with lists to the detailed validator).
   */
  listsFolded: boolean;
}

/** Enums up to this size are tested with one `===` chain; larger ones by length first (inEnum). */
const INLINE_ENUM = 8;

/** Subtrees of up to this many nodes are written into their parent's error pass; larger ones get a function. */
const INLINE_MAX = 64;

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
  /** A string as code. */
  const lit = (x: string): string => JSON.stringify(x);
  /** A number as code: digits for safe integers, else a reference. */
  const num = (x: number): string => (Number.isSafeInteger(x) ? String(x) : ref(x));

  /**
   * Whether object x has own property k, as code. A property read with a constant key is an inline
   * cache hit where Object.hasOwn is a builtin call (a tenth of an invalid object's validation):
   * the read answers for a present key, hasOwn only for an absent one (or one holding undefined).
   * Keys that Object.prototype has are read through it, so they keep the call.
   */
  const hasKey = (x: string, k: string): string =>
    k in Object.prototype || k === '__proto__' ? `Object.hasOwn(${x}, ${lit(k)})` : `(${x}[${lit(k)}] !== undefined || Object.hasOwn(${x}, ${lit(k)}))`;
  const enumFns = new Map<ReadonlySet<string>, string>();
  /**
   * Membership in a string enum, as code. Up to INLINE_ENUM values a chain of comparisons; above,
   * a function that switches on the length first and compares only the values of that length
   * (a Set would hash every freshly decoded string it is asked about).
   */
  const inEnum = (x: string, values: ReadonlySet<string>): string => {
    if (values.size <= INLINE_ENUM) return `(${[...values].map((e) => `${x} === ${lit(e)}`).join(' || ')})`;
    let name = enumFns.get(values);
    if (name === undefined) {
      name = `e${enumFns.size}`;
      enumFns.set(values, name);
      const byLength = new Map<number, string[]>();
      for (const e of values) byLength.set(e.length, [...(byLength.get(e.length) ?? []), e]);
      const cases = [...byLength].map(([n, es]) => `case ${n}: return ${es.map((e) => `v === ${lit(e)}`).join(' || ')};`);
      fns.push(`function ${name}(v) {\nswitch (v.length) {\n${cases.join('\n')}\n}\nreturn false;\n}`);
    }
    return `${name}(${x})`;
  };

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
    return id;
  };

  // --- The error pass: one inlined walk that reports every error where it finds it.
  //
  // As ajv does, a node's checks are written into its parent's code, so the path of a value is
  // known while generating (static text, plus the loop's index or key variables): it is rendered
  // only in the statement that reports an error. A subtree too large to inline becomes a function
  // of (value, path) called where it occurs. Value kinds and schema features the pass does not
  // translate (junctors, dependencies, tuple items, uniqueItems, enums of non-strings, GoFloat and
  // bigint numbers) are checked with the node's fast check and, when it fails, handed with their
  // path to the detailed validator, which reports them exactly.

  let vars = 0;
  const sizeMemo = new Map<N, number>();
  /** The number of nodes in n's subtree, as the error pass would inline it (capped). */
  const sizeOf = (n: N): number => {
    let r = sizeMemo.get(n);
    if (r === undefined) {
      sizeMemo.set(n, INLINE_MAX + 1);
      const f = factsOf(n);
      r = 1;
      if (f.items !== undefined) r += sizeOf(f.items);
      if (f.additionalProperties !== undefined) r += sizeOf(f.additionalProperties);
      for (const [, c] of f.properties) r += sizeOf(c);
      r = Math.min(r, INLINE_MAX + 1);
      sizeMemo.set(n, r);
    }
    return r;
  };
  const reportFns = new Map<string, string>();
  /**
   * The out-of-line error pass of node n, a function of (value, path): `full` for every kind of
   * value, else for the kinds other than the node's primary one (see primaryOf).
   */
  const reportFnOf = (n: N, full: boolean): string => {
    const id = fnOf(n);
    const key = `${id}${full ? '' : '-rest'}`;
    let name = reportFns.get(key);
    if (name === undefined) {
      name = `${full ? 'r' : 'o'}${id.slice(1)}`;
      reportFns.set(key, name);
      const f = factsOf(n);
      fns.push(`function ${name}(v, p) {\n${kindSwitch(n, 'v', PathExpr.param('p'), full ? undefined : primaryOf(f))}\n}`);
    }
    return name;
  };

  /**
   * Hands x (at path) to the detailed validator, which reports its errors; when a list-type check
   * applies somewhere below n, lists then need their own walk (the detailed validator does not
   * run those checks).
   */
  const slowReport = (n: N, x: string, path: string): string =>
    `{ ${lists && hasList(n) ? 'T.listsUnknown = true; ' : ''}${ref(factsOf(n).slowErrors)}(${x}, ${path}); }`;

  /**
   * The kind of value the node's type expects, when its checks translate: written inline, with
   * the other kinds (type errors, mostly) left to a function. Undefined when none (several types,
   * or none, or checks the pass does not translate).
   */
  const primaryOf = (f: NodeFacts<N>): 'string' | 'bool' | 'int' | 'array' | 'object' | undefined => {
    const t = f.typeOk;
    const only = (k: number) => t.every((ok, i) => i === k || (k === 2 && i === 3) || ok !== true);
    if (t[6] === true && only(6) && !f.objectSlow && f.enumValues === undefined) return 'object';
    if (t[5] === true && only(5) && !f.sliceSlow && f.enumValues === undefined) return 'array';
    if (t[4] === true && only(4) && stringsTranslate(f)) return 'string';
    if (t[1] === true && only(1) && f.enumValues === undefined) return 'bool';
    if (t[2] === true && only(2) && !f.boundOutOfRange && boundsTranslate(f, true)) return 'int';
    return undefined;
  };

  /**
   * Appends to out the statements that report the errors of the value in variable x, at path,
   * under node n. `inline`: n's checks may be written here (else its function is called).
   */
  const report = (n: N, x: string, path: PathExpr, out: string[], inline = true): void => {
    const id = fnOf(n);
    if (trivial.has(id)) return;
    const f = factsOf(n);
    const pe = path.render();
    if (f.hasDeps || junctors(f) !== '') {
      out.push(`if (!${id}(${x})) ${slowReport(n, x, pe)}`);
      return;
    }
    // A function's path is never empty (inside it, properties are joined with '.'): the code for
    // an empty path, at the root or under properties named '', is written out here.
    if (path.empty) {
      out.push(kindSwitch(n, x, path, undefined));
      return;
    }
    const prim = primaryOf(f);
    if (prim === undefined || (inline && sizeOf(n) > INLINE_MAX)) {
      out.push(`${reportFnOf(n, true)}(${x}, ${pe});`);
      return;
    }
    let test: string;
    let checks: string;
    switch (prim) {
      case 'string':
        test = `typeof ${x} === 'string'`;
        checks = stringErrors(f, x, pe);
        break;
      case 'bool':
        test = `typeof ${x} === 'boolean'`;
        checks = '';
        break;
      case 'int':
        test = `typeof ${x} === 'number' && Number.isSafeInteger(${x}) && (${x} !== 0 || 1 / ${x} > 0)`;
        checks = numberErrors(f, true, x, pe);
        break;
      case 'array':
        test = `Array.isArray(${x})`;
        checks = arrayErrors(f, x, path, pe);
        break;
      case 'object':
        test = `typeof ${x} === 'object' && ${x} !== null && !Array.isArray(${x}) && !isGoFloat(${x})`;
        checks = objectErrors(f, x, path, pe);
        break;
    }
    const rest = `${reportFnOf(n, false)}(${x}, ${pe});`;
    out.push(checks === '' ? `if (!(${test})) ${rest}` : `if (${test}) {\n${checks}\n} else ${rest}`);
  };

  /** The node's checks for every kind of value but `skip` (a switch on typeof x). */
  const kindSwitch = (n: N, x: string, path: PathExpr, skip: string | undefined): string => {
    const f = factsOf(n);
    const id = fnOf(n);
    const pe = path.render();
    const slow = slowReport(n, x, pe);
    const guarded = `if (!${id}(${x})) ${slow}`;
    // A kind whose type check fails reports that first; the kind's own checks still run after it.
    const ok: boolean[] = [];
    const pre: string[] = [];
    for (let k = 0; k < 7; k++) {
      const tf = f.typeFail[k];
      ok[k] = f.typeOk[k] === true || (f.typeOk[k] === false && tf !== undefined);
      pre[k] = f.typeOk[k] === false && tf !== undefined ? `H.type(${pe}, ${JSON.stringify(tf[1])}, ${lit(msg.typeFailWithData('', tf[0], tf[1]))});\n` : '';
    }
    const numbers = !f.boundOutOfRange;
    const kind = (k: string, code: () => string): string => (k === skip ? '' : code());
    const str = kind('string', () => (ok[4] && stringsTranslate(f) ? pre[4] + stringErrors(f, x, pe) : guarded));
    const int = kind('int', () => (numbers && ok[2] && boundsTranslate(f, true) ? pre[2] + numberErrors(f, true, x, pe) : guarded));
    const float = numbers && f.typeOk[3] === true && boundsTranslate(f, false) ? numberErrors(f, false, x, pe) : guarded;
    const bool = kind('bool', () => (ok[1] && f.enumValues === undefined ? pre[1] : guarded));
    const arr = kind('array', () => (ok[5] && !f.sliceSlow && f.enumValues === undefined ? pre[5] + arrayErrors(f, x, path, pe) : guarded));
    const obj = kind('object', () => (ok[6] && !f.objectSlow && f.enumValues === undefined ? pre[6] + objectErrors(f, x, path, pe) : guarded));
    // null (and undefined): only the type and enum checks run, so the verdict is the node's constant.
    const nul = f.nullValid ? '' : slow;
    return [
      `switch (typeof ${x}) {`,
      `case 'string': {\n${str}\nbreak;\n}`,
      `case 'number':\nif (Number.isSafeInteger(${x}) && (${x} !== 0 || 1 / ${x} > 0)) {\n${int}\n} else {\n${float}\n}\nbreak;`,
      `case 'boolean': {\n${bool}\nbreak;\n}`,
      `case 'object':\nif (${x} === null) {\n${nul}\n} else if (Array.isArray(${x})) {\n${arr}\n} else if (isGoFloat(${x})) {\n${guarded}\n} else {\n${obj}\n}\nbreak;`,
      `case 'bigint': ${guarded}\nbreak;`,
      `default: ${nul}`,
      '}',
    ].join('\n');
  };

  const stringErrors = (f: NodeFacts<N>, x: string, pe: string): string => {
    const c: string[] = [];
    // stringValidator stops at its first failure.
    const chain: string[] = [];
    if (f.maxLength !== undefined) {
      const m = num(f.maxLength);
      chain.push(`if (${x}.length > ${m} && runeCount(${x}) > ${m}) H.tooLong(${pe}, ${x}, ${m}, ${lit(msg.tooLong('', f.maxLength))});`);
    }
    if (f.minLength !== undefined) {
      const m = num(f.minLength);
      chain.push(`if (${x}.length < ${m} || runeCount(${x}) < ${m}) H.tooShort(${pe}, ${x}, ${m}, ${lit(msg.tooShort('', f.minLength))});`);
    }
    if (f.pattern !== undefined) chain.push(`if (!${ref(f.pattern)}(${x})) H.pattern(${pe}, ${x}, ${lit(msg.pattern('', f.patternMsg))});`);
    if (chain.length > 0) c.push(chain.join('\nelse '));
    if (f.format !== undefined) c.push(`if (!${ref(f.format)}(${x})) H.format(${pe}, ${x}, ${lit(msg.typeFailMiddle(f.formatName))});`);
    if (f.stringEnum !== undefined) {
      c.push(`if (!${inEnum(x, f.stringEnum)}) H.enum(${pe}, ${x}, ${ref(f.enumValues)}, ${lit(msg.enum('', f.enumValues!))}, ${lit(enumDetail(f.enumValues!))});`);
    }
    return c.join('\n');
  };

  const numberErrors = (f: NodeFacts<N>, isInt: boolean, x: string, pe: string): string => {
    const c: string[] = [];
    if (isInt && f.numType === 'integer' && f.numFormat === 'int32') {
      c.push(`if (${x} < -2147483648 || ${x} > 2147483647) H.checked(${pe}, ${lit(msg.range('Checked', f.numType, f.numFormat, ''))});`);
    }
    if (f.multipleOf !== undefined) c.push(`if (${x} % ${num(f.multipleOf)} !== 0) H.multipleOf(${pe}, ${x}, ${lit(msg.multipleOf('', String(f.multipleOf)))});`);
    for (const [bound, excl, op, eqOp, fn] of [
      [f.minimum, f.exclusiveMinimum, '<', '<=', 'min'],
      [f.maximum, f.exclusiveMaximum, '>', '>=', 'max'],
    ] as const) {
      if (bound === undefined) continue;
      const b = isInt ? Math.trunc(bound) : bound;
      const text = isInt ? String(b) : goFloatString(b);
      c.push(`if (${x} ${excl ? eqOp : op} ${num(b)}) H.${fn}(${pe}, ${x}, ${lit(fn === 'min' ? (excl ? msg.minExc('', text) : msg.minInc('', text)) : excl ? msg.maxExc('', text) : msg.maxInc('', text))});`);
    }
    return c.join('\n');
  };

  const arrayErrors = (f: NodeFacts<N>, x: string, path: PathExpr, pe: string): string => {
    const c: string[] = [];
    // The pass reaches every array not handed to the detailed validator (which does not run
    // list-type checks): it runs their list-type checks, so that the caller knows whether the
    // list-type walk can be skipped.
    if (lists && f.listCheck !== undefined) c.push(`if (${ref(f.listCheck)}(${x})) T.listBad = true;`);
    if (f.items !== undefined && !trivial.has(fnOf(f.items))) {
      const i = `i${vars++}`;
      const el = `x${vars++}`;
      const body: string[] = [];
      report(f.items, el, path.index(i), body);
      c.push(`for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {\nconst ${el} = ${x}[${i}];\n${body.join('\n')}\n}`);
    }
    if (f.minItems !== undefined) c.push(`if (${x}.length < ${num(f.minItems)}) H.minItems(${pe}, ${x}.length, ${num(f.minItems)}, ${lit(msg.minItems('', f.minItems))});`);
    if (f.maxItems !== undefined) c.push(`if (${x}.length > ${num(f.maxItems)}) H.maxItems(${pe}, ${x}.length, ${num(f.maxItems)}, ${lit(msg.maxItems('', f.maxItems))});`);
    return c.join('\n');
  };

  const objectErrors = (f: NodeFacts<N>, x: string, path: PathExpr, pe: string): string => {
    const c: string[] = [];
    if (f.minProperties !== undefined || f.maxProperties !== undefined) {
      const n = `n${vars++}`;
      c.push(`{ const ${n} = Object.keys(${x}).length;`);
      if (f.minProperties !== undefined) c.push(`if (${n} < ${num(f.minProperties)}) H.tooFewProperties(${pe}, ${n}, ${num(f.minProperties)}, ${lit(msg.tooFewProperties('', f.minProperties))});`);
      if (f.maxProperties !== undefined) c.push(`if (${n} > ${num(f.maxProperties)}) H.tooManyProperties(${pe}, ${n}, ${num(f.maxProperties)}, ${lit(msg.tooManyProperties('', f.maxProperties))});`);
      c.push('}');
    }
    const k = `k${vars++}`;
    const el = `x${vars++}`;
    const apNode = f.additionalProperties;
    const apLive = apNode !== undefined && !trivial.has(fnOf(apNode));
    const cases: string[] = [];
    for (const [key, n] of f.properties) {
      const lit = JSON.stringify(key);
      const body: string[] = [];
      if (path.empty && key.startsWith('.')) {
        // A root property named '.x' would be named with a leading '.': the detailed node reports it.
        const id = fnOf(n);
        if (!trivial.has(id)) body.push(`if (!${id}(${el})) ${slowReport(n, el, lit)}`);
      } else {
        report(n, el, path.prop(key), body);
        if (body.length > 0 && key.includes(': ')) body.unshift('T.colonKey = true;');
      }
      if (body.length > 0) cases.push(`case ${lit}: {\nconst ${el} = ${x}[${k}];\n${body.join('\n')}\nbreak;\n}`);
      else if (apLive) cases.push(`case ${lit}: break;`);
    }
    if (apLive) {
      const body: string[] = [];
      if (path.empty) {
        // At the root an additionalProperties value is named '.k': the detailed node reports it.
        body.push(`if (!${fnOf(apNode)}(${el})) ${slowReport(apNode, el, `'.' + ${k}`)}`);
      } else {
        report(apNode, el, path.key(k), body);
        if (body.length > 0) body.unshift(`if (${k}.includes(': ')) T.colonKey = true;`);
      }
      cases.push(`default: {\nconst ${el} = ${x}[${k}];\n${body.join('\n')}\n}`);
    }
    // The detailed validator visits the same keys: for...in, properties first, else additionalProperties.
    if (cases.length > 0) c.push(`for (const ${k} in ${x}) switch (${k}) {\n${cases.join('\n')}\n}`);
    if (f.required !== undefined) {
      for (const r of f.required) {
        const colon = r.includes(': ') ? 'T.colonKey = true; ' : '';
        // Under a path known while generating, the error's name and message are literals too.
        const st = path.staticText();
        const report = st === undefined ? `H.required(${pe}, ${lit(r)})` : `H.requiredAt(${lit(`${st}.${r}`)}, ${lit(st === '' ? r : `${st}.${r}`)}, ${lit(msg.required(`${st}.${r}`))})`;
        c.push(`if (!${hasKey(x, r)}) { ${colon}${report}; }`);
      }
    }
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

  /** Whether a string's checks translate (an enum only when all its values are strings). */
  const stringsTranslate = (f: NodeFacts<N>): boolean => f.enumValues === undefined || f.stringEnum !== undefined;

  /** Whether a number's bound checks translate; `isInt`: for a safe integer. */
  const boundsTranslate = (f: NodeFacts<N>, isInt: boolean): boolean => {
    if (f.enumValues !== undefined) return false;
    if (f.boundOutOfRange) return true;
    if (!isInt && f.numType !== '' && f.numFormat !== '' && f.numFormat !== 'double') return false;
    if (f.multipleOf !== undefined && (!isInt || !Number.isSafeInteger(f.multipleOf) || f.multipleOf <= 0)) return false;
    if (!isInt) return true;
    return [f.minimum, f.maximum].every((b) => b === undefined || Math.abs(b) < TWO53);
  };

  const stringChecks = (f: NodeFacts<N>): string[] | undefined => {
    if (!stringsTranslate(f)) return undefined;
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
    if (f.stringEnum !== undefined) c.push(`if (!${inEnum('v', f.stringEnum)}) return false;`);
    return c;
  };

  /** Bound checks on a number v; `isInt`: v is a safe integer (kube-openapi truncates the bound). */
  const boundChecks = (f: NodeFacts<N>, isInt: boolean): string[] | undefined => {
    if (!boundsTranslate(f, isInt)) return undefined;
    if (f.boundOutOfRange) return ['return false;'];
    const c: string[] = [];
    if (isInt && f.numType === 'integer' && f.numFormat === 'int32') c.push('if (v < -2147483648 || v > 2147483647) return false;');
    if (f.multipleOf !== undefined) c.push(`if (v % ${num(f.multipleOf)} !== 0) return false;`);
    for (const [bound, excl, op, eqOp] of [
      [f.minimum, f.exclusiveMinimum, '<', '<='],
      [f.maximum, f.exclusiveMaximum, '>', '>='],
    ] as const) {
      if (bound === undefined) continue;
      if (isInt) {
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
    if (f.required !== undefined) for (const k of f.required) c.push(`if (!${hasKey('v', k)}) return fail(${id}, v, null);`);
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
  const rootReport: string[] = [];
  report(root, 'v', PathExpr.root(), rootReport, false);
  fns.push(`function report(v) {\n${rootReport.join('\n')}\n}`);
  const decls = refs.map((_, i) => `const R${i} = R[${i}];`).join('\n');
  // No value is a GoFloat before the process has made one (govalue.ts goFloatsMade). After that,
  // `v instanceof GoFloat` with GoFloat a variable is a generic instanceof (no constant to fold):
  // it costs more than the rest of a small object's check. A plain object is ruled out first by
  // its inherited constructor: a GoFloat's is GoFloat, and decoded data holds no functions, so no
  // own `constructor` property can equal Object.
  const src = `"use strict";\nconst fail = (id, v, k) => T.fail(id, v, k);\nconst isGoFloat = (v) => GF.any && v.constructor !== Object && v instanceof GoFloat;\n${decls}\n${fns.join('\n')}\nreturn [[${[...ids.values()].join(', ')}], report];`;
  // Every schema-derived value enters through R; the source holds only literals made safe above.
  type Made = [((v: unknown) => boolean)[], (v: unknown) => void];
  type Make = (g: typeof GoFloat, gf: typeof goFloatsMade, rc: typeof runeCount, t: FailTrail, h: ErrorSink, r: unknown[]) => Made;
  const [fast, reportFn] = (new Function('GoFloat', 'GF', 'runeCount', 'T', 'H', 'R', src) as Make)(GoFloat, goFloatsMade, runeCount, trail, sink, refs);
  const out: GeneratedChecks<N>['nodes'] = new Map();
  let i = 0;
  for (const n of ids.keys()) {
    out.set(n, { id: i, fast: fast[i]! });
    i++;
  }
  return { nodes: out, report: reportFn, listsFolded };
}

/** A value's path in the generated error pass: static text and variables, rendered as an expression. */
class PathExpr {
  private constructor(private readonly parts: readonly (string | { e: string })[]) {}
  /** The root: the empty path (its properties are named without a leading '.'). */
  static root(): PathExpr {
    return new PathExpr([]);
  }
  /** The path held by variable name (never empty). */
  static param(name: string): PathExpr {
    return new PathExpr([{ e: name }]);
  }
  /** Whether the path renders as '' (the root, or under properties named ''). */
  get empty(): boolean {
    return this.parts.every((p) => p === '');
  }
  /** objectValidator's property name: joined with '.' unless the path is empty. */
  prop(k: string): PathExpr {
    return new PathExpr([...this.parts, this.empty ? k : '.' + k]);
  }
  /** An additionalProperties key held by variable name: always joined with '.'. */
  key(name: string): PathExpr {
    return new PathExpr([...this.parts, '.', { e: name }]);
  }
  /** An element whose index is held by variable name. */
  index(name: string): PathExpr {
    return new PathExpr([...this.parts, '[', { e: name }, ']']);
  }
  /** The path's text when it holds no variables (known while generating), else undefined. */
  staticText(): string | undefined {
    let s = '';
    for (const p of this.parts) {
      if (typeof p !== 'string') return undefined;
      s += p;
    }
    return s;
  }
  /** The path as a JavaScript expression of type string. */
  render(): string {
    const out: string[] = [];
    let lit = '';
    for (const p of this.parts) {
      if (typeof p === 'string') lit += p;
      else {
        if (lit !== '') out.push(JSON.stringify(lit));
        lit = '';
        out.push(p.e);
      }
    }
    if (lit !== '' || out.length === 0) out.push(JSON.stringify(lit));
    // A variable first is a string already (a path, or a key), so `+` concatenates.
    return out.join(' + ');
  }
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
