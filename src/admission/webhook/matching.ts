/**
 * Whether a request goes to a webhook (k8s.io/apiserver pkg/admission/plugin/webhook/generic
 * webhook.go ShouldCallHook): the namespace and object selectors decide first (their errors
 * count only once a rule matched), then the rules — directly, else (matchPolicy Equivalent)
 * through the resource's other served versions, which names the version the webhook sees — and
 * last the matchConditions, whose error refuses the request with a 403.
 */
import { newForbidden, type StatusError } from '../../apimachinery/index.ts';
import type { AdmissionAttributes, Obj } from '../../registry/index.ts';
import type { AdmissionInput } from '../../schema/index.ts';
import { matchesCriteria, type GVK, type GVR, type MatchContext, type NamedRule } from '../policy/matching.ts';
import { admissionRequest } from '../policy/plugin.ts';
import type { ResourceKind, Versioned } from '../policy/versioned.ts';
import type { Authorizer } from '../../cel/index.ts';
import type { WebhookAccessor } from './source.ts';

/** A webhook to call, and the resource and kind it matched as (WebhookInvocation). */
export interface WebhookInvocation {
  webhook: WebhookAccessor;
  resource: GVR;
  kind: GVK;
  /** The request's objects at the matched version (absent: the request's own objects). */
  versioned?: Versioned;
}

/** The request as CEL sees it at the matched version (for matchConditions). */
export function celInput(a: AdmissionAttributes, resource: GVR, kind: GVK, authorizer: Authorizer, versioned: Versioned): AdmissionInput {
  return {
    object: versioned.object ?? null,
    oldObject: versioned.oldObject ?? null,
    request: admissionRequest(a, resource, kind),
    namespace: null,
    authorizer: {
      user: { name: a.user.username, uid: a.user.uid, groups: a.user.groups, extra: a.user.extra },
      authorizer,
      resource: { group: a.resource.group, resource: a.resource.resource, subresource: a.subresource, namespace: a.namespace, name: a.name },
    },
  };
}

/**
 * ShouldCallHook: the invocation, undefined when the webhook does not apply, or the request's
 * refusal. `versionedAt` gives the request's objects at a matched version (matchConditions see
 * them; it rejects as the dispatcher reports a failed conversion).
 */
export async function shouldCallHook(
  h: WebhookAccessor,
  a: AdmissionAttributes,
  ctx: MatchContext,
  authorizer: Authorizer,
  versionedAt: (m: ResourceKind) => Promise<Versioned>,
): Promise<WebhookInvocation | undefined | StatusError> {
  const rules = Array.isArray(h.hook.rules) ? (h.hook.rules as NamedRule[]) : [];
  // A webhook without rules matches nothing (a policy without resourceRules would match all).
  if (rules.length === 0) return undefined;
  const m = await matchesCriteria(
    {
      namespaceSelector: (h.hook.namespaceSelector ?? null) as Obj | null,
      objectSelector: (h.hook.objectSelector ?? null) as Obj | null,
      // Webhook rules name no resources.
      resourceRules: rules.map((r) => ({ ...r, resourceNames: [] })),
      matchPolicy: typeof h.hook.matchPolicy === 'string' ? h.hook.matchPolicy : 'Exact',
    },
    a,
    ctx,
  );
  if (!m.matches) return m.error;
  if (!h.matchConditions.empty) {
    const r = h.matchConditions.match(celInput(a, m.resource, m.kind, authorizer, await versionedAt(m)));
    if (!r.matches) return r.error === undefined ? undefined : newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name, r.error);
  }
  return { webhook: h, resource: m.resource, kind: m.kind };
}
