/**
 * The OpenAPI schema validator for custom resources, compiled once per schema into closures.
 *
 * It reproduces kube-openapi's `validate.SchemaValidator` as Kubernetes configures it
 * (apiextensions-apiserver pkg/apiserver/validation): the same checks in the same order, the same
 * messages, the same quirks (integral floats pass `integer`, the int64/int32 range checks, enum
 * matching through Go conversions, anyOf/oneOf reporting the failures of the alternative that
 * matched most), and the format stripping by compatibility version. Compiling walks the schema
 * once into one closure per node (the detailed validator: the reference for every behaviour),
 * which keeps the current path as a stack of segments and renders a path string only when an error
 * is reported.
 *
 * Two generated passes (fastpath.ts) stand in front of it: an error pass that reports what the
 * detailed nodes would, in one inlined walk, handing a value over to them wherever it does not
 * translate a case, and a fast "valid?" check per node. The detailed nodes consult the fast check
 * of each value before validating it in full, so that only the values on the way to an error are
 * walked in detail (updates, which ratchet, run the detailed nodes from the root). Their
 * MatchCounts (read inside anyOf/oneOf/not) are exact only where the fast check is not consulted
 * (`Ctx.sub`).
 */
import { compileRegex, RegexSyntaxError } from '../../cel/index.ts';
import type { FieldError } from '../../apimachinery/index.ts';
import { errorString } from '../../apimachinery/index.ts';
import { GoFloat, goQuote } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../types.ts';
import { deepEqualJSON, goKind, isObject, type GoKind } from '../value.ts';
import { effectiveFormat, formatCheckers, normalizeFormat, type FormatChecker } from './formats.ts';
import { listTypeViolation } from '../listtype.ts';
import { compileAsciiPattern } from './pattern-dfa.ts';
import { FailTrail, generateFastChecks, runeCount, type ErrorSink, type NodeFacts } from './fastpath.ts';
import { fv, msg as messages, toFieldError as toFieldErrorOf, type OpenAPIError } from './messages.ts';

// Imported names used on the error path are bound once: under the CommonJS interop the project
// runs with (tsx), every use of an imported name is a getter call.
const msg = messages;
const goQ = goQuote;
const toFieldError = toFieldErrorOf;

export interface ValidatorOptions {
  /** Kubernetes compatibility version ("1.34") choosing the supported formats; default current. */
  compatibilityVersion?: string;
  /** false: never consult the generated fast pass (tests compare the two). Default true. */
  fastPath?: boolean;
  /**
   * Fold the list-type set/map checks (listtype.ts, on the same schema) into the fast pass, for
   * validateResource. Default false.
   */
  listTypes?: boolean;
}

/** A compiled schema validator. */
export interface SchemaValidator {
  /** The raw kube-openapi errors for a value (Result.Errors), deduplicated by message. */
  validateRaw(value: unknown): OpenAPIError[];
  /** ValidateCustomResource(fldPath, value): field errors as Kubernetes prints them. */
  validate(value: unknown, basePath?: string): FieldError[];
  /**
   * ValidateCustomResourceUpdate with ratcheting (CRDValidationRatcheting): errors in values that
   * are unchanged from `old` (correlated by field name, and by key in list-type map lists) are
   * not reported.
   */
  validateUpdate(value: unknown, old: unknown, basePath?: string): FieldError[];
  /** validate(value), for a whole object at the root; listTypesClean() then says more. */
  validateResource(value: unknown): FieldError[];
  /**
   * Whether, for the value of the last validateResource call, the list-type set/map checks are
   * known to pass: with options.listTypes, true when validateListSetsAndMaps is known to report
   * nothing (no repeated set item or map key): the error pass ran the list-type checks on every
   * array it reached and handed no value with lists to the detailed validator; false when they
   * still have to be run. (A flag rather than a second result: the call is on every write.)
   */
  listTypesClean(): boolean;
}

const enum Seg {
  /** objectValidator property: joined with '.' unless the path is empty */
  Prop,
  /** additionalProperties: always joined with '.' */
  Dot,
  /** array index */
  Index,
  /** a whole rendered path, as the first segment (the generated error pass hands over to a node) */
  Raw,
}

/** The per-call state: collected errors and the current path as a stack of segments. */
/** run's answer for a valid value, shared (frozen): the public calls answer a list of their own. */
const noRawErrors: OpenAPIError[] = Object.freeze([]) as unknown as OpenAPIError[];

/** No correlated old value: ratcheting does not apply below this point. */
const NONE: unique symbol = Symbol('no old value');

class Ctx {
  errs: OpenAPIError[] = [];
  /** The correlated old value of the current node on update (ratcheting), or NONE. */
  old: unknown = NONE;
  /**
   * Above zero while MatchCounts are needed (inside anyOf/oneOf/not alternatives) or while the
   * fast pass's own fallback runs: nodes then validate in full instead of consulting the fast pass.
   */
  sub = 0;
  /** The next node called is known to be invalid: it skips its fast check. */
  knownBad = false;
  /** Where this validation's fast checks failed (shared with the generated code). */
  trail: FailTrail | undefined;
  kinds: Seg[] = [];
  vals: (string | number)[] = [];
  depth = 0;
  push(kind: Seg, v: string | number): void {
    this.kinds[this.depth] = kind;
    this.vals[this.depth] = v;
    this.depth++;
  }
  pop(): void {
    this.depth--;
  }
  /** Some key on a reported path contains `: ` (see toFieldErrors). */
  colonKey = false;
  /** The last path() and the same without kube-openapi's leading '.' (the field path). */
  lastPath = '';
  lastField = '';
  /** The current path (kube-openapi's name of the value). */
  path(): string {
    let s = '';
    // The field path is s without a leading '.': known while building, so that no one has to
    // read the (concatenated, not yet flat) string to find out.
    let lead = false;
    for (let i = 0; i < this.depth; i++) {
      const v = this.vals[i]!;
      switch (this.kinds[i]) {
        case Seg.Prop:
          if (s === '') {
            s = v as string;
            lead = s.startsWith('.');
          } else s = `${s}.${v}`;
          break;
        case Seg.Dot:
          if (s === '') lead = true;
          s = `${s}.${v}`;
          break;
        case Seg.Raw:
          s = v as string;
          lead = s.startsWith('.');
          continue;
        default:
          s = `${s}[${v}]`;
      }
      if (typeof v === 'string' && v.includes(': ')) this.colonKey = true;
    }
    this.lastPath = s;
    this.lastField = lead ? s.slice(1) : s;
    return s;
  }
  err(e: OpenAPIError): void {
    if (e.name === this.lastPath && e.name !== '') e.field = this.lastField;
    this.errs.push(e);
  }
}

