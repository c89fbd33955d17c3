/**
 * The CEL part of CustomResourceDefinition validation (apiextensions-apiserver
 * pkg/apis/apiextensions/validation: validation.go's x-kubernetes-validations compilation and
 * cel_validation.go's CELSchemaContext): when a CRD is written, every rule and messageExpression on
 * the structural spine of openAPIV3Schema is compiled against its node's CEL type; compile errors,
 * per-expression cost over budget (estimated cost × how many times the node can occur in a
 * request), oldSelf on uncorrelatable parts of the schema and the schema's total cost are reported
 * with Kubernetes' messages and paths. Static checks of the rule entries themselves (empty rule,
 * message line breaks, reason, fieldPath) are crd/openapi-schema.ts's.
 */
import { forbidden, internalError, invalid, required, type FieldError } from '../../apimachinery/index.ts';
import { GoJSONText, goJSON } from '../../apimachinery/index.ts';
import type { Path } from '../../apimachinery/index.ts';
import { newStructural, type Structural } from '../structural.ts';
import { additionalPropertiesSchema, itemsSchema, type JSONSchemaProps, type ValidationRule } from '../types.ts';
import { compileRules, type CompiledRule } from './compile.ts';
import { escape } from './escaping.ts';
import { schemaDeclType, type DeclType } from './types.ts';

/** StaticEstimatedCostLimit: the largest estimated cost one expression may have. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000n;
/** StaticEstimatedCRDCostLimit: the largest total estimated cost of a CRD version's rules. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000n;
const MAX_UINT64 = (1n << 64n) - 1n;

export interface CRDRuleOptions {
  /**
   * Skip the per-expression cost limit (the schema is unchanged from the stored CRD, whose
   * expressions were accepted before: suppressPerExpressionCost).
   */
  suppressPerExpressionCost?: boolean;
  /**
   * Whether the schema node at this path (`...openAPIV3Schema.properties[spec]`) or any node below
   * it had schema errors: upstream compiles a node's rules only when none did.
   */
  hasSchemaErrors?: (nodePath: string) => boolean;
  /** The CEL compatibility version ("1.30"); default the current one. */
  compatibilityVersion?: string;
  /** newStructural(schema), when the caller has built it already (it is not modified). */
  structural?: Structural;
}

/** One expression's contribution to the total cost. */
export interface RuleCost {
  /** `...x-kubernetes-validations[i].rule` or `...messageExpression`. */
  path: string;
  cost: bigint;
  /** The node's worst-case cardinality used (undefined: the request-size estimate). */
  cardinality: bigint | undefined;
  /** The compiled rule, for reports. */
  compiled: CompiledRule;
  /** Enclosing lists and maps with no maxItems / maxProperties: what leaves the cardinality unbounded. */
  unboundedAncestors: { path: string; keyword: 'maxItems' | 'maxProperties' }[];
}

type Ancestors = RuleCost['unboundedAncestors'];

export interface CRDRuleResult {
  errors: FieldError[];
  /** Sum of all expression costs (saturating at 2^64-1). */
  totalCost: bigint;
  /** Every expression's cost, in schema order. */
  costs: RuleCost[];
}

interface TypeInfo {
  schema: Structural;
  declType: DeclType;
}

type Accessor = ((parent: TypeInfo) => TypeInfo | undefined) | undefined;

/** CELSchemaContext: lazily derived CEL type information and the node's max cardinality. */
class Context {
  private typeInfo: TypeInfo | undefined;
  private typeInfoErr: string | undefined;
  private computed = false;

  constructor(
    readonly jsonSchema: JSONSchemaProps | undefined,
    readonly parent: Context | undefined,
    private readonly accessor: Accessor,
    readonly withinScope: boolean,
    /** undefined: unbounded. */
    readonly maxCardinality: bigint | undefined,
  ) {}

  static root(schema: JSONSchemaProps, structural: Structural | undefined): Context {
    const c = new Context(schema, undefined, undefined, (schema['x-kubernetes-validations']?.length ?? 0) > 0, 1n);
    c.structural = structural;
    return c;
  }

