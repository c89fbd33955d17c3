/**
 * The CEL rule validator of a structural schema (apiextensions-apiserver
 * pkg/apiserver/schema/cel/validation.go): compiled once, a tree mirroring the schema with the rule
 * programs of each node, absent where no rule sits at or below a node. `validate` binds `self` (and
 * `oldSelf` on update, correlated through object fields, map keys and list-type=map keys) at every
 * node with rules and reports failures as Kubernetes does: messages, messageExpression, reason,
 * fieldPath, per-call cost limit and per-object cost budget, and ratcheting of unchanged values.
 */
import { Path } from '../../apimachinery/index.ts';
import { duplicate, errorString, forbidden, invalid, omitValue, required, type FieldError } from '../../apimachinery/index.ts';
import { goQuote } from '../../apimachinery/index.ts';
import { CelMap, Optional, type Val } from '../../cel/index.ts';
import type { Structural, NestedValueValidation } from '../structural.ts';
import { contentKey, sharedByContent } from '../compile-cache.ts';
import { deferredSource, hasRulesInJSON } from '../deferred.ts';
import type { JSONSchemaProps } from '../types.ts';
import { deepEqualJSON, isObject } from '../value.ts';
import { compileRules, type CompiledRule, type CompileRulesOptions } from './compile.ts';
import { MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES, RUNTIME_CEL_COST_BUDGET } from './env.ts';
import { escape } from './escaping.ts';
import { schemaDeclType, type DeclType } from './types.ts';
import { ValueConverter } from './values.ts';

/** One node of the validator tree. */
interface Node {
  schema: Structural;
  declType: DeclType | undefined;
  isResourceRoot: boolean;
  rules: CompiledRule[];
  compilationErr?: string;
  usesOldSelf: boolean;
  /** Some rule at or below this node uses oldSelf: old values must be correlated through it. */
  needsOld: boolean;
  items?: Node;
  properties?: Map<string, Node>;
  /** Escaped CEL field names of the properties (where the node's self value keeps them). */
  fieldNames?: Map<string, string>;
  additionalProperties?: Node;
  allOf?: Node[];
}

export interface CELCompileOptions extends CompileRulesOptions {
  /**
   * Build the validator even when no rule sits on the structural spine (rules only inside allOf),
   * as upstream's tests do by calling validator() directly; NewValidator itself does not.
   */
  force?: boolean;
}

export interface CELValidateOptions {
  /** The runtime cost budget for the whole object; default RuntimeCELCostBudget (10,000,000). */
  budget?: number;
  /** The path of obj; default the empty path (errors read `spec.x: ...`). */
  path?: Path;
  /**
   * Ratcheting (CRDValidationRatcheting): on update, failures of rules without oldSelf on values
   * unchanged from oldObj become warnings instead of errors.
   */
  ratcheting?: boolean;
}

export interface CELValidationResult {
  errors: FieldError[];
  /** Ratcheted failures, rendered as Kubernetes renders warnings (`path: Invalid value: ...`). */
  warnings: string[];
  /** Budget left; negative once the budget ran out (no further rules were run). */
  remainingBudget: number;
}

/** A compiled CEL validator for one schema. */
export interface CELValidator {
  /** Validates obj (and, on update, against oldObj); never throws. */
  validate(obj: unknown, oldObj?: unknown, opts?: CELValidateOptions): CELValidationResult;
  /** Every compiled rule with its schema path (for cost reports). */
  rules(): { path: string; compiled: CompiledRule }[];
}

function hasXValidations(s: Structural | undefined): boolean {
  if (s === undefined) return false;
  if ((s.xValidations?.length ?? 0) > 0) return true;
  if (hasXValidations(s.items)) return true;
  if (hasXValidations(s.additionalProperties?.structural)) return true;
  for (const p of s.properties?.values() ?? []) if (hasXValidations(p)) return true;
  return false;
}

/** nestedToStructural: an allOf entry as a structural node (only its rules and shape matter here). */
function nestedToStructural(n: NestedValueValidation): Structural {
  const s: Structural = {
    ...n.forbiddenGenerics,
    ...n.forbiddenExtensions,
    valueValidation: n,
    xValidations: n.xValidations,
  };
  if (n.items) s.items = nestedToStructural(n.items);
  if (n.properties && n.properties.size > 0) s.properties = new Map([...n.properties].map(([k, v]) => [k, nestedToStructural(v)]));
  if (n.additionalProperties) s.additionalProperties = { structural: nestedToStructural(n.additionalProperties), bool: false };
  return s;
}