/** A compiled node: validates v at the current path and returns kube-openapi's MatchCount. */
type Node = (v: unknown, ctx: Ctx) => number;

/** Kinds as small integers for the hot path (order of KIND_NAMES). */
const KIND_NAMES: readonly GoKind[] = ['null', 'bool', 'int', 'float', 'string', 'array', 'object'];
const KIND_CODE: Record<GoKind, number> = { null: 0, bool: 1, int: 2, float: 3, string: 4, array: 5, object: 6 };

/** goKind as a code: typeof dispatch without building strings. */
function kindCode(v: unknown): number {
  switch (typeof v) {
    case 'string':
      return 4;
    case 'number':
      return Number.isSafeInteger(v) && !Object.is(v, -0) ? 2 : 3;
    case 'boolean':
      return 1;
    case 'bigint':
      return 2;
    case 'object':
      if (v === null) return 0;
      if (Array.isArray(v)) return 5;
      return v instanceof GoFloat ? 3 : 6;
    default:
      return 0;
  }
}

const goTypeName: Record<GoKind, string> = {
  null: 'null',
  bool: 'boolean',
  int: 'integer',
  float: 'number',
  string: 'string',
  array: 'array',
  object: 'object',
};

const MAX_JSON_FLOAT = 9007199254740991;

/** swag.IsFloat64AJSONInteger */
function isFloat64AJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || f < -MAX_JSON_FLOAT || f > MAX_JSON_FLOAT) return false;
  if (Number.isInteger(f)) return true;
  if (f < 0) return false; // Go's uint64(f) of a negative float is far off: relative error > epsilon
  const g = Math.trunc(f);
  const diff = Math.abs(f - g);
  if (g === 0) return diff < 1e-9 * 5e-324;
  return diff / Math.min(f + g, Number.MAX_VALUE) < 1e-9;
}

function asFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof GoFloat) return v.value;
  return 0;
}

function asBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  return BigInt(Math.trunc(asFloat(v)));
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** Go's int64(f) conversion (saturating at the amd64 "indefinite" value for out-of-range floats). */
function int64Of(f: number): bigint {
  if (!Number.isFinite(f) || f >= 9223372036854775808 || f < -9223372036854775808) return I64_MIN;
  return BigInt(Math.trunc(f));
}

/** IsValueValidAgainstRange: true when a value (int or float kind) does not fit the type/format. */
function rangeBad(v: unknown, kind: GoKind, typeName: string, format: string): boolean {
  if (typeName === 'integer') {
    if (typeof v === 'number' && kind === 'int') return format === 'int32' && (v < -2147483648 || v > 2147483647);
    let n: bigint;
    if (kind === 'int') n = asBigInt(v);
    else {
      const f = asFloat(v);
      if (!Number.isInteger(f) || Math.abs(f) > 1e300) return true;
      n = BigInt(f);
    }
    if (format === 'int32') return n < -2147483648n || n > 2147483647n;
    return n < I64_MIN || n > I64_MAX;
  }
  if (format === 'float' || format === 'float32') return !Number.isFinite(Math.fround(asFloat(v)));
  return false;
}


/** Go's string(rune(i)). */
function runeString(i: bigint): string {
  if (i < 0n || i > 0x10ffffn || (i >= 0xd800n && i <= 0xdfffn)) return '\ufffd';
  return String.fromCodePoint(Number(i));
}

/**
 * basicCommonValidator's enum match: data converted to the enum value's Go type when convertible,
 * then reflect.DeepEqual.
 */
function enumMatches(data: unknown, dk: GoKind, e: unknown): boolean {
  const ek = goKind(e);
  if (dk === 'null' || ek === 'null') return false;
  switch (ek) {
    case 'int':
      if (dk === 'int') return asBigInt(data) === asBigInt(e);
      if (dk === 'float') return int64Of(asFloat(data)) === asBigInt(e);
      return false;
    case 'float':
      if (dk === 'int' || dk === 'float') return asFloat(data) === asFloat(e);
      return false;
    case 'string':
      if (dk === 'string') return data === e;
      if (dk === 'int') return runeString(asBigInt(data)) === e;
      return false;
    case 'bool':
      return dk === 'bool' && data === e;
    default:
      return dk === ek && deepEqualJSON(data, e);
  }
}

interface Env {
  version?: string;
  /** What the fast pass (fastpath.ts) needs to know of each compiled node. */
  facts: Map<Node, NodeFacts<Node>>;
  /** Hands each node its generated fast check and trail id once the whole schema is compiled. */
  bind: Map<Node, (fast: (v: unknown) => boolean, id: number) => void>;
  /** The context of the validation under way (the generated error pass reports into it). */
  current: Ctx | undefined;
  /** Compiled nodes by schema content: equal subschemas share one node, and one generated check. */
  nodes: Map<string, Node>;
  keys: SchemaKeys;
}

/**
 * Content keys of schema nodes, built bottom-up: a node's key is its own JSON with each subschema
 * replaced by that subschema's number, so each node's JSON is read once and two subschemas get
 * the same number exactly when their JSON is equal (keys in the same order). Real CRDs repeat
 * large subschemas (a container, a pod template, a selector) many times over.
 */
class SchemaKeys {
  private readonly numbers = new Map<string, number>();
  private readonly memo = new WeakMap<object, string>();

  key(s: JSONSchemaProps): string {
    let k = this.memo.get(s);
    if (k !== undefined) return k;
    const sub = (x: unknown): unknown => (x !== null && typeof x === 'object' && !Array.isArray(x) ? { '\u0000': this.number(x as JSONSchemaProps) } : x);
    const subs = (m: unknown, each: (x: unknown) => unknown): unknown => {
      if (m === null || typeof m !== 'object' || Array.isArray(m)) return m;
      const o: Record<string, unknown> = {};
      for (const [name, x] of Object.entries(m)) o[name] = each(x);
      return o;
    };
    const shallow: Record<string, unknown> = {};
    for (const [name, v] of Object.entries(s)) {
      switch (name) {
        case 'properties':
        case 'patternProperties':
        case 'definitions':
          shallow[name] = subs(v, sub);
          break;
        case 'dependencies':
          shallow[name] = subs(v, (d) => (Array.isArray(d) ? d : sub(d)));
          break;
        case 'items':
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
          shallow[name] = Array.isArray(v) ? v.map(sub) : sub(v);
          break;
        case 'additionalProperties':
        case 'additionalItems':
        case 'not':
          shallow[name] = sub(v);
          break;
        default:
          shallow[name] = v;
      }
    }
    k = JSON.stringify(shallow);
    this.memo.set(s, k);
    return k;
  }

  private number(s: JSONSchemaProps): number {
    const k = this.key(s);
    let n = this.numbers.get(k);
    if (n === undefined) this.numbers.set(k, (n = this.numbers.size));
    return n;
  }
}

