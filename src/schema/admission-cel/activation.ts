/**
 * Evaluating admission expressions (k8s.io/apiserver pkg/admission/plugin/cel activation.go and
 * composition.go): the activation binding `object`, `oldObject` (null when absent), `params`,
 * `request`, `namespaceObject`, `authorizer`, `authorizer.requestResource`, and `variables` — a
 * lazy map evaluating each variable on first access, once per activation, its cost charged to the
 * evaluation that needed it — and `evaluate`, which runs one compiled expression against the
 * remaining per-evaluation budget with upstream's error texts.
 */
import {
  CelError,
  CelMap,
  LazyFields,
  fromJSON,
  newAuthorizerValue,
  newResourceAuthorizerValue,
  parseTimestamp,
  type Activation,
  type Authorizer,
  type Val,
} from '../../cel/index.ts';
import type { CompiledExpression, CompiledVariable } from './compile.ts';

/** The user a request is made as, as the authorizer library sees it. */
export interface AuthorizerUser {
  name: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** What one evaluation sees. JSON values as stored; undefined and null bind null. */
export interface AdmissionInput {
  object: unknown;
  oldObject: unknown;
  params?: unknown;
  /** The AdmissionRequest as CreateAdmissionRequest builds it (JSON field names). */
  request: Record<string, unknown>;
  /** The request's namespace object (null for cluster-scoped requests and Namespaces). */
  namespace?: Record<string, unknown> | null;
  /**
   * CEL values already converted, by JSON object: one request's object, old object and params are
   * read by every matching policy and binding (CEL values are never mutated). Scope it to one
   * request.
   */
  conversions?: WeakMap<object, Val>;
  /** The authorizer and the request's resource, for `authorizer` and `authorizer.requestResource`. */
  authorizer?: {
    user: AuthorizerUser;
    authorizer: Authorizer;
    resource: { group: string; resource: string; subresource: string; namespace: string; name: string };
  };
}

/** The fields of a Namespace CreateNamespaceObject keeps, with its times as timestamps. */
export function namespaceObjectValue(ns: Record<string, unknown> | null | undefined): Val {
  if (ns === null || ns === undefined) return null;
  const meta = (ns.metadata ?? {}) as Record<string, unknown>;
  const m: Record<string, unknown> = {};
  for (const k of ['name', 'generateName', 'namespace', 'labels', 'annotations', 'resourceVersion', 'generation', 'deletionGracePeriodSeconds', 'finalizers']) {
    if (meta[k] !== undefined && meta[k] !== null) m[k] = meta[k];
  }
  if (typeof meta.uid === 'string') m.UID = meta.uid;
  const out = fromJSON({ metadata: m, spec: ns.spec ?? {}, status: ns.status ?? {} }) as CelMap;
  const metaVal = out.m.get('metadata') as CelMap;
  for (const k of ['creationTimestamp', 'deletionTimestamp']) {
    if (typeof meta[k] === 'string') {
      const t = parseTimestamp(meta[k]);
      if (!(t instanceof CelError)) metaVal.m.set(k, t);
    }
  }
  const conditions = (out.m.get('status') as CelMap | undefined)?.m.get('conditions');
  if (Array.isArray(conditions)) {
    for (const c of conditions) {
      const lt = c instanceof CelMap ? c.m.get('lastTransitionTime') : undefined;
      if (typeof lt === 'string') {
        const t = parseTimestamp(lt);
        if (!(t instanceof CelError)) (c as CelMap).m.set('lastTransitionTime', t);
      }
    }
  }
  return out;
}

/** The CEL value of a JSON value, converted once per object while `cache` lives. */
function celValueOf(x: unknown, cache: WeakMap<object, Val> | undefined): Val {
  if (x === null || x === undefined) return null;
  if (typeof x !== 'object' || cache === undefined) return fromJSON(x);
  let v = cache.get(x);
  if (v === undefined) cache.set(x, (v = fromJSON(x)));
  return v;
}

/** composition.go's lazy map of variables: each evaluated once, on first access. */
class LazyVariables extends LazyFields {
  private readonly byName: Map<string, CompiledVariable>;

  constructor(
    variables: readonly CompiledVariable[],
    private readonly activation: AdmissionActivation,
  ) {
    super();
    this.byName = new Map(variables.map((v) => [v.name, v]));
  }

  override get(k: string | bigint | boolean | number): Val | undefined {
    const cached = super.get(k as never);
    if (cached !== undefined || typeof k !== 'string') return cached;
    const v = this.byName.get(k);
    if (v === undefined) return undefined;
    let val: Val;
    if (v.program === undefined) val = new CelError(`composited variable "${k}" fails to compile: ${v.error}`);
    else {
      const r = v.program.eval(this.activation);
      this.activation.variableCost += r.cost;
      val = r.error !== undefined ? new CelError(`composited variable "${k}" fails to evaluate: ${r.error.message}`) : r.value;
    }
    super.set(k, val);
    return val;
  }

  override has(k: string): boolean {
    return this.byName.has(k);
  }

  override testPresence(k: string): boolean | CelError {
    return this.byName.has(k);
  }
}

/** The activation of one evaluation (evaluationActivation). */
export class AdmissionActivation implements Activation {
  /** Cost spent evaluating variables since the last `evaluate` took it. */
  variableCost = 0;
  private readonly vars: Map<string, Val>;

  constructor(input: AdmissionInput, variables: readonly CompiledVariable[]) {
    this.vars = new Map<string, Val>([
      ['object', celValueOf(input.object, input.conversions)],
      ['oldObject', celValueOf(input.oldObject, input.conversions)],
      ['params', celValueOf(input.params, input.conversions)],
      ['request', fromJSON(input.request)],
      ['namespaceObject', namespaceObjectValue(input.namespace)],
      ['variables', new CelMap(new LazyVariables(variables, this))],
    ]);
    if (input.authorizer !== undefined) {
      const { user, authorizer, resource } = input.authorizer;
      this.vars.set('authorizer', newAuthorizerValue(user, authorizer) as unknown as Val);
      this.vars.set('authorizer.requestResource', newResourceAuthorizerValue(user, authorizer, resource) as unknown as Val);
    }
  }

  get(name: string): Val | undefined {
    return this.vars.get(name);
  }
}

/** The outcome of one expression (EvaluationResult), with the budget left. */
export interface Evaluation {
  value?: Val;
  /** The expression's error, as upstream words it. */
  error?: string;
  /** Set when the budget ran out: no further expression may run. */
  outOfBudget?: string;
  remaining: number;
}

/** upstream's out-of-budget detail. */
export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

/** activation.Evaluate: runs `c` within `remaining` cost (variables' cost included). */
export function evaluate(c: CompiledExpression, act: AdmissionActivation, remaining: number): Evaluation {
  if (c.program === undefined) return { error: `compilation error: ${c.error}`, remaining };
  act.variableCost = 0;
  const r = c.program.eval(act);
  const variableCost = act.variableCost;
  act.variableCost = 0;
  if (variableCost > remaining) return { outOfBudget: OUT_OF_BUDGET, remaining: -1 };
  remaining -= variableCost;
  if (r.cost > remaining) return { outOfBudget: OUT_OF_BUDGET, remaining: -1 };
  remaining -= r.cost;
  if (r.error !== undefined) return { error: `expression '${c.expression}' resulted in error: ${r.error.message}`, remaining };
  return { value: r.value, remaining };
}