function build(validationSchema: Structural, nodeSchema: Structural, isResourceRoot: boolean, declType: DeclType | undefined, opts: CompileRulesOptions): Node | undefined {
  let rules: CompiledRule[] = [];
  let compilationErr: string | undefined;
  try {
    rules = compileRules({ ...nodeSchema, xValidations: validationSchema.xValidations }, declType, opts);
  } catch (e) {
    compilationErr = (e as Error).message;
  }
  const elemType = declType?.elemType;
  let items: Node | undefined;
  if (validationSchema.items && nodeSchema.items) items = build(validationSchema.items, nodeSchema.items, nodeSchema.items.xEmbeddedResource, elemType, opts);
  let properties: Map<string, Node> | undefined;
  if (validationSchema.properties && validationSchema.properties.size > 0) {
    properties = new Map();
    for (const [k, vp] of validationSchema.properties) {
      const np = nodeSchema.properties?.get(k);
      if (np === undefined) continue;
      let fieldType: DeclType | undefined;
      const escaped = escape(k);
      if (escaped !== undefined) {
        if (declType === undefined) continue;
        fieldType = declType.fields?.get(escaped)?.type;
        if (fieldType === undefined) continue;
      } else {
        fieldType = schemaDeclType(np, np.xEmbeddedResource);
        if (fieldType === undefined) continue;
      }
      const p = build(vp, np, np.xEmbeddedResource, fieldType, opts);
      if (p !== undefined) properties.set(k, p);
    }
  }
  let additionalProperties: Node | undefined;
  const vap = validationSchema.additionalProperties?.structural;
  const nap = nodeSchema.additionalProperties?.structural;
  if (vap && nap) additionalProperties = build(vap, nap, nap.xEmbeddedResource, elemType, opts);
  let allOf: Node[] | undefined;
  for (const a of validationSchema.valueValidation?.allOf ?? []) {
    const v = build(nestedToStructural(a), nodeSchema, isResourceRoot, declType, opts);
    if (v !== undefined) (allOf ??= []).push(v);
  }
  if (rules.length > 0 || compilationErr !== undefined || items || additionalProperties || (properties && properties.size > 0) || allOf) {
    return {
      schema: nodeSchema,
      declType,
      isResourceRoot,
      rules,
      compilationErr,
      usesOldSelf: rules.some((r) => r.usesOldSelf),
      needsOld:
        rules.some((r) => r.usesOldSelf) ||
        !!items?.needsOld ||
        !!additionalProperties?.needsOld ||
        [...(properties?.values() ?? [])].some((p) => p.needsOld) ||
        !!allOf?.some((a) => a.needsOld),
      items,
      properties: properties && properties.size > 0 ? properties : undefined,
      fieldNames: properties && properties.size > 0 ? new Map([...properties.keys()].flatMap((k) => {
        const e = escape(k);
        return e !== undefined && declType?.fields?.get(e)?.type === properties.get(k)!.declType ? [[k, e] as [string, string]] : [];
      })) : undefined,
      additionalProperties,
      allOf,
    };
  }
  return undefined;
}

/**
 * NewValidator: compiles every rule of the schema. Undefined when the schema has no rules.
 * isResourceRoot: s is a resource root (apiVersion, kind, metadata.name and metadata.generateName
 * are accessible even when the schema does not declare them). The structural schema of a
 * compileSchema result is built when first read: its rules are compiled on the first validation.
 */
export function compileCELValidator(s: Structural | undefined, isResourceRoot: boolean, opts: CELCompileOptions = {}): CELValidator | undefined {
  const d = deferredSource(s);
  if (d !== undefined) return deferredValidator(d.schema, d.resolve, isResourceRoot, opts);
  return compileNow(s, isResourceRoot, opts);
}

/**
 * The validator of a structural schema not built yet (compile.ts hands those out): whether there is
 * one is read from the JSON schema; its rules are compiled on the first validation, once for every
 * holder of an equal schema.
 */
function deferredValidator(schema: JSONSchemaProps, resolve: () => Structural, isResourceRoot: boolean, opts: CELCompileOptions): CELValidator | undefined {
  if (!hasRulesInJSON(schema) && opts.force !== true) return undefined;
  let compiled: { v: CELValidator | undefined } | undefined;
  // The key (a digest of the whole schema) is computed once, not per validation.
  const get = (): CELValidator | undefined =>
    (compiled ??= sharedByContent(contentKey(`compileCELValidator ${isResourceRoot} ${JSON.stringify(opts)}`, schema), () => ({ v: compileNow(resolve(), isResourceRoot, opts) }))).v;
  return {
    validate(obj, oldObj, o = {}) {
      const v = get();
      return v !== undefined ? v.validate(obj, oldObj, o) : { errors: [], warnings: [], remainingBudget: o.budget ?? RUNTIME_CEL_COST_BUDGET };
    },
    rules: () => get()?.rules() ?? [],
  };
}