/** The generated error pass's reporting: the errors the nodes below would push, into env.current. */
function errorSink(env: Env): ErrorSink {
  // The error pass never names a value with a leading '.' (it hands such values to the detailed
  // nodes), so each name is its own field path. Each error is built whole, its field in the
  // literal rather than added after: one object shape per kind of error. Every message but a
  // format's is the name and a tail the generated code knows.
  const push = (e: OpenAPIError) => {
    env.current!.errs.push(e);
  };
  return {
    tooLong: (name, v, max, tail) => push({ code: 'TooLong', name, field: name, value: v, valid: max, message: name + tail }),
    tooShort: (name, v, min, tail) => push({ code: 'TooShort', name, field: name, value: v, valid: min, message: name + tail }),
    pattern: (name, v, tail) => push({ code: 'Pattern', name, field: name, value: v, message: name + tail }),
    format: (name, v, mid) => push({ code: 'InvalidType', name, field: name, value: v, message: name + mid + goQ(v) }),
    type: (name, data, tail) => push({ code: 'InvalidType', name, field: name, value: data, message: name + tail }),
    enum: (name, v, values, tail, detail) => push({ code: 'Enum', name, field: name, value: v, values, detail, message: name + tail }),
    checked: (name, head) => push({ code: 'Composite', name: '', value: undefined, message: head + name }),
    multipleOf: (name, v, tail) => push({ code: 'MultipleOf', name, field: name, value: v, message: name + tail }),
    min: (name, v, tail) => push({ code: 'Min', name, field: name, value: v, message: name + tail }),
    max: (name, v, tail) => push({ code: 'Max', name, field: name, value: v, message: name + tail }),
    minItems: (name, n, min, tail) => push({ code: 'MinItems', name, field: name, value: n, valid: min, message: name + tail }),
    maxItems: (name, n, max, tail) => push({ code: 'MaxItems', name, field: name, value: n, valid: max, message: name + tail }),
    tooFewProperties: (name, n, min, tail) => push({ code: 'TooFewProperties', name, field: name, value: n, valid: min, message: name + tail }),
    tooManyProperties: (name, n, max, tail) => push({ code: 'TooManyProperties', name, field: name, value: n, valid: max, message: name + tail }),
    required: (p, k) => {
      const name = `${p}.${k}`;
      env.current!.errs.push({ code: 'Required', name, field: p === '' ? k : name, value: undefined, message: msg.required(name) });
    },
    requiredAt: (name, field, message) => {
      env.current!.errs.push({ code: 'Required', name, field, value: undefined, message });
    },
  };
}

/** A context for the fast pass's exact fallbacks, reused: they never nest. */
let scratch: Ctx | undefined;

/** The detailed node's verdict on v: no error reported. */
function slowValid(node: Node, v: unknown): boolean {
  const ctx = scratch ?? new Ctx();
  scratch = undefined;
  ctx.errs = [];
  ctx.depth = 0;
  ctx.old = NONE;
  ctx.sub = 1; // the fast check is what called us
  try {
    node(v, ctx);
    return ctx.errs.length === 0;
  } finally {
    ctx.errs = [];
    scratch = ctx;
  }
}

/** A value of each kind code, for type checks that depend on the kind alone. */
const KIND_SAMPLES: readonly unknown[] = [null, true, 1, 0.5, 'a', [], {}];

/** Compile a schema (JSONSchemaProps, structural or not) into a validator. */
export function compileValidator(schema: JSONSchemaProps | null | undefined, opts: ValidatorOptions = {}): SchemaValidator {
  const env: Env = { version: opts.compatibilityVersion, facts: new Map(), bind: new Map(), current: undefined, nodes: new Map(), keys: new SchemaKeys() };
  const root: Node | undefined = schema === null || schema === undefined ? undefined : compileNode(schema, env);
  // Every node first asks its generated check whether its value is valid (the usual case), so the
  // detailed walk only descends where an error is.
  const trail = new FailTrail();
  let rootReport: ((v: unknown) => void) | undefined;
  let listsFolded = false;
  if (root !== undefined && opts.fastPath !== false) {
    // The generator recurses over the schema: for a schema nested deeper than the stack allows
    // it gives up, and the detailed nodes validate alone.
    let g: ReturnType<typeof generateFastChecks<Node>> | undefined;
    try {
      g = generateFastChecks(root, (n) => env.facts.get(n)!, trail, errorSink(env), opts.listTypes === true);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
    if (g !== undefined) {
      listsFolded = g.listsFolded;
      rootReport = g.report;
      for (const [n, f] of g.nodes) env.bind.get(n)!(f.fast, f.id);
    }
  }
  env.facts.clear();
  env.bind.clear();
  env.nodes.clear();
  // One context is kept for reuse: validation is synchronous, and a re-entrant call (a validator
  // used while it runs) simply gets a fresh one.
  let spare: Ctx | undefined = new Ctx();
  /**
   * Some key on a path the last run reported contains `: ` (the detailed nodes and the error pass
   * note it from the keys themselves, which are flat strings: reading the paths would flatten them).
   */
  let colonKey = false;
  const run = (value: unknown, old: unknown): OpenAPIError[] => {
    if (root === undefined) return [];
    const ctx = spare ?? new Ctx();
    spare = undefined;
    ctx.old = old;
    ctx.depth = 0;
    ctx.sub = 0;
    ctx.knownBad = false;
    ctx.colonKey = false;
    ctx.trail = trail;
    trail.reset();
    trail.colonKey = false;
    const outer = env.current;
    env.current = ctx;
    try {
      // Without an old value the generated pass reports (the detailed nodes where it cannot).
      if (old === NONE && rootReport !== undefined) rootReport(value);
      else root(value, ctx);
    } catch (e) {
      ctx.errs = [];
      throw e;
    } finally {
      env.current = outer;
      ctx.old = NONE;
      trail.reset();
      spare = ctx;
    }
    const errs = ctx.errs;
    // The context keeps its (empty) list: a valid value allocates no list here.
    if (errs.length === 0) return noRawErrors;
    ctx.errs = [];
    colonKey = ctx.colonKey || trail.colonKey;
    if (old !== NONE && deepEqualJSON(value, old)) return [];
    if (errs.length < 2) return errs;
    // Result.AddErrors drops an error whose message was already reported. Messages of different
    // lengths compare without reading them, so a few errors are compared pairwise.
    if (errs.length <= 16) {
      if (!repeatedMessage(errs)) return errs;
      const out: OpenAPIError[] = [];
      outer: for (const e of errs) {
        for (const o of out) if (o.message === e.message) continue outer;
        out.push(e);
      }
      return out;
    }
    const seen = new Set<string>();
    return errs.filter((e) => (seen.has(e.message) ? false : (seen.add(e.message), true)));
  };
  const validateRaw = (value: unknown) => {
    const errs = run(value, NONE);
    return errs === noRawErrors ? [] : errs;
  };
  let listsClean = false;
  const toFieldErrors = (raw: OpenAPIError[], basePath: string): FieldError[] => {
    if (raw.length === 0) return [];
    const fes: FieldError[] = new Array(raw.length);
    for (let i = 0; i < raw.length; i++) fes[i] = toFieldError(basePath, raw[i]!);
    if (fes.length === 1 || (!colonKey && !basePath.includes(': ') && !sameField(fes))) return fes;
    // The field errors are deduplicated as Kubernetes prints them.
    const out: FieldError[] = [];
    const seen = new Set<string>();
    for (const fe of fes) {
      const k = errorString(fe);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(fe);
      }
    }
    return out;
  };
  return {
    validateRaw,
    validateResource: (value) => {
      // The error pass runs the list-type checks wherever it goes (fastpath.ts, FailTrail.listBad).
      trail.listBad = false;
      trail.listsUnknown = false;
      const errors = toFieldErrors(run(value, NONE), '');
      listsClean = listsFolded && !trail.listBad && !trail.listsUnknown;
      return errors;
    },
    listTypesClean: () => listsClean,
    validate: (value, basePath = '') => toFieldErrors(run(value, NONE), basePath),
    validateUpdate: (value, old, basePath = '') => toFieldErrors(run(value, old === undefined ? NONE : old), basePath),
  };
}

