/**
 * The CEL environment of CRD validation rules (k8s.io/apiserver pkg/cel/environment/base.go at the
 * current compatibility version, extended as apiextensions' compilation.go extends it): the
 * extension libraries (strings v2, lists v3, sets, two-variable comprehensions, Kubernetes regex)
 * and the Kubernetes libraries (url, lists, authz, quantity, ip, cidr, format, semver), cross-type
 * numeric comparisons, optional types, free has(), cel-go's program optimisation, the four AST
 * validators, the per-call cost limit, and `self` / `oldSelf` typed from the schema.
 *
 * One RuleEnv is built per schema node with rules; compiling a rule parses, checks (with the
 * validators), estimates the cost with Kubernetes' call estimator and the schema's sizes, and plans.
 */
import { check, type CheckedExpr } from '../../cel/check/checker.ts';
import { estimateCost, type CostEstimate } from '../../cel/check/cost.ts';
import { CheckEnv } from '../../cel/check/env.ts';
import { kubernetesCallCost } from '../../cel/check/kubernetes-cost.ts';
import { optionalOf, type Type } from '../../cel/check/types.ts';
import { kubernetesValidators } from '../../cel/check/validators.ts';
import type { RtOverload } from '../../cel/eval/dispatch.ts';
import { CelError, type Val, isError } from '../../cel/eval/values.ts';
import { Env, extensionLibraries, type Library, type Program } from '../../cel/index.ts';
import { kubernetesLibraries, kubernetesTypeNames, withKubernetesTypes } from '../../cel/lib/kubernetes/index.ts';
import { optionalLibrary, standardLibrary } from '../../cel/lib/std/decls.ts';
import { stdImpls } from '../../cel/lib/std/impl.ts';
import type { Constant } from '../../cel/syntax/ast.ts';
import { parse } from '../../cel/syntax/parser.ts';
import { escape } from './escaping.ts';
import { assignTypeNames, declSizeEstimator, declTypeProvider, type DeclType } from './types.ts';
import { listTypeOf, markListType, type ListSemantics } from './values.ts';

/** celconfig.PerCallLimit: the runtime cost limit of one rule evaluation. */
export const PER_CALL_LIMIT = 1_000_000;
/** celconfig.RuntimeCELCostBudget: the runtime cost budget of validating one object. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;

/** The libraries of the base environment, in Kubernetes' order. */
export const baseLibraries: readonly Library[] = [
  extensionLibraries.regex,
  extensionLibraries.strings,
  extensionLibraries.sets,
  extensionLibraries.comprehensions,
  extensionLibraries.lists,
  ...kubernetesLibraries,
];

const converts = (ids: Record<string, string>) => (c: Constant): boolean => {
  const id = ids[c.kind];
  if (!id) return true;
  return !isError(stdImpls.get(id)!.impl((c as { value: unknown }).value as Val));
};

const validators = {
  ...kubernetesValidators({
    durationLiteral: converts({ string: 'string_to_duration', duration: 'duration_to_duration' }),
    timestampLiteral: converts({ string: 'string_to_timestamp', int: 'int64_to_timestamp' }),
  }),
  homogeneousExemptFunctions: ['format'],
};

let typeNameCounter = 0;

/**
 * generateUniqueSelfTypeName: a fresh name for `self`'s object type, so that rules cannot come to
 * depend on it.
 */
function uniqueSelfTypeName(): string {
  return `selfType${typeNameCounter++}`;
}

// ---- list-type set/map `+` ---------------------------------------------------------------------
// WORKAROUND (engine limitation): lists are plain arrays in the CEL runtime, so `+` on a set or map
// list cannot dispatch on the list's type. The add_list overload is replaced in rule environments
// by one that consults the list-type recorded by values.ts (union for sets, merge by key for maps),
// as Kubernetes' unstructuredSetList.Add / unstructuredMapList.Add do.

function setElementKey(v: Val): string | CelError {
  if (Array.isArray(v) || (typeof v === 'object' && v !== null && 'm' in v)) {
    return new CelError('listSet operations are only supported on lists of scalar values');
  }
  return `${typeof v}:${String(v)}`;
}

