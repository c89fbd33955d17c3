/**
 * Authorization as k8s.io/apiserver's authorizer interface: a request's attributes (who, which
 * verb on which resource or path) and a decision with its reason. The chain kube-apiserver builds
 * starts with the privileged-groups authorizer (`system:masters` may do anything) and then asks
 * each authorizer in turn until one allows or denies (union.New).
 */
import type { AccessAttributes } from '../registry/index.ts';

/** Who asks to do what (authorizer.Attributes): the registry's access-review shape. */
export type AuthorizationAttributes = AccessAttributes;

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationResult {
  decision: Decision;
  reason: string;
}

export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): AuthorizationResult;
}

/** The group every request of which is allowed (user.SystemPrivilegedGroup). */
export const systemPrivilegedGroup = 'system:masters';

/** authorizerfactory.NewPrivilegedGroups: members of `system:masters` are allowed everything. */
export const privilegedGroups: Authorizer = {
  authorize: (a) => (a.user.groups.includes(systemPrivilegedGroup) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' }),
};

/** union.New: the first decision other than NoOpinion; the reasons of those that had none, joined. */
export function unionAuthorizer(...authorizers: Authorizer[]): Authorizer {
  return {
    authorize(a) {
      const reasons: string[] = [];
      for (const z of authorizers) {
        const r = z.authorize(a);
        if (r.decision !== 'NoOpinion') return r;
        if (r.reason !== '') reasons.push(r.reason);
      }
      return { decision: 'NoOpinion', reason: reasons.join('\n') };
    },
  };
}

/**
 * The text of a 403 for a refused request (responsewriters.forbiddenMessage), before the reason:
 * `User "jane" cannot list resource "configmaps" in API group "" in the namespace "dev"`.
 */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  const who = JSON.stringify(a.user.username);
  if (!a.resourceRequest) return `User ${who} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : 'at the cluster scope';
  return `User ${who} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)} ${where}`;
}
