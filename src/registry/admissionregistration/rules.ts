/**
 * The parts of admissionregistration's object validation the policy kinds share
 * (`pkg/apis/admissionregistration/validation/validation.go`): rules with their wildcards and
 * subresources, named rules with resource names, matchResources, paramKind, paramRef,
 * validationActions, matchConditions and variables — messages as kube-apiserver words them.
 */
import {
  duplicate,
  forbidden,
  invalid,
  isDNS1035Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidPathSegmentName,
  notSupported,
  required,
  tooMany,
  validateLabelSelector,
  type FieldError,
  type LabelSelector,
  type Path,
} from '../../apimachinery/index.ts';
import { expressionFieldErrors, policyExpressionChecker, type PolicyExpressionOptions } from './expression-checker.ts';
import { given, listAt, objectAt, stringAt, stringsAt, type JSONObject } from './values.ts';

export const supportedFailurePolicies = ['Fail', 'Ignore'];
const supportedMatchPolicies = ['Equivalent', 'Exact'];
const validScopes = ['*', 'Cluster', 'Namespaced'];
const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const validValidationActions = ['Audit', 'Deny', 'Warn'];

/** What an expression's compile depends on besides its text (validationOptions). */
export interface ExpressionContext {
  /** matchConditions may use `params` (the policy has a paramKind). */
  allowParamsInMatchConditions: boolean;
  /** Expressions of the stored object (an update), compiled in the stored-expressions environment. */
  preexisting: ReadonlySet<string>;
  /** The variables declared so far, in order. */
  variables: { name: string; expression: string }[];
}

/** Compiles one expression with the installed checker, as a field error list at `path`. */
export function checkExpression(path: Path, expression: string, ctx: ExpressionContext, opts: Omit<PolicyExpressionOptions, 'stored' | 'variables'>): FieldError[] {
  const errs = policyExpressionChecker().compile(expression, { ...opts, stored: ctx.preexisting.has(expression), variables: [...ctx.variables] });
  return errs.length === 0 ? [] : expressionFieldErrors(path, expression, errs);
}

/** ValidateQualifiedName: one Invalid per message of IsQualifiedName. */
export function validateQualifiedName(value: string, path: Path): FieldError[] {
  return isQualifiedName(value).map((m) => invalid(path, value, m));
}