function addToSetList(elements: Val[], other: readonly Val[]): Val {
  const set = new Set<string>();
  for (const e of elements) {
    const k = setElementKey(e);
    if (k instanceof CelError) return k;
    set.add(k);
  }
  for (const v of other) {
    const k = setElementKey(v);
    if (k instanceof CelError) return k;
    if (!set.has(k)) {
      set.add(k);
      elements.push(v);
    }
  }
  return markListType(elements, { kind: 'set' });
}

function mapKeyOf(e: Val, keys: string[]): string {
  const parts = keys.map((k) => {
    const m = e as { m?: Map<unknown, Val> };
    const v = m.m?.get(escape(k) ?? k);
    return v === undefined || v instanceof CelError ? 'nil' : `${typeof v}:${String(v)}`;
  });
  return parts.join('\x00');
}

function addToMapList(elements: Val[], other: readonly Val[], keys: string[]): Val {
  const idx = new Map<string, number>();
  elements.forEach((e, i) => idx.set(mapKeyOf(e, keys), i));
  for (const v of other) {
    const k = mapKeyOf(v, keys);
    const at = idx.get(k);
    if (at !== undefined) elements[at] = v;
    else {
      idx.set(k, elements.length);
      elements.push(v);
    }
  }
  return markListType(elements, { kind: 'map', keys });
}

const stdAddList = stdImpls.get('add_list')!;

const listTypeAwareAdd: RtOverload = {
  ...stdAddList,
  impl: (a: Val, b: Val) => {
    const sem: ListSemantics | undefined = Array.isArray(a) ? listTypeOf(a as Val[]) : undefined;
    if (sem === undefined) return stdAddList.impl(a, b);
    if (sem.kind === 'set') return addToSetList([...(a as Val[])], b as Val[]);
    return addToMapList([...(a as Val[])], b as Val[], sem.keys);
  },
};

// ---- rule environments -------------------------------------------------------------------------

export type CompileOutcome = { program: Program; checked: CheckedExpr; cost: CostEstimate; issues?: undefined } | { issues: string };

/** The environment of the rules at one schema node: `self` (and `oldSelf`) of the node's type. */
export class RuleEnv {
  /** The declared type of self, with object types named. */
  readonly selfType: DeclType;
  private readonly env: Env;
  private readonly checkEnv: CheckEnv;
  private readonly sizes: ReturnType<typeof declSizeEstimator>;

  /**
   * optionalOldSelf: declare oldSelf as optional_type(T) (rules with optionalOldSelf: true).
   */
  constructor(declType: DeclType, optionalOldSelf: boolean, perCallLimit = PER_CALL_LIMIT) {
    this.selfType = assignTypeNames(declType, uniqueSelfTypeName());
    const selfCel: Type = this.selfType.celType;
    const variables: Record<string, Type> = { self: selfCel, oldSelf: optionalOldSelf ? optionalOf(selfCel) : selfCel };
    const provider = withKubernetesTypes(declTypeProvider(this.selfType));
    this.env = new Env({
      variables,
      libraries: [...baseLibraries],
      provider,
      typeNames: kubernetesTypeNames,
      crossTypeNumericComparisons: true,
      presenceTestHasCost: false,
      costLimit: perCallLimit,
      optimize: true,
    });
    this.env.addOverloads([listTypeAwareAdd]);
    this.checkEnv = new CheckEnv({
      provider,
      crossTypeNumericComparisons: true,
      libraries: [standardLibrary, optionalLibrary, ...baseLibraries],
      variables,
      validators,
    });
    this.sizes = declSizeEstimator(this.selfType);
  }

  /** Parse, check, estimate and plan one expression. */
  compile(source: string): CompileOutcome {
    const p = parse(source);
    if (!p.parsed) return { issues: p.issues.toString() };
    const c = check(p.parsed, this.checkEnv);
    if (!c.checked) return { issues: c.issues.toString() };
    const cost = estimateCost(c.checked, { sizeEstimator: this.sizes, callCost: kubernetesCallCost, presenceTestHasCost: false });
    return { program: this.env.planChecked(c.checked), checked: c.checked, cost };
  }
}
