/**
 * The defaults of the admission policy kinds, from their Go defaulters
 * (`pkg/apis/admissionregistration/{v1,v1beta1}/defaults.go` with the generated walks over
 * nested types): a policy fails closed (failurePolicy Fail); matchResources match equivalent
 * versions and every namespace and object (matchPolicy Equivalent, empty selectors); a rule's
 * scope is `*`; a paramRef denies when its param is missing (parameterNotFoundAction Deny); a
 * MutatingAdmissionPolicy is not reinvoked (reinvocationPolicy Never). A webhook of a
 * Validating- or MutatingWebhookConfiguration fails closed, matches equivalent versions and every
 * namespace and object, waits 10 seconds (timeoutSeconds), a mutating one is not reinvoked, and a
 * service it calls listens on 443 (`SetDefaults_ValidatingWebhook`, `_MutatingWebhook`,
 * `_ServiceReference`). MUTATE their argument.
 */
import type { Obj } from '../rest.ts';
import { listAt, objectAt, type JSONObject } from './values.ts';

const unset = (v: unknown) => v === undefined || v === null;

/** SetDefaults_Rule over each rule of a list (resourceRules, excludeResourceRules). */
function defaultRules(rules: unknown): void {
  for (const r of listAt(rules)) {
    const rule = objectAt(r);
    if (rule && unset(rule.scope)) rule.scope = '*';
  }
}

/** SetDefaults_MatchResources, then its rules. */
function defaultMatchResources(mr: JSONObject | undefined): void {
  if (mr === undefined) return;
  if (unset(mr.matchPolicy)) mr.matchPolicy = 'Equivalent';
  if (unset(mr.namespaceSelector)) mr.namespaceSelector = {};
  if (unset(mr.objectSelector)) mr.objectSelector = {};
  defaultRules(mr.resourceRules);
  defaultRules(mr.excludeResourceRules);
}

/** SetDefaults_ParamRef. */
function defaultParamRef(pr: JSONObject | undefined): void {
  if (pr && unset(pr.parameterNotFoundAction)) pr.parameterNotFoundAction = 'Deny';
}

/** A policy's spec: SetDefaults_ValidatingAdmissionPolicySpec / _MutatingAdmissionPolicySpec. */
function defaultPolicy(obj: Obj, mutating: boolean): void {
  // Spec is a struct in the Go type, never nil: an absent spec is defaulted as an empty one.
  if (obj.spec === undefined || obj.spec === null) obj.spec = {};
  const spec = objectAt(obj.spec);
  if (spec === undefined) return;
  if (unset(spec.failurePolicy)) spec.failurePolicy = 'Fail';
  // ReinvocationPolicy is a plain string in the Go type: its zero value is defaulted too.
  if (mutating && (unset(spec.reinvocationPolicy) || spec.reinvocationPolicy === '')) spec.reinvocationPolicy = 'Never';
  defaultMatchResources(objectAt(spec.matchConstraints));
}

/** A binding's spec: its paramRef and matchResources. */
function defaultBinding(obj: Obj): void {
  const spec = objectAt(obj.spec);
  if (spec === undefined) return;
  defaultParamRef(objectAt(spec.paramRef));
  defaultMatchResources(objectAt(spec.matchResources));
}

/** Each webhook of a configuration, its rules and its service reference. */
function defaultWebhooks(obj: Obj, mutating: boolean): void {
  for (const w of listAt(obj.webhooks)) {
    const hook = objectAt(w);
    if (hook === undefined) continue;
    if (unset(hook.failurePolicy)) hook.failurePolicy = 'Fail';
    if (unset(hook.matchPolicy)) hook.matchPolicy = 'Equivalent';
    if (unset(hook.namespaceSelector)) hook.namespaceSelector = {};
    if (unset(hook.objectSelector)) hook.objectSelector = {};
    if (unset(hook.timeoutSeconds)) hook.timeoutSeconds = 10;
    if (mutating && unset(hook.reinvocationPolicy)) hook.reinvocationPolicy = 'Never';
    defaultRules(hook.rules);
    const service = objectAt(objectAt(hook.clientConfig)?.service);
    if (service && unset(service.port)) service.port = 443;
  }
}

/** By resource (the same in every version the kinds are served at). */
const byResource: Record<string, (obj: Obj) => void> = {
  validatingwebhookconfigurations: (o) => defaultWebhooks(o, false),
  mutatingwebhookconfigurations: (o) => defaultWebhooks(o, true),
  validatingadmissionpolicies: (o) => defaultPolicy(o, false),
  mutatingadmissionpolicies: (o) => defaultPolicy(o, true),
  validatingadmissionpolicybindings: defaultBinding,
  mutatingadmissionpolicybindings: defaultBinding,
};

export const admissionGroup = 'admissionregistration.k8s.io';

/** The defaulting of an admission policy resource, or undefined for any other resource. */
export function admissionPolicyDefaults(group: string, resource: string): ((obj: Obj) => void) | undefined {
  return group === admissionGroup ? byResource[resource] : undefined;
}