function compileNow(s: Structural | undefined, isResourceRoot: boolean, opts: CELCompileOptions): CELValidator | undefined {
  if (s === undefined || (!hasXValidations(s) && opts.force !== true)) return undefined;
  const root = build(s, s, isResourceRoot, schemaDeclType(s, isResourceRoot), opts);
  if (root === undefined) return undefined;
  return {
    validate(obj, oldObj, o = {}) {
      const st: State = { errors: [], warnings: [], converter: new ValueConverter(), ratcheting: o.ratcheting === true };
      const corr: Ratchet = oldObj !== undefined && st.ratcheting ? { cur: { v: obj, old: oldObj }, parent: undefined } : {};
      const remaining = validateNode(root, st, o.path ?? Path.root(), obj, oldObj ?? null, corr, o.budget ?? RUNTIME_CEL_COST_BUDGET);
      return { errors: st.errors, warnings: st.warnings, remainingBudget: remaining };
    },
    rules() {
      const out: { path: string; compiled: CompiledRule }[] = [];
      const walk = (n: Node, p: string) => {
        for (const c of n.rules) out.push({ path: p, compiled: c });
        for (const [k, c] of n.properties ?? []) walk(c, `${p}.properties[${k}]`);
        if (n.items) walk(n.items, `${p}.items`);
        if (n.additionalProperties) walk(n.additionalProperties, `${p}.additionalProperties`);
        n.allOf?.forEach((a, i) => walk(a, `${p}.allOf[${i}]`));
      };
      walk(root, 'openAPIV3Schema');
      return out;
    },
  };
}

interface State {
  errors: FieldError[];
  warnings: string[];
  converter: ValueConverter;
  ratcheting: boolean;
}

/** A correlated (old, new) pair: the current node's, and the nearest correlatable ancestor's. */
interface Correlated {
  v: unknown;
  old: unknown;
  equal?: boolean;
}
interface Ratchet {
  cur?: Correlated;
  parent?: Correlated;
}

function cachedDeepEqual(c: Correlated | undefined): boolean {
  if (c === undefined) return false;
  return (c.equal ??= deepEqualJSON(c.old, c.v));
}

function shouldRatchet(r: Ratchet): boolean {
  return r.cur !== undefined ? cachedDeepEqual(r.cur) : cachedDeepEqual(r.parent);
}

function ratchetKey(r: Ratchet, field: string, v: unknown, old: unknown): Ratchet {
  if (r.cur === undefined) return r;
  if (r.parent === undefined && (field === 'apiVersion' || field === 'kind')) return {};
  return { cur: old === undefined || old === null ? undefined : { v, old }, parent: r.cur };
}

function ratchetIndex(r: Ratchet, v: unknown, old: unknown): Ratchet {
  if (r.cur === undefined) return r;
  return { cur: old === undefined || old === null ? undefined : { v, old }, parent: r.cur };
}

/**
 * The CEL values of a node's data, once converted: children take theirs from here instead of
 * converting their data again (the field, element or entry of the parent's value).
 */
interface Values {
  self?: Val;
  old?: Val;
}

function validateNode(n: Node, st: State, path: Path, obj: unknown, oldObj: unknown, corr: Ratchet, budget: number, vals: Values = {}): number {
  if (obj === null || obj === undefined) return budget;
  budget = validateExpressions(n, st, path, obj, oldObj, corr, budget, vals);
  if (budget < 0) return budget;
  for (const a of n.allOf ?? []) {
    budget = validateNode(a, st, path, obj, oldObj, { parent: corr.parent }, budget, vals);
    if (budget < 0) return budget;
  }
  if (Array.isArray(obj)) return validateArray(n, st, path, obj, Array.isArray(oldObj) ? oldObj : undefined, corr, budget, vals);
  if (isObject(obj)) return validateMap(n, st, path, obj, isObject(oldObj) ? oldObj : undefined, corr, budget, vals);
  return budget;
}

const mapIsCorrelatable = (mapType: string | undefined) => mapType === undefined || mapType === 'granular' || mapType === 'atomic';

