/**
 * authentication.k8s.io/v1 reviews (pkg/registry/authentication/{tokenreview,selfsubjectreview}):
 * TokenReview (who is this token? — answered by the server's token authenticators, as a bearer
 * token of a request would be) and SelfSubjectReview (who am I? — kubectl's `auth whoami`,
 * answered with the requester). Both are create-only and cluster-scoped.
 */
import { formatRFC3339, newBadRequest, newInternalError } from '../../apimachinery/index.ts';
import type { ReviewContext, ReviewDefinition } from '../kind.ts';
import type { Obj, UserInfo } from '../rest.ts';

const rec = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** authentication/v1 UserInfo as it is written: empty fields left out, extra always a map. */
function userInfoOf(u: UserInfo): Obj {
  return {
    ...(u.username ? { username: u.username } : {}),
    ...(u.uid ? { uid: u.uid } : {}),
    ...(u.groups.length > 0 ? { groups: [...u.groups] } : {}),
    ...(u.extra && Object.keys(u.extra).length > 0 ? { extra: { ...u.extra } } : {}),
  };
}

/** bearertoken's answer when no authenticator knows the token. */
const invalidBearerToken = 'invalid bearer token';

export const tokenReview: ReviewDefinition = {
  group: 'authentication.k8s.io',
  version: 'v1',
  resource: 'tokenreviews',
  kind: 'TokenReview',
  singular: 'tokenreview',
  async create(obj: Obj, ctx?: ReviewContext): Promise<Obj> {
    const spec = rec(obj.spec);
    const token = typeof spec.token === 'string' ? spec.token : '';
    if (token === '') throw newBadRequest('token is required for TokenReview in authentication');
    const metadata = { ...rec(obj.metadata), creationTimestamp: null };
    const out = (status: Obj): Obj => ({ kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', metadata, spec: obj.spec, status });
    if (!ctx?.authenticateToken) return out({ user: {} });
    const auds = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
    let resp: Awaited<ReturnType<NonNullable<ReviewContext['authenticateToken']>>>;
    try {
      resp = await ctx.authenticateToken(token, auds);
    } catch (e) {
      return out({ user: {}, error: e instanceof Error ? e.message : String(e) });
    }
    if (!resp) return out({ user: {}, error: invalidBearerToken });
    // An authenticator that answers for other audiences than those asked is broken (badAuthenticatorAuds).
    if (auds.length > 0 && !resp.audiences.some((a) => auds.includes(a))) throw newInternalError('error validating audiences');
    return out({ authenticated: true, user: userInfoOf(resp.user), ...(resp.audiences.length > 0 ? { audiences: resp.audiences } : {}) });
  },
};

export const selfSubjectReview: ReviewDefinition = {
  group: 'authentication.k8s.io',
  version: 'v1',
  resource: 'selfsubjectreviews',
  kind: 'SelfSubjectReview',
  singular: 'selfsubjectreview',
  create(_obj: Obj, ctx?: ReviewContext): Obj {
    if (!ctx) throw newBadRequest('no user present on request');
    return {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: formatRFC3339(Date.now()) },
      status: { userInfo: userInfoOf(ctx.user) },
    };
  },
};