  /** The root's structural schema, when the caller had it: info() need not build it again. */
  private structural: Structural | undefined;

  /** TypeInfo(): from the parent's type information when it has some, else from this node. */
  info(): { info?: TypeInfo; err?: string } {
    if (!this.withinScope) return {};
    if (this.computed) return { info: this.typeInfo, err: this.typeInfoErr };
    this.computed = true;
    if (this.parent !== undefined) {
      const p = this.parent.info();
      if (p.err !== undefined) {
        this.typeInfoErr = p.err;
        return { err: p.err };
      }
      if (p.info !== undefined && this.accessor !== undefined) {
        this.typeInfo = this.accessor(p.info);
        if (this.typeInfo !== undefined) return { info: this.typeInfo };
      }
    }
    try {
      const s = this.structural ?? newStructural(this.jsonSchema ?? {});
      const isRoot = this.parent === undefined || this.jsonSchema?.['x-kubernetes-embedded-resource'] === true;
      const d = s === undefined ? undefined : schemaDeclType(s, isRoot);
      if (s === undefined || d === undefined) this.typeInfoErr = 'unable to convert structural schema to CEL declarations';
      else this.typeInfo = { schema: s, declType: d };
    } catch (e) {
      this.typeInfoErr = (e as Error).message;
    }
    return { info: this.typeInfo, err: this.typeInfoErr };
  }

  child(child: JSONSchemaProps | undefined, accessor: Accessor): Context {
    const within = this.withinScope || (child?.['x-kubernetes-validations']?.length ?? 0) > 0;
    let card: bigint | undefined;
    if (this.jsonSchema !== undefined && this.maxCardinality !== undefined) {
      const max = extractMaxElements(this.jsonSchema);
      if (max !== undefined) card = mulSat(this.maxCardinality, max);
    }
    return new Context(child, this, accessor, within, card);
  }
}

const mulSat = (a: bigint, b: bigint): bigint => {
  const p = a * b;
  return p > MAX_UINT64 ? MAX_UINT64 : p;
};

function extractMaxElements(s: JSONSchemaProps): bigint | undefined {
  switch (s.type) {
    case 'object':
      if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
        return s.maxProperties !== undefined ? BigInt(Math.max(0, s.maxProperties)) : undefined;
      }
      return 1n;
    case 'array':
      return s.maxItems !== undefined ? BigInt(Math.max(0, s.maxItems)) : undefined;
    default:
      return 1n;
  }
}

const propertyAccessor = (name: string): Accessor => (p) => {
  const prop = p.schema.properties?.get(name);
  if (prop === undefined) return undefined;
  const escaped = escape(name);
  if (escaped === undefined) return undefined;
  const f = p.declType.fields?.get(escaped);
  return f === undefined ? undefined : { schema: prop, declType: f.type };
};

const itemsAccessor: Accessor = (p) => (p.schema.items && p.declType.elemType ? { schema: p.schema.items, declType: p.declType.elemType } : undefined);

const additionalPropertiesAccessor: Accessor = (p) => {
  const ap = p.schema.additionalProperties?.structural;
  return ap && p.declType.elemType ? { schema: ap, declType: p.declType.elemType } : undefined;
};

