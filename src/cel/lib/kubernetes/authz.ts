/**
 * Kubernetes' authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go): the declarations and
 * runtime of `authorizer.path(p).check(verb)`, `authorizer.group(g).resource(r).subresource(s)
 * .namespace(ns).name(n).check(verb)`, `authorizer.serviceAccount(ns, name)`, and the decision
 * accessors `allowed()`, `reason()`, `errored()`, `error()`; plus the selectors library
 * (`fieldSelector`, `labelSelector`). The admission layer supplies an `Authorizer` and binds the
 * `authorizer` / `authorizer.requestResource` variables with the values built here.
 */
import { BoolType, StringType, structType } from '../../check/types.ts';
import { errNoOverload, type Val } from '../../eval/values.ts';
import type { Library } from '../decls.ts';
import { err, fn, member } from '../define.ts';
import { nominalCost } from './costs.ts';
import { nameIsDNSLabel, nameIsDNSSubdomain } from './name-validation.ts';
import { LibraryValue } from './object.ts';
import { actualSize } from '../../eval/planner.ts';

export const AuthorizerType = structType('kubernetes.authorization.Authorizer');
export const PathCheckType = structType('kubernetes.authorization.PathCheck');
export const GroupCheckType = structType('kubernetes.authorization.GroupCheck');
export const ResourceCheckType = structType('kubernetes.authorization.ResourceCheck');
export const DecisionType = structType('kubernetes.authorization.Decision');

/** The user a check is made for (k8s.io/apiserver user.Info). */
export interface UserInfo {
  name: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/**
 * What is being authorized (authorizer.AttributesRecord). Selectors are passed as written; the
 * implementation parses them (upstream parses before calling the authorizer and passes the
 * requirements, or the parse error, along).
 */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  /** Non-resource requests. */
  path?: string;
  apiGroup?: string;
  apiVersion?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  fieldSelector?: string;
  labelSelector?: string;
}

export type AuthorizationDecision = 'Allow' | 'Deny' | 'NoOpinion';

/** An authorizer's answer: the decision, a reason, and an error when evaluation failed. */
export interface AuthorizationResult {
  decision: AuthorizationDecision;
  reason: string;
  error?: string;
}

/** What the admission layer implements (authorizer.Authorizer). Must not throw. */
export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): AuthorizationResult;
}

/** An authorizer that has no opinion on anything (so every check is not allowed). */
export const denyAllAuthorizer: Authorizer = {
  authorize: () => ({ decision: 'NoOpinion', reason: '' }),
};

let nextId = 0;

/** upstream's receiverOnlyObjectVal: a value with methods and no fields, equal only to itself. */
abstract class ReceiverOnly extends LibraryValue {
  constructor(typeName: string) {
    super(typeName, `#${nextId++}`);
  }
}

export class AuthorizerValue extends ReceiverOnly {
  constructor(
    readonly user: UserInfo,
    readonly authorizer: Authorizer,
  ) {
    super('kubernetes.authorization.Authorizer');
  }
}

export class PathCheckValue extends ReceiverOnly {
  constructor(
    readonly authz: AuthorizerValue,
    readonly path: string,
  ) {
    super('kubernetes.authorization.PathCheck');
  }
}

export class GroupCheckValue extends ReceiverOnly {
  constructor(
    readonly authz: AuthorizerValue,
    readonly group: string,
  ) {
    super('kubernetes.authorization.GroupCheck');
  }
}

interface ResourceFields {
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector: string;
  labelSelector: string;
}

export class ResourceCheckValue extends ReceiverOnly {
  constructor(
    readonly group: GroupCheckValue,
    readonly fields: ResourceFields,
  ) {
    super('kubernetes.authorization.ResourceCheck');
  }
  with(patch: Partial<ResourceFields>): ResourceCheckValue {
    return new ResourceCheckValue(this.group, { ...this.fields, ...patch });
  }
}

export class DecisionValue extends ReceiverOnly {
  constructor(readonly result: AuthorizationResult) {
    super('kubernetes.authorization.Decision');
  }
}

/** The value of the `authorizer` variable. */
export function newAuthorizerValue(user: UserInfo, authorizer: Authorizer): AuthorizerValue {
  return new AuthorizerValue(user, authorizer);
}

/** The request's resource being admitted (upstream's Resource). */
export interface RequestResource {
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

/** The value of the `authorizer.requestResource` variable: a resource check for the request's resource. */
export function newResourceAuthorizerValue(user: UserInfo, authorizer: Authorizer, r: RequestResource): ResourceCheckValue {
  const g = new GroupCheckValue(new AuthorizerValue(user, authorizer), r.group);
  return new ResourceCheckValue(g, { resource: r.resource, subresource: r.subresource, namespace: r.namespace, name: r.name, fieldSelector: '', labelSelector: '' });
}

/** The user of a service account (serviceaccount.ServiceAccountInfo.UserInfo). */
export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
  };
}

const isBlank = (s: string) => s.trim().length === 0;

function path(a: Val, p: string): Val {
  if (!(a instanceof AuthorizerValue)) return errNoOverload();
  if (isBlank(p)) return err('path must not be empty');
  return new PathCheckValue(a, p);
}