/** Whether two of the (few) errors have the same message. */
function repeatedMessage(errs: readonly OpenAPIError[]): boolean {
  for (let i = 1; i < errs.length; i++) {
    const m = errs[i]!.message;
    for (let j = 0; j < i; j++) if (errs[j]!.message === m) return true;
  }
  return false;
}

/**
 * Whether two of the errors have the same rendered field. `field: body` is split unambiguously at
 * the first `: ` when no rendered field contains one (the caller knows), so errors whose rendered
 * fields all differ print differently and need no rendering to be deduplicated.
 */
function sameField(fes: readonly FieldError[]): boolean {
  const n = fes.length;
  if (n > 16) {
    const fields = new Set<string>();
    for (const fe of fes) {
      const f = fe.field === '' ? '<nil>' : fe.field;
      if (fields.has(f)) return true;
      fields.add(f);
    }
    return false;
  }
  for (let i = 1; i < n; i++) {
    const a = fes[i]!.field === '' ? '<nil>' : fes[i]!.field;
    for (let j = 0; j < i; j++) if (a === (fes[j]!.field === '' ? '<nil>' : fes[j]!.field)) return true;
  }
  return false;
}

/** CorrelatedObject.Index for list-type map (MapList.Get): the first old element with the same keys. */
function correlateMapElement(v: unknown, olds: readonly unknown[], keys: readonly string[]): unknown {
  if (!isObject(v)) return NONE;
  for (const k of keys) if (!Object.hasOwn(v, k) || !isScalarKey(v[k])) return NONE;
  outer: for (const o of olds) {
    if (!isObject(o)) continue;
    for (const k of keys) {
      if (!Object.hasOwn(o, k) || !isScalarKey(o[k]) || !deepEqualJSON(v[k], o[k])) continue outer;
    }
    return o;
  }
  return NONE;
}

/** Key values MapList accepts: bool, number or string (not null, not compound). */
function isScalarKey(x: unknown): boolean {
  const k = goKind(x);
  return k === 'bool' || k === 'int' || k === 'float' || k === 'string';
}

/** Runs a sub-schema into its own error list (a separate kube-openapi Result). */
function runSub(node: Node, v: unknown, ctx: Ctx): { errs: OpenAPIError[]; count: number } {
  const saved = ctx.errs;
  const errs: OpenAPIError[] = [];
  ctx.errs = errs;
  ctx.sub++;
  try {
    const count = node(v, ctx);
    return { errs, count };
  } finally {
    ctx.sub--;
    ctx.errs = saved;
  }
}

/**
 * Validates a child value (property, additionalProperties entry or list element) with ratcheting:
 * when the child has a correlated old value and is unchanged, its errors are dropped
 * (RatchetingSchemaValidator: errors become warnings, which Kubernetes does not report).
 */
function descend(node: Node, v: unknown, childOld: unknown, kind: Seg, seg: string | number, ctx: Ctx): number {
  const parentOld = ctx.old;
  ctx.old = childOld;
  ctx.push(kind, seg);
  const before = ctx.errs.length;
  const c = node(v, ctx);
  if (childOld !== NONE && ctx.errs.length > before && deepEqualJSON(v, childOld)) ctx.errs.length = before;
  ctx.pop();
  ctx.old = parentOld;
  return c;
}

/** The old value correlated with property k (CorrelatedObject.Key), or NONE. */
function oldForKey(ctx: Ctx, k: string): unknown {
  const o = ctx.old;
  if (o === NONE || !isObject(o) || !Object.hasOwn(o, k)) return NONE;
  // apiVersion and kind at the root are never ratcheted.
  if (ctx.depth === 0 && (k === 'apiVersion' || k === 'kind')) return NONE;
  return o[k];
}

function compileNode(s: JSONSchemaProps, env: Env): Node {
  const key = env.keys.key(s);
  let node = env.nodes.get(key);
  if (node === undefined) env.nodes.set(key, (node = compileNewNode(s, env)));
  return node;
}

