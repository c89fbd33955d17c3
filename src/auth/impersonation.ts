/**
 * Impersonation (k8s.io/apiserver's `endpoints/filters/impersonation.go`): the `Impersonate-User`,
 * `Impersonate-Group`, `Impersonate-Uid` and `Impersonate-Extra-<key>` headers make a request act
 * as another user, each part first authorized for the requester as the `impersonate` verb on
 * users, serviceaccounts, groups, uids or userextras — what `kubectl --as` and `--as-group` send.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { newBadRequest, newForbidden } from '../apimachinery/index.ts';
import type { UserInfo } from '../registry/index.ts';
import { forbiddenMessage, type AuthorizationAttributes, type Authorizer } from './authorizer.ts';

const serviceAccountPrefix = 'system:serviceaccount:';
const anonymous = 'system:anonymous';

function values(h: string | string[] | undefined): string[] {
  if (h === undefined) return [];
  return (Array.isArray(h) ? h : [h]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

/** The header value of Impersonate-Extra-<key>: the key percent-decoded, lower case (as Go's canonical header then ToLower). */
function extraKey(header: string): string {
  const raw = header.slice('impersonate-extra-'.length);
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * The user a request acts as: `requester` when it asks for no impersonation, else the impersonated
 * user. Throws 400 for groups, extras or a uid without a user, 403 for an impersonation the
 * requester may not make.
 */
export function impersonatedUser(requester: UserInfo, headers: IncomingHttpHeaders, authz: Authorizer): UserInfo {
  const userHeader = values(headers['impersonate-user'])[0];
  const groups = values(headers['impersonate-group']);
  const uid = values(headers['impersonate-uid'])[0];
  const extra: Record<string, string[]> = {};
  for (const [h, v] of Object.entries(headers)) {
    if (!h.startsWith('impersonate-extra-')) continue;
    extra[extraKey(h)] = values(v);
  }
  if (userHeader === undefined) {
    if (groups.length > 0 || uid !== undefined || Object.keys(extra).length > 0) {
      const parts = [...groups.map((g) => `{Group  ${g}  }`), ...(uid !== undefined ? [`{UID  ${uid}  }`] : []), ...Object.entries(extra).flatMap(([k, vs]) => vs.map((v) => `{UserExtra  ${v}  ${k}}`))];
      throw newBadRequest(`requested [${parts.join(' ')}] without impersonating a user`);
    }
    return requester;
  }
  const base: Omit<AuthorizationAttributes, 'resource' | 'name'> = {
    user: requester,
    verb: 'impersonate',
    resourceRequest: true,
    apiGroup: '',
    apiVersion: '',
    subresource: '',
    namespace: '',
    path: '',
  };
  const check = (a: AuthorizationAttributes) => {
    const r = authz.authorize(a);
    if (r.decision === 'Allow') return;
    const msg = forbiddenMessage(a) + (r.reason ? `: ${r.reason}` : '');
    throw newForbidden({ group: a.apiGroup, resource: a.resource }, a.name, msg);
  };
  let username = userHeader;
  let groupsOut = [...groups];
  if (userHeader.startsWith(serviceAccountPrefix) && userHeader.split(':').length === 4) {
    const [, , ns, name] = userHeader.split(':') as [string, string, string, string];
    check({ ...base, resource: 'serviceaccounts', namespace: ns, name });
    if (groups.length === 0) groupsOut = ['system:serviceaccounts', `system:serviceaccounts:${ns}`];
    username = userHeader;
  } else {
    check({ ...base, resource: 'users', name: userHeader });
  }
  for (const g of groups) check({ ...base, resource: 'groups', name: g });
  if (uid !== undefined) check({ ...base, apiGroup: 'authentication.k8s.io', resource: 'uids', name: uid });
  for (const [k, vs] of Object.entries(extra)) for (const v of vs) check({ ...base, apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: k, name: v });
  if (username !== anonymous) {
    if (!groupsOut.includes('system:authenticated') && !groupsOut.includes('system:unauthenticated')) groupsOut.push('system:authenticated');
  } else if (!groupsOut.includes('system:unauthenticated')) {
    groupsOut.push('system:unauthenticated');
  }
  return { username, groups: groupsOut, ...(uid !== undefined ? { uid } : {}), ...(Object.keys(extra).length > 0 ? { extra } : {}) };
}
