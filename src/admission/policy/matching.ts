/**
 * Which requests a policy or binding applies to (k8s.io/apiserver pkg/admission/plugin/policy
 * matching and generic/policy_matcher.go, over the webhook predicates rules, namespace and
 * object): namespaceSelector (cluster-scoped requests always match, a Namespace is judged by its
 * own labels on create and update), objectSelector on the new or the old object,
 * excludeResourceRules, resourceRules (groups, versions, operations, resources with `*` and
 * `res/sub` wildcards, scope, resourceNames), matchPolicy Equivalent through the other versions of
 * the same resource. Errors are values: a selector that does not parse is an internal error, a
 * missing namespace its NotFound, a nil selector upstream's configuration error.
 */
import { labelSelectorAsSelector, matches as selectorMatches, newInternalError, newNotFound, StatusError, type Selector } from '../../apimachinery/index.ts';
import type { Obj, Operation } from '../../registry/index.ts';

export interface GVR {
  group: string;
  version: string;
  resource: string;
}
export interface GVK {
  group: string;
  version: string;
  kind: string;
}

/** What matching reads of a request (a subset of AdmissionAttributes). */
export interface MatchAttributes {
  operation: Operation;
  resource: GVR;
  subresource: string;
  kind: GVK;
  namespace: string;
  name: string;
  object: Obj | undefined;
  oldObject: Obj | undefined;
}

/** A NamedRuleWithOperations as the API holds it. */
export interface NamedRule {
  apiGroups?: string[];
  apiVersions?: string[];
  operations?: string[];
  resources?: string[];
  scope?: string;
  resourceNames?: string[];
}

/** MatchResources as the API holds it. */
export interface MatchResources {
  namespaceSelector?: Obj | null;
  objectSelector?: Obj | null;
  resourceRules?: NamedRule[];
  excludeResourceRules?: NamedRule[];
  matchPolicy?: string;
}

/** What matching needs beyond the request: namespaces, and the resource's other versions. */
export interface MatchContext {
  /** The namespace named, or undefined when it does not exist. */
  getNamespace(name: string): Promise<Obj | undefined>;
  /** The same resource at its other served versions, with their kinds (EquivalentResourceMapper). */
  equivalents?(resource: GVR, subresource: string): { resource: GVR; kind: GVK }[];
}

/** The outcome: whether it matched, and the resource and kind it matched as. */
export type MatchResult = { matches: false; error?: StatusError } | { matches: true; resource: GVR; kind: GVK };

const exactOrWildcard = (items: readonly string[] | undefined, requested: string): boolean =>
  (items ?? []).some((i) => i === '*' || i === requested);

const isNamespaceResource = (r: GVR): boolean => r.group === '' && r.version === 'v1' && r.resource === 'namespaces';

/** rules.Matcher.Matches: scope, operation, group, version, resource/subresource. */
export function ruleMatches(rule: NamedRule, a: MatchAttributes, resource: GVR = a.resource): boolean {
  const scope = rule.scope ?? '*';
  if (scope === 'Namespaced' && (isNamespaceResource(resource) || a.namespace === '')) return false;
  if (scope === 'Cluster' && !(isNamespaceResource(resource) || a.namespace === '')) return false;
  if (scope !== '*' && scope !== 'Namespaced' && scope !== 'Cluster') return false;
  if (!(rule.operations ?? []).some((op) => op === '*' || op === a.operation)) return false;
  if (!exactOrWildcard(rule.apiGroups, resource.group) || !exactOrWildcard(rule.apiVersions, resource.version)) return false;
  for (const rs of rule.resources ?? []) {
    const slash = rs.indexOf('/');
    const res = slash < 0 ? rs : rs.slice(0, slash);
    const sub = slash < 0 ? '' : rs.slice(slash + 1);
    if ((res === '*' || res === resource.resource) && (sub === '*' || sub === a.subresource)) return true;
  }
  return false;
}

const nameMatches = (rule: NamedRule, name: string): boolean => (rule.resourceNames ?? []).length === 0 || rule.resourceNames!.includes(name);

/** matchesResourceRules: the first rule matching directly, then (Equivalent) through equivalents. */
function matchesResourceRules(rules: readonly NamedRule[], matchPolicy: string | undefined, a: MatchAttributes, ctx: MatchContext): MatchResult {
  for (const rule of rules) {
    if (ruleMatches(rule, a) && nameMatches(rule, a.name)) return { matches: true, resource: a.resource, kind: a.kind };
  }
  if (matchPolicy === undefined || matchPolicy === 'Exact') return { matches: false };
  const equivalents = ctx.equivalents?.(a.resource, a.subresource) ?? [];
  for (const rule of rules) {
    for (const eq of equivalents) {
      if (eq.resource.group === a.resource.group && eq.resource.version === a.resource.version && eq.resource.resource === a.resource.resource) continue;
      if (!ruleMatches(rule, a, eq.resource)) continue;
      if (nameMatches(rule, a.name)) return { matches: true, resource: eq.resource, kind: eq.kind };
    }
  }
  return { matches: false };
}

