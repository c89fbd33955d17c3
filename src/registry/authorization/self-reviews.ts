/**
 * authorization.k8s.io/v1 SelfSubjectAccessReview and SelfSubjectRulesReview, which kubectl's
 * `auth can-i` posts: answered from the request alone, as the AlwaysAllow authorizer answers while
 * no authorization is served.
 */
import type { ReviewDefinition } from '../kind.ts';
import type { Obj } from '../rest.ts';

function review(resource: string, kind: string, status: () => Obj): ReviewDefinition {
  return {
    group: 'authorization.k8s.io',
    version: 'v1',
    resource,
    kind,
    singular: kind.toLowerCase(),
    create(obj: Obj): Obj {
      return {
        kind,
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { ...((obj.metadata as Obj | undefined) ?? {}), creationTimestamp: null },
        spec: obj.spec ?? {},
        status: status(),
      };
    },
  };
}

// What the AlwaysAllow authorizer answers: allowed, no reason; every rule.
export const selfSubjectAccessReview = review('selfsubjectaccessreviews', 'SelfSubjectAccessReview', () => ({ allowed: true }));
export const selfSubjectRulesReview = review('selfsubjectrulesreviews', 'SelfSubjectRulesReview', () => ({
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
}));