function validateMap(
  n: Node,
  st: State,
  path: Path,
  obj: Record<string, unknown>,
  oldObj: Record<string, unknown> | undefined,
  corr: Ratchet,
  budget: number,
  vals: Values,
): number {
  const correlatable = mapIsCorrelatable(n.schema.xMapType);
  const self = vals.self instanceof CelMap ? vals.self : undefined;
  const old = correlatable && vals.old instanceof CelMap ? vals.old : undefined;
  if (n.additionalProperties) {
    const sameType = n.additionalProperties.declType === n.declType?.elemType;
    for (const k of Object.keys(obj)) {
      const v = obj[k];
      const oldV = correlatable && oldObj ? oldObj[k] : undefined;
      const childVals: Values = sameType ? { self: self?.m.get(k), old: old?.m.get(k) } : {};
      budget = validateNode(n.additionalProperties, st, path.key(k), v, oldV ?? null, ratchetKey(corr, k, v, oldObj?.[k]), budget, childVals);
      if (budget < 0) return budget;
    }
  }
  if (n.properties) {
    for (const k of Object.keys(obj)) {
      const sub = n.properties.get(k);
      if (sub === undefined) continue;
      const v = obj[k];
      const oldV = correlatable && oldObj ? oldObj[k] : undefined;
      const f = n.fieldNames?.get(k);
      const childVals: Values = f === undefined ? {} : { self: self?.m.get(f), old: old?.m.get(f) };
      budget = validateNode(sub, st, path.child(k), v, oldV ?? null, ratchetKey(corr, k, v, oldObj?.[k]), budget, childVals);
      if (budget < 0) return budget;
    }
  }
  return budget;
}

/** makeMapList: old items of a list-type=map list, found by the key fields of a new item. */
function mapListLookup(s: Structural, old: unknown[] | undefined): (item: unknown) => unknown {
  const keys = s.xListMapKeys ?? [];
  if (s.type !== 'array' || s.xListType !== 'map' || keys.length === 0 || !old || old.length === 0) return () => undefined;
  const keyOf = (o: unknown): string | undefined => {
    if (!isObject(o)) return undefined;
    const parts: string[] = [];
    for (const k of keys) {
      const v = o[k];
      if (v === undefined) return undefined;
      if (typeof v === 'object' && v !== null && typeof (v as { value?: unknown }).value !== 'number') return undefined;
      parts.push(`${typeof v}:${String(v)}`);
    }
    return parts.join('\x00');
  };
  let index: Map<string, unknown> | undefined;
  return (item) => {
    const k = keyOf(item);
    if (k === undefined) return undefined;
    if (index === undefined) {
      index = new Map();
      for (const o of old) {
        const ok = keyOf(o);
        if (ok !== undefined && !index.has(ok)) index.set(ok, o);
      }
    }
    return index.get(k);
  };
}

function validateArray(n: Node, st: State, path: Path, obj: unknown[], oldObj: unknown[] | undefined, corr: Ratchet, budget: number, vals: Values): number {
  if (!n.items) return budget;
  const lookup = n.items.needsOld || st.ratcheting ? mapListLookup(n.schema, oldObj) : () => undefined;
  const self = Array.isArray(vals.self) && n.items.declType === n.declType?.elemType ? (vals.self as readonly Val[]) : undefined;
  for (let i = 0; i < obj.length; i++) {
    const old = lookup(obj[i]);
    budget = validateNode(n.items, st, path.index(i), obj[i], old ?? null, ratchetIndex(corr, obj[i], old), budget, { self: self?.[i] });
    if (budget < 0) return budget;
  }
  return budget;
}

function ruleErrorString(rule: { rule: string; message?: string }): string {
  if (rule.message !== undefined && rule.message.length > 0) return rule.message.trim();
  return rule.rule.trim();
}

function ruleMessageOrDefault(rule: { rule: string; message?: string }): string {
  if (rule.message === undefined || rule.message.length === 0) return `failed rule: ${ruleErrorString(rule)}`;
  return rule.message.trim();
}

function fieldErrorForReason(path: Path, value: unknown, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(path, detail);
    case 'FieldValueRequired':
      return required(path, detail);
    case 'FieldValueDuplicate':
      return duplicate(path, value);
    default:
      return invalid(path, value, detail);
  }
}