/** LabelSelectorAsSelector, with a parse failure as the internal error upstream makes of it. */
function parseSelector(s: Obj | null | undefined): Selector | StatusError {
  try {
    return labelSelectorAsSelector(s as never);
  } catch (e) {
    return newInternalError(e instanceof Error ? e.message : String(e));
  }
}

const labelsOf = (o: Obj | undefined): Record<string, string> | undefined => {
  const m = o?.metadata as { labels?: Record<string, string> } | undefined;
  return m?.labels;
};

const isEmptySelector = (s: Selector): boolean => !s.nothing && s.requirements.length === 0;

/** Namespace matcher's MatchNamespaceSelector: true, false or an error. */
async function matchNamespaceSelector(criteria: MatchResources, a: MatchAttributes, ctx: MatchContext): Promise<boolean | StatusError> {
  if (a.namespace === '' && a.resource.resource !== 'namespaces') return true;
  const selector = parseSelector(criteria.namespaceSelector);
  if (selector instanceof StatusError) return selector;
  if (isEmptySelector(selector)) return true;
  let labels: Record<string, string> | undefined;
  if (a.resource.resource === 'namespaces' && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')) {
    labels = labelsOf(a.object);
  } else {
    const ns = await ctx.getNamespace(a.namespace);
    if (ns === undefined) return newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
    labels = labelsOf(ns);
  }
  return selectorMatches(selector, labels);
}

/** Object matcher's MatchObjectSelector: the new or the old object's labels. */
function matchObjectSelector(criteria: MatchResources, a: MatchAttributes): boolean | StatusError {
  const selector = parseSelector(criteria.objectSelector);
  if (selector instanceof StatusError) return selector;
  if (isEmptySelector(selector)) return true;
  const one = (o: Obj | undefined) => o !== undefined && o !== null && selectorMatches(selector, labelsOf(o) ?? {});
  return one(a.object) || one(a.oldObject);
}

/**
 * Matcher.Matches: a selector's mismatch decides before any error; excludeResourceRules, then
 * resourceRules (none: everything); then the selectors' errors.
 */
export async function matchesCriteria(criteria: MatchResources, a: MatchAttributes, ctx: MatchContext): Promise<MatchResult> {
  const ns = await matchNamespaceSelector(criteria, a, ctx);
  if (ns === false) return { matches: false };
  const obj = matchObjectSelector(criteria, a);
  if (obj === false) return { matches: false };
  const excluded = matchesResourceRules(criteria.excludeResourceRules ?? [], criteria.matchPolicy, a, ctx);
  if (excluded.matches) return { matches: false };
  const result: MatchResult =
    (criteria.resourceRules ?? []).length === 0
      ? { matches: true, resource: a.resource, kind: a.kind }
      : matchesResourceRules(criteria.resourceRules!, criteria.matchPolicy, a, ctx);
  if (!result.matches) return result;
  if (ns instanceof StatusError) return { matches: false, error: ns };
  if (obj instanceof StatusError) return { matches: false, error: obj };
  return result;
}

/** A configuration error of matching (not a StatusError): upstream's fmt.Errorf texts. */
export class MatchConfigError extends Error {}

const nilSelector = (which: string) => new MatchConfigError(`a nil ${which} selector was passed, please ensure selectors are initialized properly`);

/** DefinitionMatches: the policy's matchConstraints (required, with both selectors). */
export async function definitionMatches(constraints: MatchResources | undefined | null, a: MatchAttributes, ctx: MatchContext): Promise<MatchResult | MatchConfigError> {
  if (constraints === undefined || constraints === null) return new MatchConfigError('policy contained no match constraints, a required field');
  if (constraints.namespaceSelector === undefined || constraints.namespaceSelector === null) return nilSelector('namespace');
  if (constraints.objectSelector === undefined || constraints.objectSelector === null) return nilSelector('object');
  return matchesCriteria(constraints, a, ctx);
}

/** BindingMatches: a binding without matchResources matches whatever its policy does. */
export async function bindingMatches(matchResources: MatchResources | undefined | null, a: MatchAttributes, ctx: MatchContext): Promise<MatchResult | MatchConfigError> {
  if (matchResources === undefined || matchResources === null) return { matches: true, resource: a.resource, kind: a.kind };
  if (matchResources.namespaceSelector === undefined || matchResources.namespaceSelector === null) return nilSelector('namespace');
  if (matchResources.objectSelector === undefined || matchResources.objectSelector === null) return nilSelector('object');
  return matchesCriteria(matchResources, a, ctx);
}

/** IsExemptAdmissionConfigurationResource: admission configuration is never subject to policies. */
export function isExemptAdmissionConfiguration(kind: GVK): boolean {
  return (
    kind.group === 'admissionregistration.k8s.io' &&
    [
      'ValidatingWebhookConfiguration',
      'MutatingWebhookConfiguration',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
      'MutatingAdmissionPolicy',
      'MutatingAdmissionPolicyBinding',
    ].includes(kind.kind)
  );
}