function group(a: Val, g: string): Val {
  return a instanceof AuthorizerValue ? new GroupCheckValue(a, g) : errNoOverload();
}

function serviceAccount(a: Val, namespace: string, name: string): Val {
  if (!(a instanceof AuthorizerValue)) return errNoOverload();
  if (nameIsDNSSubdomain(name, false).length > 0) return err('Invalid service account name');
  if (nameIsDNSLabel(namespace, false).length > 0) return err('Invalid service account namespace');
  return new AuthorizerValue(serviceAccountUser(namespace, name), a.authorizer);
}

function resource(g: Val, r: string): Val {
  if (!(g instanceof GroupCheckValue)) return errNoOverload();
  if (isBlank(r)) return err('resource must not be empty');
  return new ResourceCheckValue(g, { resource: r, subresource: '', namespace: '', name: '', fieldSelector: '', labelSelector: '' });
}

const setField = (k: keyof ResourceFields) => (r: Val, v: string) => (r instanceof ResourceCheckValue ? r.with({ [k]: v }) : errNoOverload());

function decide(authorizer: Authorizer, attrs: AuthorizationAttributes): Val {
  return new DecisionValue(authorizer.authorize(attrs));
}

function pathCheck(p: Val, verb: string): Val {
  if (!(p instanceof PathCheckValue)) return errNoOverload();
  return decide(p.authz.authorizer, { user: p.authz.user, verb, resourceRequest: false, path: p.path });
}

function resourceCheck(r: Val, verb: string): Val {
  if (!(r instanceof ResourceCheckValue)) return errNoOverload();
  const f = r.fields;
  const authz = r.group.authz;
  return decide(authz.authorizer, {
    user: authz.user,
    verb,
    resourceRequest: true,
    apiGroup: r.group.group,
    apiVersion: '*',
    resource: f.resource,
    subresource: f.subresource,
    namespace: f.namespace,
    name: f.name,
    ...(f.fieldSelector ? { fieldSelector: f.fieldSelector } : {}),
    ...(f.labelSelector ? { labelSelector: f.labelSelector } : {}),
  });
}

const withDecision = (f: (d: AuthorizationResult) => Val) => (d: Val) => (d instanceof DecisionValue ? f(d.result) : errNoOverload());

const S = StringType;
const checkCost = () => 350000;

export const authzLibrary: Library = {
  name: 'kubernetes.authz',
  functions: [
    fn('path', member('authorizer_path', [AuthorizerType, S], PathCheckType, path, { cost: nominalCost })),
    fn('group', member('authorizer_group', [AuthorizerType, S], GroupCheckType, group, { cost: nominalCost })),
    fn('serviceAccount', member('authorizer_serviceaccount', [AuthorizerType, S, S], AuthorizerType, serviceAccount, { cost: nominalCost })),
    fn('resource', member('groupcheck_resource', [GroupCheckType, S], ResourceCheckType, resource, { cost: nominalCost })),
    fn('subresource', member('resourcecheck_subresource', [ResourceCheckType, S], ResourceCheckType, setField('subresource'), { cost: nominalCost })),
    fn('namespace', member('resourcecheck_namespace', [ResourceCheckType, S], ResourceCheckType, setField('namespace'), { cost: nominalCost })),
    fn('name', member('resourcecheck_name', [ResourceCheckType, S], ResourceCheckType, setField('name'), { cost: nominalCost })),
    fn(
      'check',
      member('pathcheck_check', [PathCheckType, S], DecisionType, pathCheck, { cost: checkCost }),
      member('resourcecheck_check', [ResourceCheckType, S], DecisionType, resourceCheck, { cost: checkCost }),
    ),
    fn('errored', member('decision_errored', [DecisionType], BoolType, withDecision((d) => d.error !== undefined), { cost: nominalCost })),
    fn('error', member('decision_error', [DecisionType], S, withDecision((d) => d.error ?? ''), { cost: nominalCost })),
    fn('allowed', member('decision_allowed', [DecisionType], BoolType, withDecision((d) => d.decision === 'Allow'), { cost: nominalCost })),
    fn('reason', member('decision_reason', [DecisionType], S, withDecision((d) => d.reason), { cost: nominalCost })),
  ],
};

/** upstream's selector parse cost: list creation + traversal + requirements (cost.go selectorCostEstimate). */
function selectorCost(_r: Val, s: Val): number {
  const len = actualSize(s);
  // Each factor is applied with rounding up, as checker.SizeEstimate.MultiplyByCostFactor does.
  const parseCost = Math.ceil(len * 0.1);
  const requirementCount = Math.ceil(len * 0.5);
  return 10 + parseCost + Math.ceil(requirementCount * (10 + 40));
}

export const authzSelectorsLibrary: Library = {
  name: 'kubernetes.authzSelectors',
  functions: [
    fn('fieldSelector', member('authorizer_fieldselector', [ResourceCheckType, S], ResourceCheckType, setField('fieldSelector'), { cost: selectorCost })),
    fn('labelSelector', member('authorizer_labelselector', [ResourceCheckType, S], ResourceCheckType, setField('labelSelector'), { cost: selectorCost })),
  ],
};