function compileNewNode(s: JSONSchemaProps, env: Env): Node {
  // ConvertJSONSchemaProps: type -> [type]; int-or-string -> [integer, string]; formats stripped.
  // spec.Schema's type is a string or a list (only a string in CRDs).
  const rawType = s.type as string | string[] | undefined;
  const types: string[] =
    s['x-kubernetes-int-or-string'] === true ? ['integer', 'string'] : Array.isArray(rawType) ? rawType : rawType ? [rawType] : [];
  const format = effectiveFormat(s.format ?? '', types, env.version);
  const nullable = s.nullable === true;
  const typeApplies = types.length > 0 || format !== '';
  const hasNumeric = types.includes('number') || types.includes('integer');
  const hasInteger = types.includes('integer');
  const hasNumber = types.includes('number');
  const typeList = types.join(',');

  // The generated fast check of this node and its id in the fail trail (bound after compiling).
  let fastValid: (v: unknown) => boolean = () => false;
  let fastId = -1;

  // Kinds a value may have without any further check (the common, valid case).
  let fastMask = 0;
  if (format === '') {
    for (const t of types) {
      if (t === 'boolean') fastMask |= 1 << KIND_CODE.bool;
      else if (t === 'integer') fastMask |= 1 << KIND_CODE.int;
      else if (t === 'number') fastMask |= (1 << KIND_CODE.float) | (1 << KIND_CODE.int);
      else if (t === 'string' || t === 'array' || t === 'object') fastMask |= 1 << KIND_CODE[t];
    }
  }
  /** typeValidator.Validate: returns its MatchCount (1 when valid, 0 on error). */
  /** typeValidator's failure for v: the type it names and the data type it reports, or undefined. */
  const typeFailure = (v: unknown, kind: GoKind): readonly [string, string] | undefined => {
    if (kind === 'null') return types.length > 0 && !types.includes('null') && !nullable ? [typeList, 'null'] : undefined;
    const schType = goTypeName[kind];
    const dataFormat = kind === 'int' ? 'int64' : kind === 'float' ? 'float64' : '';
    const isFloatInt = kind === 'float' && isFloat64AJSONInteger(asFloat(v)) && hasInteger;
    const isIntFloat = kind === 'int' && hasNumber;
    const stringish = kind === 'string' || kind === 'array';
    if (!stringish && format !== '' && !(types.includes(schType) || dataFormat === format || isFloatInt || isIntFloat)) return [format, dataFormat];
    if (!hasNumeric && format !== '' && stringish) return undefined;
    if (!(types.includes(schType) || isFloatInt || isIntFloat)) return [typeList, schType];
    return undefined;
  };
  const checkType = (v: unknown, kind: GoKind, ctx: Ctx): number => {
    if ((fastMask & (1 << KIND_CODE[kind])) !== 0) return 1;
    const f = typeFailure(v, kind);
    if (f === undefined) return 1;
    const name = ctx.path();
    ctx.err({ code: 'InvalidType', name, value: f[1], message: msg.typeFailWithData(name, f[0], f[1]) });
    return 0;
  };

  // --- string validator
  const maxLength = s.maxLength ?? undefined;
  const minLength = s.minLength ?? undefined;
  const pattern = s.pattern ?? '';
  let patternTest: ((x: string) => boolean) | undefined;
  let patternMsg = pattern;
  if (pattern !== '') {
    try {
      const r = compileRegex(pattern);
      // The DFA where it answers (an ASCII text, a pattern it translates), RE2 otherwise.
      const dfa = compileAsciiPattern(pattern);
      patternTest = dfa === undefined ? (x) => r.test(x) : (x) => dfa(x) ?? r.test(x);
    } catch (e) {
      if (!(e instanceof RegexSyntaxError)) throw e;
      patternTest = () => false;
      patternMsg = `${pattern}, but pattern is invalid: ${e.message}`;
    }
  }
  const hasStringChecks = maxLength !== undefined || minLength !== undefined || patternTest !== undefined;
  const checkString = (v: string, ctx: Ctx): void => {
    // stringValidator returns at the first failure.
    if (maxLength !== undefined && v.length > maxLength && runeCount(v) > maxLength) {
      const name = ctx.path();
      ctx.err({ code: 'TooLong', name, value: v, valid: maxLength, message: msg.tooLong(name, maxLength) });
      return;
    }
    if (minLength !== undefined && (v.length < minLength || runeCount(v) < minLength)) {
      const name = ctx.path();
      ctx.err({ code: 'TooShort', name, value: v, valid: minLength, message: msg.tooShort(name, minLength) });
      return;
    }
    if (patternTest !== undefined && !patternTest(v)) {
      const name = ctx.path();
      ctx.err({ code: 'Pattern', name, value: v, message: msg.pattern(name, patternMsg) });
    }
  };

  // --- format validator (applies to strings whose format is a known strfmt name)
  const formatCheck: FormatChecker | undefined = format !== '' ? formatCheckers.get(normalizeFormat(format)) : undefined;

  // --- number validator
  const numType = types.length === 1 && (types[0] === 'integer' || types[0] === 'number') ? types[0] : '';
  const numFormat =
    numType === 'integer' ? (format === 'int32' || format === 'int64' ? format : '') : numType === 'number' ? (format === 'float' || format === 'double' ? format : '') : '';
  const multipleOf = s.multipleOf ?? undefined;
  const maximum = s.maximum ?? undefined;
  const minimum = s.minimum ?? undefined;
  const exclMax = s.exclusiveMaximum === true;
  const exclMin = s.exclusiveMinimum === true;
  const hasBounds = multipleOf !== undefined || maximum !== undefined || minimum !== undefined;
  const rangeErr = (v: unknown, kind: GoKind, prefix: string, ctx: Ctx): boolean => {
    if (!rangeBad(v, kind, numType, numFormat)) return false;
    ctx.err({ code: 'Composite', name: '', value: undefined, message: msg.range(prefix, numType, numFormat, ctx.path()) });
    return true;
  };
  const checkNumber = (v: unknown, kind: GoKind, ctx: Ctx): void => {
    if (numType !== '') rangeErr(v, kind, 'Checked', ctx);
    if (!hasBounds) return;
    const isInt = kind === 'int';
    const data = asFloat(v);
    if (multipleOf !== undefined) {
      const b = rangeErr(multipleOf, 'float', 'MultipleOf', ctx);
      if (!b && isInt && typeof v === 'number' && Number.isSafeInteger(multipleOf) && multipleOf > 0) {
        if (v % multipleOf !== 0) {
          const path = ctx.path();
          ctx.err({ code: 'MultipleOf', name: path, value: v, message: msg.multipleOf(path, String(multipleOf)) });
        }
      } else if (!b && isInt) {
        const f = int64Of(multipleOf);
        if (f <= 0n) {
          const path = ctx.path();
          ctx.err({ code: 'MultipleOfMustBePositive', name: path, value: f, message: msg.multipleOfMustBePositive(path, String(f)) });
        } else if (asBigInt(v) % f !== 0n) {
          const path = ctx.path();
          ctx.err({ code: 'MultipleOf', name: path, value: v, message: msg.multipleOf(path, String(f)) });
        }
      } else if (multipleOf <= 0) {
        const path = ctx.path();
        ctx.err({ code: 'MultipleOfMustBePositive', name: path, value: multipleOf, message: msg.multipleOfMustBePositive(path, fv(multipleOf)) });
      } else {
        const mult = multipleOf < 1 ? (1 / multipleOf) * data : data / multipleOf;
        if (!isFloat64AJSONInteger(mult)) {
          const path = ctx.path();
          ctx.err({ code: 'MultipleOf', name: path, value: v, message: msg.multipleOf(path, fv(multipleOf)) });
        }
      }
    }
    if (minimum !== undefined) {
      const b = rangeErr(minimum, 'float', 'Minimum boundary', ctx);
      if (!b && isInt && typeof v === 'number' && Math.abs(minimum) < 9007199254740992) {
        const m = Math.trunc(minimum);
        if ((!exclMin && v < m) || (exclMin && v <= m)) {
          const path = ctx.path();
          ctx.err({ code: 'Min', name: path, value: v, message: exclMin ? msg.minExc(path, String(m)) : msg.minInc(path, String(m)) });
        }
      } else if (!b && isInt) {
        const m = int64Of(minimum);
        const d = asBigInt(v);
        if ((!exclMin && d < m) || (exclMin && d <= m)) {
          const path = ctx.path();
          ctx.err({ code: 'Min', name: path, value: v, message: exclMin ? msg.minExc(path, String(m)) : msg.minInc(path, String(m)) });
        }
      } else if ((!exclMin && data < minimum) || (exclMin && data <= minimum)) {
        const path = ctx.path();
        ctx.err({ code: 'Min', name: path, value: v, message: exclMin ? msg.minExc(path, fv(minimum)) : msg.minInc(path, fv(minimum)) });
      }
    }
    if (maximum !== undefined) {
      const b = rangeErr(maximum, 'float', 'Maximum boundary', ctx);
      if (!b && isInt && typeof v === 'number' && Math.abs(maximum) < 9007199254740992) {
        const m = Math.trunc(maximum);
        if ((!exclMax && v > m) || (exclMax && v >= m)) {
          const path = ctx.path();
          ctx.err({ code: 'Max', name: path, value: v, message: exclMax ? msg.maxExc(path, String(m)) : msg.maxInc(path, String(m)) });
        }
      } else if (!b && isInt) {
        const m = int64Of(maximum);
        const d = asBigInt(v);
        if ((!exclMax && d > m) || (exclMax && d >= m)) {
          const path = ctx.path();
          ctx.err({ code: 'Max', name: path, value: v, message: exclMax ? msg.maxExc(path, String(m)) : msg.maxInc(path, String(m)) });
        }
      } else if ((!exclMax && data > maximum) || (exclMax && data >= maximum)) {
        const path = ctx.path();
        ctx.err({ code: 'Max', name: path, value: v, message: exclMax ? msg.maxExc(path, fv(maximum)) : msg.maxInc(path, fv(maximum)) });
      }
    }
  };

  // --- slice validator
  const items = s.items;
  const itemNode: Node | undefined = items && !Array.isArray(items) ? compileNode(items, env) : undefined;
  const tupleNodes: Node[] | undefined = Array.isArray(items) && items.length > 0 ? items.map((x) => compileNode(x, env)) : undefined;
  const mapKeys =
    s.type === 'array' && s['x-kubernetes-list-type'] === 'map' && (s['x-kubernetes-list-map-keys']?.length ?? 0) > 0 ? s['x-kubernetes-list-map-keys']! : undefined;
  const additionalItems = s.additionalItems === null ? undefined : s.additionalItems;
  const additionalItemsNode: Node | undefined = typeof additionalItems === 'object' ? compileNode(additionalItems, env) : undefined;
  const itemsSize = tupleNodes?.length ?? 0;
  const minItems = s.minItems ?? undefined;
  const maxItems = s.maxItems ?? undefined;
  const uniqueItems = s.uniqueItems === true;
  const checkSlice = (v: unknown[], ctx: Ctx): number => {
    let count = 0;
    if (itemNode !== undefined) {
      // Elements before the one the fast check failed on are valid.
      const from = ctx.sub === 0 && fastId >= 0 ? ctx.trail?.find(fastId, v) : undefined;
      const start = typeof from === 'number' ? from : 0;
      if (ctx.old === NONE || mapKeys === undefined || !Array.isArray(ctx.old)) {
        const parentOld = ctx.old;
        ctx.old = NONE;
        for (let i = start; i < v.length; i++) {
          ctx.push(Seg.Index, i);
          ctx.knownBad = i === from;
          count += itemNode(v[i], ctx);
          ctx.pop();
        }
        ctx.old = parentOld;
      } else {
        // list-type map: an element correlates with the old element that has the same keys.
        const olds = ctx.old as unknown[];
        for (let i = start; i < v.length; i++) {
          ctx.knownBad = i === from;
          count += descend(itemNode, v[i], correlateMapElement(v[i], olds, mapKeys), Seg.Index, i, ctx);
        }
      }
    }
    if (tupleNodes !== undefined) {
      const parentOld = ctx.old;
      ctx.old = NONE;
      for (let i = 0; i < tupleNodes.length && i < v.length; i++) {
        ctx.push(Seg.Index, i);
        count += tupleNodes[i]!(v[i], ctx);
        ctx.pop();
      }
      ctx.old = parentOld;
    }
    // additionalItems (not allowed in CRDs; kept for parity with kube-openapi's own suite)
    if (additionalItems !== undefined && itemsSize < v.length) {
      if (tupleNodes !== undefined && additionalItems === false) {
        ctx.err({ code: 'Composite', name: '', value: undefined, message: "array doesn't allow for additional items" });
      }
      if (additionalItemsNode !== undefined) {
        const parentOld = ctx.old;
        ctx.old = NONE;
        // kube-openapi's loop bound, size-itemsSize+1, is kept (guarded against running past the end).
        for (let i = itemsSize; i < v.length - itemsSize + 1 && i < v.length; i++) {
          ctx.push(Seg.Index, i);
          count += additionalItemsNode(v[i], ctx);
          ctx.pop();
        }
        ctx.old = parentOld;
      }
    }
    if (minItems !== undefined && v.length < minItems) {
      const name = ctx.path();
      ctx.err({ code: 'MinItems', name, value: v.length, valid: minItems, message: msg.minItems(name, minItems) });
    }
    if (maxItems !== undefined && v.length > maxItems) {
      const name = ctx.path();
      ctx.err({ code: 'MaxItems', name, value: v.length, valid: maxItems, message: msg.maxItems(name, maxItems) });
    }
    if (uniqueItems) {
      outer: for (let i = 1; i < v.length; i++) {
        for (let j = 0; j < i; j++) {
          if (deepEqualJSON(v[i], v[j])) {
            const name = ctx.path();
            ctx.err({ code: 'Unique', name, value: undefined, message: msg.unique(name) });
            break outer;
          }
        }
      }
    }
    return count + 1;
  };

  // --- common validator (enum)
  const enumValues = s.enum !== undefined && s.enum !== null && s.enum.length > 0 ? s.enum : undefined;
  // Enums of strings (the usual case) match a string by set membership.
  const stringEnum = enumValues !== undefined && enumValues.every((e) => typeof e === 'string') ? new Set(enumValues as string[]) : undefined;
  const checkEnum = (v: unknown, kind: GoKind, ctx: Ctx): void => {
    if (stringEnum !== undefined && typeof v === 'string') {
      if (stringEnum.has(v)) return;
    } else {
      for (const e of enumValues!) if (enumMatches(v, kind, e)) return;
    }
    const name = ctx.path();
    ctx.err({ code: 'Enum', name, value: v, values: enumValues, message: msg.enum(name, enumValues!) });
  };

  // --- object validator
  const propEntries: [string, Node][] = s.properties ? Object.entries(s.properties).map(([k, p]) => [k, compileNode(p ?? {}, env)]) : [];
  const propNames = new Set(propEntries.map((e) => e[0]));
  // A prototype-free dictionary: for...in keys index it directly.
  const propMap: Record<string, Node | undefined> = Object.create(null);
  for (const [k, n] of propEntries) propMap[k] = n;
  const ap = s.additionalProperties;
  const apForbidden = ap === false;
  const apNode: Node | undefined = ap !== undefined && ap !== null && typeof ap === 'object' ? compileNode(ap, env) : undefined;
  const requiredKeys = s.required && s.required.length > 0 ? s.required : undefined;
  const minProps = s.minProperties ?? undefined;
  const maxProps = s.maxProperties ?? undefined;
  // patternProperties are not allowed in CRD schemas; kube-openapi would validate them here.
  const patternProps: [(k: string) => boolean, Node][] = s.patternProperties
    ? Object.entries(s.patternProperties).map(([p, sch]) => {
        let t: (k: string) => boolean = () => false;
        try {
          const r = compileRegex(p);
          t = (k) => r.test(k);
        } catch {
          // regexp.MatchString with an invalid pattern matches nothing
        }
        return [t, compileNode(sch, env)];
      })
    : [];
  const checkObject = (v: Record<string, unknown>, ctx: Ctx): number => {
    let count = 0;
    if (minProps !== undefined || maxProps !== undefined) {
      const n = Object.keys(v).length;
      if (minProps !== undefined && n < minProps) {
        const name = ctx.path();
        ctx.err({ code: 'TooFewProperties', name, value: n, valid: minProps, message: msg.tooFewProperties(name, minProps) });
      }
      if (maxProps !== undefined && n > maxProps) {
        const name = ctx.path();
        ctx.err({ code: 'TooManyProperties', name, value: n, valid: maxProps, message: msg.tooManyProperties(name, maxProps) });
      }
    }
    if (!apForbidden && patternProps.length === 0) {
      // Keys before the one the fast check failed on are valid: the walk starts at that key.
      let from = ctx.sub === 0 && fastId >= 0 ? ctx.trail?.find(fastId, v) : undefined;
      // One pass over the object's own keys: properties, then additionalProperties.
      if (from !== null) {
        for (const k in v) {
          let bad = false;
          if (from !== undefined) {
            if (k !== from) continue;
            from = undefined;
            bad = true;
          }
          const node = propMap[k];
          if (node !== undefined) {
            ctx.knownBad = bad;
            if (ctx.old === NONE) {
              ctx.push(Seg.Prop, k);
              count += node(v[k], ctx);
              ctx.pop();
            } else {
              count += descend(node, v[k], oldForKey(ctx, k), Seg.Prop, k, ctx);
            }
          } else if (apNode !== undefined) {
            ctx.knownBad = bad;
            count += descend(apNode, v[k], oldForKey(ctx, k), Seg.Dot, k, ctx);
          }
        }
      }
    } else if (apForbidden) {
      for (const k in v) {
        if (propNames.has(k)) continue;
        if (patternProps.some(([t]) => t(k))) continue;
        const name = ctx.path();
        ctx.err({ code: 'UnallowedProperty', name, value: k, message: msg.unallowedProperty(name, k) });
      }
    } else if (apNode !== undefined || patternProps.length > 0) {
      for (const k in v) {
        let matched = false;
        for (const [t, node] of patternProps) {
          if (t(k)) {
            matched = true;
            count += descend(node, v[k], oldForKey(ctx, k), Seg.Dot, k, ctx);
          }
        }
        if (!propNames.has(k) && !matched && apNode !== undefined) count += descend(apNode, v[k], oldForKey(ctx, k), Seg.Dot, k, ctx);
      }
    }
    for (let i = 0; i < propEntries.length && (apForbidden || patternProps.length > 0); i++) {
      const [k, node] = propEntries[i]!;
      if (!Object.hasOwn(v, k)) continue;
      if (ctx.old === NONE) {
        ctx.push(Seg.Prop, k);
        count += node(v[k], ctx);
        ctx.pop();
      } else {
        count += descend(node, v[k], oldForKey(ctx, k), Seg.Prop, k, ctx);
      }
    }
    if (requiredKeys !== undefined) {
      for (const k of requiredKeys) {
        if (!Object.hasOwn(v, k)) {
          const p = ctx.path();
          const name = `${p}.${k}`;
          if (k.includes(': ')) ctx.colonKey = true;
          const field = p === '' ? k : `${ctx.lastField}.${k}`;
          ctx.err({ code: 'Required', name, field, value: undefined, message: msg.required(name) });
        }
      }
    }
    return count;
  };

  // --- schema props validator (allOf / anyOf / oneOf / not)
  const anyOf = s.anyOf && s.anyOf.length > 0 ? s.anyOf.map((x) => compileNode(x, env)) : undefined;
  const oneOf = s.oneOf && s.oneOf.length > 0 ? s.oneOf.map((x) => compileNode(x, env)) : undefined;
  const allOf = s.allOf && s.allOf.length > 0 ? s.allOf.map((x) => compileNode(x, env)) : undefined;
  const not = s.not ? compileNode(s.not, env) : undefined;
  const deps: Map<string, Node | string[]> | undefined =
    s.dependencies && Object.keys(s.dependencies).length > 0
      ? new Map(Object.entries(s.dependencies).map(([k, d]) => [k, Array.isArray(d) ? d : compileNode(d, env)]))
      : undefined;
  const hasJunctors = anyOf !== undefined || oneOf !== undefined || allOf !== undefined || not !== undefined || deps !== undefined;
  const checkJunctors = (v: unknown, ctx: Ctx): number => {
    let count = 0;
    if (anyOf !== undefined) {
      let best: { errs: OpenAPIError[]; count: number } | undefined;
      let succeeded = false;
      for (const node of anyOf) {
        const r = runSub(node, v, ctx);
        if (r.errs.length === 0) {
          succeeded = true;
          best = undefined;
          count += r.count;
          break;
        }
        if (best === undefined || r.count > best.count) best = r;
      }
      if (!succeeded) ctx.err({ code: 'Composite', name: '', value: undefined, message: msg.anyOf(ctx.path()) });
      if (best !== undefined) {
        for (const e of best.errs) ctx.err(e);
        count += best.count;
      }
    }
    if (oneOf !== undefined) {
      let best: { errs: OpenAPIError[]; count: number } | undefined;
      let first: { errs: OpenAPIError[]; count: number } | undefined;
      let validated = 0;
      for (const node of oneOf) {
        const r = runSub(node, v, ctx);
        if (r.errs.length === 0) {
          validated++;
          best = undefined;
          if (first === undefined) first = r;
          continue;
        }
        if (validated === 0 && (best === undefined || r.count > best.count)) best = r;
      }
      if (validated !== 1) {
        const extra = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
        ctx.err({ code: 'Composite', name: '', value: undefined, message: msg.oneOf(ctx.path(), extra) });
        if (best !== undefined) {
          for (const e of best.errs) ctx.err(e);
          count += best.count;
        }
      } else if (first !== undefined) {
        count += first.count;
      }
    }
    if (allOf !== undefined) {
      let validated = 0;
      for (const node of allOf) {
        const before = ctx.errs.length;
        count += node(v, ctx);
        if (ctx.errs.length === before) validated++;
      }
      if (validated !== allOf.length) {
        ctx.err({ code: 'Composite', name: '', value: undefined, message: msg.allOf(ctx.path(), validated === 0 ? '. None validated' : '') });
      }
    }
    if (not !== undefined) {
      const r = runSub(not, v, ctx);
      if (r.errs.length === 0) ctx.err({ code: 'Composite', name: '', value: undefined, message: msg.not(ctx.path()) });
    }
    // dependencies (not allowed in CRDs; kept for parity with kube-openapi's own suite)
    if (deps !== undefined && isObject(v)) {
      for (const key in v) {
        const dep = deps.get(key);
        if (dep === undefined) continue;
        if (typeof dep === 'function') {
          ctx.push(Seg.Dot, key);
          count += dep(v, ctx);
          ctx.pop();
        } else {
          for (const depKey of dep) {
            if (!Object.hasOwn(v, depKey)) ctx.err({ code: 'Composite', name: '', value: undefined, message: `${goQuote(ctx.path())} has a dependency on ${depKey}` });
          }
        }
      }
    }
    return count + 1;
  };

  // SchemaValidator.Validate: the applicable validators in kube-openapi's order, each adding its
  // own MatchCount plus one, and one more for the schema itself.
  const node: Node = (v, ctx) => {
    // A valid value has no errors to report; its MatchCount is only read inside alternatives.
    if (ctx.sub === 0) {
      if (ctx.knownBad) ctx.knownBad = false;
      else if (fastValid(v)) return 0;
    }
    const kc = kindCode(v);
    const kind = KIND_NAMES[kc]!;
    if (kc === 0) {
      // Only the type and common (enum) validators run on null.
      const c = checkType(v, kind, ctx);
      if (enumValues !== undefined) {
        const name = ctx.path();
        ctx.err({ code: 'Enum', name, value: null, values: enumValues, message: msg.enum(name, enumValues) });
      }
      return c;
    }
    let count = 1;
    if (typeApplies) count += ((fastMask >> kc) & 1) === 1 ? 2 : checkType(v, kind, ctx) + 1;
    count += (hasJunctors ? checkJunctors(v, ctx) : 1) + 1;
    switch (kind) {
      case 'string':
        if (hasStringChecks) checkString(v as string, ctx);
        count++;
        if (formatCheck !== undefined) {
          if (!formatCheck(v as string)) {
            const name = ctx.path();
            ctx.err({ code: 'InvalidType', name, value: v, message: msg.typeFailWithData(name, format, v as string) });
          }
          count++;
        }
        break;
      case 'int':
      case 'float':
        checkNumber(v, kind, ctx);
        count += 2;
        break;
      case 'array':
        count += checkSlice(v as unknown[], ctx) + 1;
        break;
    }
    if (enumValues !== undefined) checkEnum(v, kind, ctx);
    count++;
    if (kind === 'object') count += checkObject(v as Record<string, unknown>, ctx) + 1;
    return count;
  };

  env.bind.set(node, (f, id) => {
    fastValid = f;
    fastId = id;
  });
  const slowErrors = (v: unknown, p: string): void => {
    const ctx = env.current!;
    ctx.depth = 0;
    ctx.push(Seg.Raw, p);
    ctx.knownBad = true;
    node(v, ctx);
    ctx.knownBad = false;
    ctx.depth = 0;
  };
  const typeFail = KIND_SAMPLES.map((sample, kc) => (kc === KIND_CODE.float || !typeApplies ? undefined : typeFailure(sample, KIND_NAMES[kc]!)));
  const boundBad = (b: number | undefined) => b !== undefined && rangeBad(b, 'float', numType, numFormat);
  env.facts.set(node, {
    slow: (v) => slowValid(node, v),
    typeOk: KIND_SAMPLES.map((sample, kc) => {
      if (!typeApplies || ((fastMask >> kc) & 1) === 1) return true;
      if (kc === KIND_CODE.float && hasInteger) return undefined; // integral floats pass `integer`
      // checkType's verdict, without building the error it would report: errors made while
      // compiling would outlive many collections and teach V8 to allocate every later error from
      // the same site in the old generation (allocation-site pretenuring), where each keeps its
      // young strings alive through scavenges.
      return typeFailure(sample, KIND_NAMES[kc]!) === undefined;
    }),
    typeFail,
    nullValid: !(types.length > 0 && !types.includes('null') && !nullable) && enumValues === undefined,
    anyOf,
    oneOf,
    allOf,
    not,
    hasDeps: deps !== undefined,
    enumValues,
    stringEnum,
    maxLength,
    minLength,
    pattern: patternTest,
    patternMsg,
    format: formatCheck,
    formatName: format,
    slowErrors,
    listCheck:
      s['x-kubernetes-list-type'] === 'set' || s['x-kubernetes-list-type'] === 'map'
        ? ((lt: string, keys: readonly string[]) => (arr: readonly unknown[]) => listTypeViolation(lt, keys, arr))(s['x-kubernetes-list-type'], s['x-kubernetes-list-map-keys'] ?? [])
        : undefined,
    numType,
    numFormat,
    boundOutOfRange: boundBad(multipleOf) || boundBad(minimum) || boundBad(maximum),
    multipleOf,
    minimum,
    maximum,
    exclusiveMinimum: exclMin,
    exclusiveMaximum: exclMax,
    items: itemNode,
    sliceSlow: tupleNodes !== undefined || additionalItems !== undefined || uniqueItems,
    minItems,
    maxItems,
    properties: propEntries,
    additionalProperties: apNode,
    objectSlow: apForbidden || patternProps.length > 0,
    required: requiredKeys,
    minProperties: minProps,
    maxProperties: maxProps,
  });
  return node;
}