/** getCostErrorMessage. */
export function costErrorMessage(costName: string, cost: bigint, limit: bigint): string {
  const f = Number(cost) / Number(limit);
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** getExpressionCost: the rule's cost times the node's cardinality (its own estimate if unbounded). */
function expressionCost(cost: bigint, ctxCard: bigint | undefined, ruleCard: bigint): bigint {
  if (cost === 0n) return 0n;
  return mulSat(cost, ctxCard ?? ruleCard);
}

/** A ValidationRule as Go's %v of the struct prints in a field error (its JSON, fields in declaration order). */
function ruleValue(r: ValidationRule): GoJSONText {
  const parts = [`"rule":${goJSON(r.rule ?? '')}`];
  if (r.message) parts.push(`"message":${goJSON(r.message)}`);
  if (r.messageExpression) parts.push(`"messageExpression":${goJSON(r.messageExpression)}`);
  if (r.reason !== undefined && r.reason !== null) parts.push(`"reason":${goJSON(r.reason)}`);
  if (r.fieldPath) parts.push(`"fieldPath":${goJSON(r.fieldPath)}`);
  if (r.optionalOldSelf !== undefined && r.optionalOldSelf !== null) parts.push(`"optionalOldSelf":${r.optionalOldSelf}`);
  return new GoJSONText(`{${parts.join(',')}}`);
}

/**
 * Compiles every x-kubernetes-validations rule of a CRD version's openAPIV3Schema as CRD validation
 * does. fldPath is the path of openAPIV3Schema itself (`spec.validation.openAPIV3Schema`,
 * `spec.versions[0].schema.openAPIV3Schema`). Call only for structurally valid schemas (upstream
 * creates the CEL context only then). Never throws.
 */
export function validateRulesAtCRDWrite(schema: JSONSchemaProps | undefined, fldPath: Path, opts: CRDRuleOptions = {}): CRDRuleResult {
  const out: CRDRuleResult = { errors: [], totalCost: 0n, costs: [] };
  if (schema === undefined || schema === null) return out;
  const expensive: { path: string; cost: bigint }[] = [];
  const observe = (path: string, cost: bigint) => {
    out.totalCost = out.totalCost + cost > MAX_UINT64 ? MAX_UINT64 : out.totalCost + cost;
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100n) return;
    expensive.push({ path, cost });
    expensive.sort((a, b) => (a.cost > b.cost ? -1 : a.cost < b.cost ? 1 : 0));
    if (expensive.length > 4) expensive.length = 4;
  };
  const live = new Set<JSONSchemaProps>();
  if (markRules(schema, live)) walk(schema, fldPath, Context.root(schema, opts.structural), undefined, [], opts, out, observe, live);
  if (out.totalCost > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of expensive) out.errors.push(forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    out.errors.push(forbidden(fldPath, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', out.totalCost, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return out;
}

/**
 * Adds to `live` every node at or below s that has rules at or below it (the nodes walk visits:
 * it reports nothing about the others), and says whether s is one. Real schemas are large and
 * their rules few, so this pass reads each node's own keys once, where walk's named lookups on
 * thousands of differently shaped nodes would each be megamorphic.
 */
function markRules(s: JSONSchemaProps, live: Set<JSONSchemaProps>): boolean {
  let found = false;
  let props: unknown;
  let items: unknown;
  let ap: unknown;
  for (const k in s) {
    switch (k) {
      case 'x-kubernetes-validations':
        // walk compiles whatever is there unless it is absent or empty.
        if (((s[k] ?? []) as { length?: unknown }).length !== 0) found = true;
        break;
      case 'properties':
        props = s[k];
        break;
      case 'items':
        items = s[k];
        break;
      case 'additionalProperties':
        ap = s[k];
        break;
    }
  }
  const sub = (x: unknown): boolean => x !== null && typeof x === 'object' && !Array.isArray(x) && markRules(x as JSONSchemaProps, live);
  if (sub(ap)) found = true;
  if (props !== null && typeof props === 'object') {
    const m = props as Record<string, unknown>;
    for (const k in m) if (sub(m[k])) found = true;
  }
  if (sub(items)) found = true;
  if (found) live.add(s);
  return found;
}

function walk(
  schema: JSONSchemaProps,
  path: Path,
  ctx: Context,
  forbidOldSelf: Path | undefined,
  ancestors: Ancestors,
  opts: CRDRuleOptions,
  out: CRDRuleResult,
  observe: (path: string, cost: bigint) => void,
  live: ReadonlySet<JSONSchemaProps>,
): void {
  const ap = additionalPropertiesSchema(schema);
  if (ap !== undefined && live.has(ap)) {
    const anc = schema.maxProperties === undefined ? [...ancestors, { path: path.toString(), keyword: 'maxProperties' as const }] : ancestors;
    walk(ap, path.child('additionalProperties'), ctx.child(ap, additionalPropertiesAccessor), forbidOldSelf, anc, opts, out, observe, live);
  }
  if (schema.properties) {
    const correlatable = schema['x-kubernetes-map-type'] === undefined || schema['x-kubernetes-map-type'] === 'granular' || schema['x-kubernetes-map-type'] === 'atomic';
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (prop === null || prop === undefined || !live.has(prop)) continue;
      walk(prop, path.child('properties').key(name), ctx.child(prop, propertyAccessor(name)), correlatable ? forbidOldSelf : (forbidOldSelf ?? path), ancestors, opts, out, observe, live);
    }
  }
  const items = itemsSchema(schema);
  if (items !== undefined && live.has(items)) {
    // Only list-type=map items correlate old and new (set elements by identity are not supported).
    const sub = schema['x-kubernetes-list-type'] === 'map' ? forbidOldSelf : (forbidOldSelf ?? path);
    const anc = schema.maxItems === undefined ? [...ancestors, { path: path.toString(), keyword: 'maxItems' as const }] : ancestors;
    walk(items, path.child('items'), ctx.child(items, itemsAccessor), sub, anc, opts, out, observe, live);
  }
  const rules = schema['x-kubernetes-validations'] ?? [];
  if (rules.length === 0) return;
  const nodePath = path.toString();
  if (opts.hasSchemaErrors?.(nodePath)) return;
  const xv = path.child('x-kubernetes-validations');
  const ti = ctx.info();
  if (ti.err !== undefined) {
    out.errors.push(internalError(xv, `internal error: failed to construct type information for x-kubernetes-validations rules: ${ti.err}`));
    return;
  }
  if (ti.info === undefined) {
    out.errors.push(internalError(xv, 'internal error: failed to retrieve type information for x-kubernetes-validations'));
    return;
  }
  let results: CompiledRule[];
  try {
    results = compileRules(ti.info.schema, ti.info.declType, { compatibilityVersion: opts.compatibilityVersion });
  } catch (e) {
    out.errors.push(internalError(xv, (e as Error).message));
    return;
  }
  results.forEach((cr, i) => {
    const rulePath = xv.index(i).child('rule');
    const cost = expressionCost(cr.maxCost, ctx.maxCardinality, cr.maxCardinality);
    if (!opts.suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT) {
      out.errors.push(forbidden(rulePath, costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
    }
    observe(rulePath.toString(), cost);
    out.costs.push({ path: rulePath.toString(), cost, cardinality: ctx.maxCardinality, compiled: cr, unboundedAncestors: ancestors });
    const rule = rules[i]!;
    if (cr.error !== undefined) {
      out.errors.push(cr.error.type === 'Required' ? required(rulePath, cr.error.detail) : invalid(rulePath, ruleValue(rule), cr.error.detail));
    }
    if (cr.messageExpressionError !== undefined) {
      out.errors.push(invalid(xv.index(i).child('messageExpression'), ruleValue(rule), cr.messageExpressionError.detail));
    } else if (cr.messageExpression !== undefined) {
      const mPath = xv.index(i).child('messageExpression');
      // upstream observes the messageExpression's estimated cost as is (not times the cardinality)
      const mCost = cr.messageExpressionMaxCost;
      if (!opts.suppressPerExpressionCost && mCost > STATIC_ESTIMATED_COST_LIMIT) {
        out.errors.push(forbidden(mPath, costErrorMessage('estimated messageExpression cost', mCost, STATIC_ESTIMATED_COST_LIMIT)));
      }
      observe(mPath.toString(), mCost);
      out.costs.push({ path: mPath.toString(), cost: mCost, cardinality: undefined, compiled: cr, unboundedAncestors: [] });
    }
    if (cr.usesOldSelf) {
      if (forbidOldSelf !== undefined) {
        out.errors.push(invalid(rulePath, rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${forbidOldSelf.toString()}`));
      }
    } else if (rule.optionalOldSelf !== undefined && rule.optionalOldSelf !== null) {
      out.errors.push(invalid(xv.index(i).child('optionalOldSelf'), rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
}
