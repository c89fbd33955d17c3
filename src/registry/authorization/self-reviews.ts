/**
 * authorization.k8s.io/v1 access reviews (`pkg/registry/authorization/*`): SubjectAccessReview
 * (may this user do this?), SelfSubjectAccessReview (may I? — kubectl's `auth can-i`) and
 * SelfSubjectRulesReview (what may I do in this namespace? — `auth can-i --list`), answered by
 * the server's authorizer for the user the spec names or the requester. Without a context (a
 * registry used alone) they answer as the AlwaysAllow authorizer does.
 */
import { invalid, newBadRequest, newInvalid, Path, type FieldError } from '../../apimachinery/index.ts';
import type { AccessAttributes, ReviewContext, ReviewDefinition } from '../kind.ts';
import type { Obj, UserInfo } from '../rest.ts';

type Spec = {
  resourceAttributes?: { namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string };
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
  namespace?: string;
};

function review(resource: string, kind: string, status: (spec: Spec, ctx: ReviewContext | undefined, meta: Obj) => Obj, namespaced = false): ReviewDefinition {
  return {
    group: 'authorization.k8s.io',
    version: 'v1',
    resource,
    kind,
    singular: kind.toLowerCase(),
    ...(namespaced ? { namespaced } : {}),
    create(obj: Obj, ctx?: ReviewContext): Obj {
      const spec = (obj.spec ?? {}) as Spec;
      const metadata: Obj = { ...((obj.metadata as Obj | undefined) ?? {}) };
      if (namespaced && ctx?.namespace !== undefined && (metadata.namespace === undefined || metadata.namespace === '')) metadata.namespace = ctx.namespace;
      const st = status(spec, ctx, metadata);
      return { kind, apiVersion: 'authorization.k8s.io/v1', metadata: { ...metadata, creationTimestamp: null }, spec: obj.spec ?? {}, status: st };
    },
  };
}

/** ResourceAttributesFrom / NonResourceAttributesFrom: the spec as authorizer attributes. */
function attributesOf(spec: Spec, user: UserInfo): AccessAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      resourceRequest: true,
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      namespace: r.namespace ?? '',
      name: r.name ?? '',
      path: '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', resourceRequest: false, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '', path: n.path ?? '' };
}

function accessStatus(a: AccessAttributes, ctx: ReviewContext | undefined): Obj {
  if (!ctx) return { allowed: true };
  const d = ctx.authorize(a);
  return { allowed: d.decision === 'Allow', ...(d.decision === 'Deny' ? { denied: true } : {}), ...(d.reason ? { reason: d.reason } : {}) };
}

/** ValidateSubjectAccessReviewSpec / ValidateSelfSubjectAccessReviewSpec, refused as the review's 422. */
function validateSpec(kind: string, spec: Spec, subject: boolean): void {
  const errs: FieldError[] = [];
  const p = Path.of('spec');
  const r = spec.resourceAttributes !== undefined && spec.resourceAttributes !== null;
  const n = spec.nonResourceAttributes !== undefined && spec.nonResourceAttributes !== null;
  if (r && n) errs.push(invalid(p.child('nonResourceAttributes'), spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  if (!r && !n) errs.push(invalid(p.child('resourceAttributes'), null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (subject && !spec.user && (spec.groups ?? []).length === 0) errs.push(invalid(p.child('user'), spec.user ?? '', 'at least one of user or group must be specified'));
  if (errs.length > 0) throw newInvalid({ group: 'authorization.k8s.io', kind }, '', errs);
}

export const subjectAccessReview = review('subjectaccessreviews', 'SubjectAccessReview', (spec, ctx) => {
  validateSpec('SubjectAccessReview', spec, true);
  const user: UserInfo = { username: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
  return accessStatus(attributesOf(spec, user), ctx);
});

export const selfSubjectAccessReview = review('selfsubjectaccessreviews', 'SelfSubjectAccessReview', (spec, ctx) => {
  validateSpec('SelfSubjectAccessReview', spec, false);
  return accessStatus(attributesOf(spec, ctx?.user ?? { username: '', groups: [] }), ctx);
});

export const selfSubjectRulesReview = review('selfsubjectrulesreviews', 'SelfSubjectRulesReview', (spec, ctx) => {
  if (!ctx) {
    return { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false };
  }
  const rules = ctx.rulesFor(ctx.user, spec.namespace ?? '');
  return { resourceRules: rules.resourceRules, nonResourceRules: rules.nonResourceRules, incomplete: rules.incomplete, ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}) };
});

/**
 * LocalSubjectAccessReview (`namespaces/{ns}/localsubjectaccessreviews`): a SubjectAccessReview
 * held to its namespace — the object's namespace must be the request's, a resource check must name
 * it, and non-resource checks are not allowed.
 */
export const localSubjectAccessReview = review(
  'localsubjectaccessreviews',
  'LocalSubjectAccessReview',
  (spec, ctx, meta) => {
    const ns = ctx?.namespace ?? '';
    if (meta.namespace !== ns) throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${ns}`);
    const errs: FieldError[] = [];
    const p = Path.of('spec');
    if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== ns) errs.push(invalid(p.child('resourceAttributes', 'namespace'), spec.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
    if (spec.nonResourceAttributes) errs.push(invalid(p.child('nonResourceAttributes'), spec.nonResourceAttributes, 'disallowed on this kind of request'));
    if (errs.length > 0) throw newInvalid({ group: 'authorization.k8s.io', kind: 'LocalSubjectAccessReview' }, '', errs);
    validateSpec('LocalSubjectAccessReview', spec, true);
    const user: UserInfo = { username: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
    return accessStatus(attributesOf(spec, user), ctx);
  },
  true,
);