function validateExpressions(n: Node, st: State, path: Path, obj: unknown, oldObj: unknown, corr: Ratchet, budget: number, vals: Values): number {
  const sts = n.schema;
  if (oldObj === undefined) oldObj = null;
  if (n.compilationErr !== undefined) {
    st.errors.push(invalid(path, sts.type, `rule compiler initialization error: ${n.compilationErr}`));
    return budget;
  }
  if (n.rules.length === 0) return budget;
  if (budget <= 0) {
    st.errors.push(invalid(path, sts.type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
    return -1;
  }
  const selfType = n.declType!;
  const self = (vals.self ??= st.converter.convert(obj, selfType));
  let oldSelf: Val | undefined;
  const hasOld = oldObj !== null;
  if (n.usesOldSelf && hasOld) oldSelf = vals.old ??= st.converter.convert(oldObj, selfType);
  for (const compiled of n.rules) {
    const rule = compiled.rule;
    if (compiled.error !== undefined) {
      st.errors.push(invalid(path, sts.type, `rule compile error: ${compiled.error.detail}`));
      continue;
    }
    if (compiled.program === undefined) continue;
    const optionalOldSelf = rule.optionalOldSelf === true;
    if (compiled.usesOldSelf && !hasOld && !optionalOldSelf) continue;
    const vars: Record<string, Val> = { self };
    if (optionalOldSelf) vars.oldSelf = oldSelf === undefined ? Optional.none : new Optional(oldSelf);
    else if (oldSelf !== undefined) vars.oldSelf = oldSelf;
    const r = compiled.program.eval(vars);
    if (r.cost > budget) {
      st.errors.push(invalid(path, sts.type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      return -1;
    }
    budget -= r.cost;
    if (r.error !== undefined) {
      const msg = r.error.message;
      if (msg.startsWith('no such overload')) {
        st.errors.push(invalid(path, sts.type, `'${msg}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`));
      } else if (msg.startsWith('operation cancelled: actual cost limit exceeded')) {
        st.errors.push(invalid(path, sts.type, `'${msg}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`));
        return -1;
      } else {
        st.errors.push(invalid(path, sts.type, `${msg} evaluating rule: ${ruleErrorString(rule)}`));
      }
      continue;
    }
    if (r.value === true) continue;

    const fieldPath = compiled.normalizedRuleFieldPath.length > 0 ? path.child(compiled.normalizedRuleFieldPath) : path;
    const addErr = (e: FieldError) => {
      if (st.ratcheting && !compiled.usesOldSelf && shouldRatchet(corr)) st.warnings.push(renderWarning(e));
      else st.errors.push(e);
    };
    let detail: string | undefined;
    if (compiled.messageExpression !== undefined) {
      // As upstream, the message is evaluated in the node's plain activation: oldSelf (not optional)
      // only when a rule of the node uses it and there is an old value.
      const m = evalMessageExpression(compiled, oldSelf === undefined ? { self } : { self, oldSelf }, budget);
      if ('detail' in m) {
        detail = m.detail;
        budget = m.remaining;
      } else if (m.fatal) {
        addErr(invalid(fieldPath, sts.type, m.error));
        return -1;
      } else {
        budget = m.remaining;
      }
    }
    if (detail === undefined) detail = ruleMessageOrDefault(rule);
    const value = sts.type === 'object' || sts.type === 'array' ? omitValue : obj;
    addErr(fieldErrorForReason(fieldPath, value, detail, rule.reason));
  }
  return budget;
}

/** A ratcheted failure becomes the warning `e.Error()`, as warning.AddWarning(ctx, "", e.Error()). */
function renderWarning(e: FieldError): string {
  return errorString(e);
}

type MessageResult = { detail: string; remaining: number } | { error: string; fatal: true } | { error: string; fatal: false; remaining: number };

/** evalMessageExpression: the trimmed message, or why it cannot be used. */
function evalMessageExpression(c: CompiledRule, vars: Record<string, Val>, budget: number): MessageResult {
  const expr = c.rule.messageExpression!;
  const r = c.messageExpression!.eval(vars);
  if (r.cost > budget) {
    return { error: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run', fatal: true };
  }
  if (r.error !== undefined) {
    if (r.error.message.startsWith('operation cancelled: actual cost limit exceeded')) {
      return { error: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(expr)}`, fatal: true };
    }
    return { error: `messageExpression evaluation failed due to: ${r.error.message}`, fatal: false, remaining: budget - r.cost };
  }
  const remaining = budget - r.cost;
  if (typeof r.value !== 'string') return { error: 'messageExpression failed to convert to string', fatal: false, remaining };
  const trimmed = r.value.trim();
  if (Buffer.byteLength(trimmed, 'utf8') > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES) {
    return { error: `messageExpression beyond allowable length of ${MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES}`, fatal: false, remaining };
  }
  if (trimmed.includes('\n')) return { error: 'messageExpression should not contain line breaks', fatal: false, remaining };
  if (trimmed.length === 0) return { error: 'messageExpression should evaluate to a non-empty string', fatal: false, remaining };
  return { detail: trimmed, remaining };
}

