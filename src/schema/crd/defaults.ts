/**
 * ValidateDefaults (apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go): every
 * `default` in a structural schema must be pruned (no unknown fields), coerce to valid metadata
 * where it lands inside ObjectMeta/TypeMeta, validate against the schema at its node, and pass the
 * node's x-kubernetes-validations rules (as an update from itself and as a create), within the
 * runtime cost budget of one object.
 */
import type { Path } from '../../apimachinery/index.ts';
import { aggregateString, errorString, invalid, type FieldError } from '../../apimachinery/index.ts';
import { coerce, validateEmbedded } from '../objectmeta.ts';
import { prune } from '../prune.ts';
import { structuralToSchema, type Structural } from '../structural.ts';
import { compileValidator, type SchemaValidator } from '../validate/validator.ts';
import { deepCopyJSON, deepEqualJSON, isObject } from '../value.ts';
import { compileCELValidator } from '../cel/validation.ts';
import { contentKey, sharedByContent } from '../compile-cache.ts';
import { RUNTIME_CEL_COST_BUDGET } from '../cel/env.ts';

/** How a default nested under the resource root is wrapped back into a whole object. */
type Wrap = { kind: 'child'; key: string } | { kind: 'index' };

class DefaultsError extends Error {}

/** NewRootObjectFunc().WithTypeMeta(validation/v1 Validation) applied through the wraps. */
function surroundingObject(x: unknown, wraps: readonly Wrap[]): Record<string, unknown> {
  let v = x;
  for (let i = wraps.length - 1; i >= 0; i--) {
    const w = wraps[i]!;
    v = w.kind === 'child' ? { [w.key]: v } : [v];
  }
  if (!isObject(v)) throw new DefaultsError('object root default value must be of object type');
  if (!Object.hasOwn(v, 'kind')) v.kind = 'Validation';
  if (!Object.hasOwn(v, 'apiVersion')) v.apiVersion = 'validation/v1';
  return v;
}

/**
 * ValidateDefaults(pth, s, isResourceRoot, requirePrunedDefaults). Returns field errors, or throws
 * an Error for the internal failure upstream returns as `error` (reported by the caller).
 */
export function validateDefaults(pth: Path, s: Structural | undefined, isResourceRoot: boolean, requirePrunedDefaults: boolean): FieldError[] {
  if (isResourceRoot) {
    const base = s ?? undefined;
    if (base !== undefined && !base.xEmbeddedResource) s = { ...base, xEmbeddedResource: true };
  }
  const errs: FieldError[] = [];
  try {
    walk(pth, s, s, [], false, requirePrunedDefaults, errs, { remaining: RUNTIME_CEL_COST_BUDGET }, new Map());
  } catch (e) {
    if (e instanceof DefaultsError) throw new Error(`failed to validate default value inside metadata: ${e.message}`);
    throw e;
  }
  return errs;
}

function walk(
  pth: Path,
  s: Structural | undefined,
  rootSchema: Structural | undefined,
  wraps: Wrap[],
  insideMeta: boolean,
  requirePruned: boolean,
  errs: FieldError[],
  budget: { remaining: number },
  validators: Map<string, SchemaValidator>,
): void {
  if (s === undefined || budget.remaining < 0) return;
  if (s.xEmbeddedResource) {
    insideMeta = false;
    wraps = [];
    rootSchema = s;
  }
  if (s.default !== undefined) {
    const validator = defaultValidator(s, validators);
    const dpath = pth.child('default');
    if (insideMeta) {
      const obj = surroundingObject(deepCopyJSON(s.default), wraps);
      const c = coerce(undefined, obj, rootSchema, true, {});
      if (c.error !== undefined) {
        errs.push(invalid(dpath, s.default, `must result in valid metadata: ${errorString(c.error)}`));
      } else {
        const me = validateEmbedded(undefined, obj, rootSchema, true);
        if (me.length > 0) errs.push(invalid(dpath, s.default, `must result in valid metadata: ${aggregateString(me)}`));
        else {
          const ve = validator.validate(s.default, dpath.toString());
          if (ve.length > 0) errs.push(...ve);
          else errs.push(...defaultRules(s, s === rootSchema, s.default, dpath, budget));
        }
      }
    } else {
      if (requirePruned) {
        const pruned = deepCopyJSON(s.default);
        prune(pruned, s, s.xEmbeddedResource);
        if (!deepEqualJSON(pruned, s.default)) errs.push(invalid(dpath, s.default, 'must not have unknown fields'));
      }
      // Upstream coerces the schema's default in place; a copy keeps the CRD object unchanged.
      const d = deepCopyJSON(s.default);
      const c = coerce(dpath, d, s, s.xEmbeddedResource, {});
      if (c.error !== undefined) errs.push(c.error);
      else {
        const me = validateEmbedded(dpath, d, s, s.xEmbeddedResource);
        if (me.length > 0) errs.push(...me);
        else {
          const ve = validator.validate(d, dpath.toString());
          if (ve.length > 0) errs.push(...ve);
          else errs.push(...defaultRules(s, s === rootSchema, d, dpath, budget));
        }
      }
    }
  }
  if (s.items !== undefined) walk(pth.child('items'), s.items, rootSchema, [...wraps, { kind: 'index' }], insideMeta, requirePruned, errs, budget, validators);
  if (s.properties) {
    for (const [k, sub] of s.properties) {
      const subInside = insideMeta || (s.xEmbeddedResource && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
      walk(pth.child('properties').key(k), sub, rootSchema, [...wraps, { kind: 'child', key: k }], subInside, requirePruned, errs, budget, validators);
    }
  }
}

/**
 * The validator of one node's default: kube-openapi's SchemaValidator of the node's schema, as
 * upstream builds one per default. It validates a single small value once, so it is compiled
 * without the generated fast passes (the detailed validator alone, which they only stand in
 * front of): generating and loading that code cost more than everything else in judging a CRD
 * with many defaults.
 */
function defaultValidator(s: Structural, seen: Map<string, SchemaValidator>): SchemaValidator {
  // Real schemas repeat their defaulted subschemas many times over (Argo's 221 schema versions
  // hold 5,318 defaults, 131 of them distinct), so equal ones share one validator: within this
  // check for certain, and across checks while it is alive.
  const schema = structuralToSchema(s);
  const key = contentKey('default validator', schema);
  let v = seen.get(key);
  if (v === undefined) {
    v = sharedByContent(key, () => compileValidator(schema, { fastPath: false }));
    seen.set(key, v);
  }
  return v;
}

/**
 * The node's CEL rules on its default: as an update of the default to itself (transition rules see
 * it as oldSelf) and, since rules with optionalOldSelf can tell, as a create; the cost of the
 * dearer run is charged to the budget.
 */
function defaultRules(s: Structural, isResourceRoot: boolean, value: unknown, dpath: Path, budget: { remaining: number }): FieldError[] {
  const cel = compileCELValidator(s, isResourceRoot);
  if (cel === undefined) return [];
  const asUpdate = cel.validate(value, value, { path: dpath, budget: budget.remaining });
  if (asUpdate.errors.length > 0) {
    budget.remaining = asUpdate.remainingBudget;
    return asUpdate.errors;
  }
  const asCreate = cel.validate(value, undefined, { path: dpath, budget: budget.remaining });
  budget.remaining = Math.min(asUpdate.remainingBudget, asCreate.remainingBudget);
  return asCreate.errors;
}