function validateResources(resources: string[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path, ''));
  const resourcesWithWildcardSubresources = new Set<string>();
  const subresourcesWithWildcardResource = new Set<string>();
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(path.index(i), ''));
      return;
    }
    if (resSub === '*/*') hasDoubleWildcard = true;
    if (resSub === '*') hasSingleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      // Upstream assigns (not ORs) here: the last resource without a subresource decides.
      hasResourceWithoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (resourcesWithWildcardSubresources.has(res)) errs.push(invalid(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subresourcesWithWildcardResource.has(sub)) errs.push(invalid(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') resourcesWithWildcardSubresources.add(res);
    if (res === '*') subresourcesWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && hasDoubleWildcard) errs.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (hasSingleWildcard && hasResourceWithoutSubresource) errs.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateRule with subresources allowed (the policies' rules always allow them). */
function validateRule(rule: JSONObject, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const groups = stringsAt(rule.apiGroups);
  const versions = stringsAt(rule.apiVersions);
  if (groups.length === 0) errs.push(required(path.child('apiGroups'), ''));
  if (groups.length > 1 && groups.includes('*')) errs.push(invalid(path.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  if (versions.length === 0) errs.push(required(path.child('apiVersions'), ''));
  if (versions.length > 1 && versions.includes('*')) errs.push(invalid(path.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(path.child('apiVersions').index(i), ''));
  });
  errs.push(...validateResources(stringsAt(rule.resources), path.child('resources')));
  if (given(rule.scope) && !validScopes.includes(stringAt(rule.scope))) errs.push(notSupported(path.child('scope'), rule.scope, validScopes));
  return errs;
}

/** validateRuleWithOperations (subresources allowed): a policy's rules and a webhook's. */
export function validateRuleWithOperations(rule: JSONObject, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const ops = stringsAt(rule.operations);
  if (ops.length === 0) errs.push(required(path.child('operations'), ''));
  if (ops.length > 1 && ops.includes('*')) errs.push(invalid(path.child('operations'), ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!supportedOperations.includes(op)) errs.push(notSupported(path.child('operations').index(i), op, supportedOperations));
  });
  errs.push(...validateRule(rule, path));
  return errs;
}

function validateNamedRuleWithOperations(rule: JSONObject, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  stringsAt(rule.resourceNames).forEach((name, i) => {
    for (const m of isValidPathSegmentName(name)) errs.push(invalid(path.child('resourceNames').index(i), name, m));
    if (seen.has(name)) errs.push(duplicate(path.child('resourceNames').index(i), name));
    else seen.add(name);
  });
  errs.push(...validateRuleWithOperations(rule, path));
  return errs;
}

/** validateMatchResources (strict label selectors: the kinds came after kubernetes#99139). */
export function validateMatchResources(mc: JSONObject | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (mc === undefined) return errs;
  if (!given(mc.matchPolicy)) errs.push(required(path.child('matchPolicy'), ''));
  else if (!supportedMatchPolicies.includes(stringAt(mc.matchPolicy))) errs.push(notSupported(path.child('matchPolicy'), mc.matchPolicy, supportedMatchPolicies));
  for (const sel of ['namespaceSelector', 'objectSelector'] as const) {
    const s = objectAt(mc[sel]);
    if (s === undefined) errs.push(required(path.child(sel), ''));
    else errs.push(...validateLabelSelector(s as LabelSelector, {}, path.child(sel)));
  }
  for (const list of ['resourceRules', 'excludeResourceRules'] as const) {
    listAt(mc[list]).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(objectAt(r) ?? {}, path.child(list).index(i))));
  }
  return errs;
}

/** The operations of resourceRules a MutatingAdmissionPolicy (or its binding) may name: only creates and updates are mutated. */
export function validateMutatingOperations(mc: JSONObject, path: Path): FieldError[] {
  const supported = ['*', 'CREATE', 'UPDATE'];
  const errs: FieldError[] = [];
  for (const r of listAt(mc.resourceRules)) {
    for (const op of stringsAt(objectAt(r)?.operations)) if (!supported.includes(op)) errs.push(notSupported(path, op, supported));
  }
  return errs;
}

/** parseGroupVersion: '' and '/' are the empty group-version; more than one '/' is an error. */
function parseGroupVersion(gv: string): { group: string; version: string } | string {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return `unexpected GroupVersion string: ${gv}`;
}

export function validateParamKind(pk: JSONObject, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = stringAt(pk.apiVersion);
  const kind = stringAt(pk.kind);
  if (apiVersion === '') errs.push(required(path.child('apiVersion'), ''));
  else {
    const gv = parseGroupVersion(apiVersion);
    if (typeof gv === 'string') errs.push(invalid(path.child('apiVersion'), apiVersion, gv));
    else {
      if (gv.group !== '') {
        const m = isDNS1123Subdomain(gv.group);
        if (m.length > 0) errs.push(invalid(path.child('apiVersion'), gv.group, m.join(',')));
      }
      if (gv.version === '') errs.push(invalid(path.child('apiVersion'), apiVersion, 'version must be specified'));
      else {
        const m = isDNS1035Label(gv.version);
        if (m.length > 0) errs.push(invalid(path.child('apiVersion'), gv.version, m.join(',')));
      }
    }
  }
  if (kind === '') errs.push(required(path.child('kind'), ''));
  else {
    const m = isDNS1035Label(kind.toLowerCase());
    if (m.length > 0) errs.push(invalid(path.child('kind'), kind, 'may have mixed case, but should otherwise match: ' + m.join(',')));
  }
  return errs;
}

export function validateParamRef(pr: JSONObject | undefined, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (pr === undefined) return errs;
  const name = stringAt(pr.name);
  const selector = objectAt(pr.selector);
  if (name !== '') {
    for (const m of isValidPathSegmentName(name)) errs.push(invalid(path.child('name'), name, m));
    if (selector !== undefined) errs.push(forbidden(path.child('name'), 'name and selector are mutually exclusive'));
  }
  if (selector !== undefined) {
    errs.push(...validateLabelSelector(selector as LabelSelector, {}, path.child('selector')));
    if (name !== '') errs.push(forbidden(path.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (name === '' && selector === undefined) errs.push(required(path, 'one of name or selector must be specified'));
  const action = stringAt(pr.parameterNotFoundAction);
  if (action === '') errs.push(required(path.child('parameterNotFoundAction'), ''));
  else if (action !== 'Deny' && action !== 'Allow') errs.push(notSupported(path.child('parameterNotFoundAction'), action, ['Deny', 'Allow']));
  return errs;
}

export function validateValidationActions(va: string[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const actions = new Set<string>();
  va.forEach((a, i) => {
    if (!validValidationActions.includes(a)) errs.push(notSupported(path.index(i), a, validValidationActions));
    if (actions.has(a)) errs.push(duplicate(path.index(i), a));
    actions.add(a);
  });
  if (actions.has('Deny') && actions.has('Warn')) {
    errs.push(invalid(path, va, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (actions.size === 0) errs.push(required(path, 'at least one validation action is required'));
  return errs;
}

/** kube-apiserver allows at most this many matchConditions. */
const maxMatchConditions = 64;

export function validateMatchConditions(conditions: unknown[], ctx: ExpressionContext, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  if (conditions.length > maxMatchConditions) errs.push(tooMany(path, conditions.length, maxMatchConditions));
  conditions.forEach((c, i) => {
    const mc = objectAt(c) ?? {};
    const p = path.index(i);
    const expression = stringAt(mc.expression).trim();
    const name = stringAt(mc.name);
    if (expression === '') errs.push(required(p.child('expression'), ''));
    else errs.push(...checkExpression(p.child('expression'), expression, ctx, { kind: 'matchCondition', hasParams: ctx.allowParamsInMatchConditions, hasAuthorizer: true, hasPatchTypes: false }));
    if (name === '') errs.push(required(p.child('name'), ''));
    else errs.push(...validateQualifiedName(name, p.child('name')));
    if (name !== '') {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const celReserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** validateVariable; a variable that compiles is declared for the expressions after it. */
export function validateVariable(v: JSONObject, hasParams: boolean, ctx: ExpressionContext, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(v.name);
  const expression = stringAt(v.expression);
  if (name.trim() === '') errs.push(required(path.child('name'), 'name is not specified'));
  else if (!celIdentifier.test(name) || celReserved.has(name)) errs.push(invalid(path.child('name'), name, 'must be a valid CEL identifier'));
  if (expression.trim() === '') errs.push(required(path.child('expression'), 'expression is not specified'));
  else {
    errs.push(...checkExpression(path.child('expression'), expression, ctx, { kind: 'variable', hasParams, hasAuthorizer: true, hasPatchTypes: false }));
    ctx.variables.push({ name, expression });
  }
  return errs;
}
