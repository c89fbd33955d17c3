/**
 * ServiceAccount token claims (pkg/serviceaccount/claims.go and legacy.go): what a bound token
 * says (iss, sub, aud, exp, iat, nbf, jti and the private `kubernetes.io` claim naming the
 * namespace, the ServiceAccount and the Pod, Secret or Node it is bound to), what a legacy
 * Secret-based token says, and the validators that check either against the objects as they are
 * now. Validators throw `TokenInvalid` with upstream's texts; times are whole seconds.
 */
import { randomUUID } from 'node:crypto';
import type { Obj, UserInfo } from '../../registry/index.ts';

/** An injected pod token's requested lifetime (WarnOnlyBoundTokenExpirationSeconds). */
export const warnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;
/** How long such a token really lives while the kubelet refreshes it (ExpirationExtensionSeconds). */
export const expirationExtensionSeconds = 24 * 365 * 60 * 60;
/** The issuer of Secret-based tokens. */
export const legacyIssuer = 'kubernetes/serviceaccount';
/** go-jose's jwt.DefaultLeeway. */
const leewaySeconds = 60;

export const podNameKey = 'authentication.kubernetes.io/pod-name';
export const podUIDKey = 'authentication.kubernetes.io/pod-uid';
export const nodeNameKey = 'authentication.kubernetes.io/node-name';
export const nodeUIDKey = 'authentication.kubernetes.io/node-uid';
export const credentialIDKey = 'authentication.kubernetes.io/credential-id';

/** A token that is this issuer's but does not authenticate; the message is upstream's. */
export class TokenInvalid extends Error {}

export interface Ref {
  name: string;
  uid: string;
}

/** What a bound token is issued for. */
export interface BoundClaimsInput {
  issuer: string;
  serviceAccount: { namespace: string; name: string; uid: string };
  pod?: Ref;
  secret?: Ref;
  node?: Ref;
  audiences: readonly string[];
  expirationSeconds: number;
  /** Seconds after which the token is stale (extended pod tokens); 0 or absent for none. */
  warnAfterSeconds?: number;
  /** Seconds since the epoch. */
  now: number;
  /** The token's ID (default: a random UUID). */
  jti?: string;
}

export const makeUsername = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;
export const makeGroupNames = (namespace: string) => ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];

/** Claims(): the public and private claims of a bound token, as one object. */
export function boundClaims(c: BoundClaimsInput): Record<string, unknown> {
  if (c.secret && (c.pod || c.node)) throw new Error('internal error, token can only be bound to one object type');
  const k8s: Record<string, unknown> = { namespace: c.serviceAccount.namespace, serviceaccount: { name: c.serviceAccount.name, uid: c.serviceAccount.uid } };
  if (c.pod) {
    k8s.pod = { ...c.pod };
    if (c.node) k8s.node = { ...c.node };
  } else if (c.secret) k8s.secret = { ...c.secret };
  else if (c.node) k8s.node = { ...c.node };
  if (c.warnAfterSeconds) k8s.warnafter = c.now + c.warnAfterSeconds;
  return {
    iss: c.issuer,
    sub: makeUsername(c.serviceAccount.namespace, c.serviceAccount.name),
    // An empty audience is left out (jwt.Claims' omitempty).
    ...(c.audiences.length > 0 ? { aud: [...c.audiences] } : {}),
    iat: c.now,
    nbf: c.now,
    exp: c.now + c.expirationSeconds,
    jti: c.jti ?? randomUUID(),
    'kubernetes.io': k8s,
  };
}

/** LegacyClaims(): a Secret-based token's claims (no audience, no expiry). */
export function legacyClaims(sa: { namespace: string; name: string; uid: string }, secretName: string): Record<string, unknown> {
  return {
    iss: legacyIssuer,
    sub: makeUsername(sa.namespace, sa.name),
    'kubernetes.io/serviceaccount/namespace': sa.namespace,
    'kubernetes.io/serviceaccount/secret.name': secretName,
    'kubernetes.io/serviceaccount/service-account.name': sa.name,
    'kubernetes.io/serviceaccount/service-account.uid': sa.uid,
  };
}

/** What the validators read the objects through; a missing object is a thrown NotFound StatusError. */
export interface ServiceAccountTokenGetter {
  getServiceAccount(namespace: string, name: string): Promise<Obj>;
  getPod(namespace: string, name: string): Promise<Obj>;
  getSecret(namespace: string, name: string): Promise<Obj>;
  getNode(name: string): Promise<Obj>;
}

/** ServiceAccountInfo: who the token says it is. */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUID?: string;
  nodeName?: string;
  nodeUID?: string;
  credentialID?: string;
}

/** ServiceAccountInfo.UserInfo(), with system:authenticated as the authentication chain adds it. */
export function userInfoOf(sa: ServiceAccountInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUID) {
    extra[podNameKey] = [sa.podName];
    extra[podUIDKey] = [sa.podUID];
  }
  if (sa.credentialID) extra[credentialIDKey] = [sa.credentialID];
  if (sa.nodeName) {
    extra[nodeNameKey] = [sa.nodeName];
    if (sa.nodeUID) extra[nodeUIDKey] = [sa.nodeUID];
  }
  return {
    username: makeUsername(sa.namespace, sa.name),
    uid: sa.uid,
    groups: [...makeGroupNames(sa.namespace), 'system:authenticated'],
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

const rec = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const meta = (o: Obj) => rec(o.metadata);
const uidOf = (o: Obj) => str(meta(o).uid);

/** True when the object was deleted before `before` (seconds): its deletionTimestamp is older. */
function deletedBefore(o: Obj, before: number): boolean {
  const ts = meta(o).deletionTimestamp;
  return typeof ts === 'string' && Date.parse(ts) / 1000 < before;
}

function refOf(v: unknown): Ref | undefined {
  if (v === undefined || v === null) return undefined;
  const r = rec(v);
  return { name: str(r.name), uid: str(r.uid) };
}

const numeric = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** jwt.Claims.Validate with the default leeway; the validator's texts for each failure. */
function checkTimes(claims: Record<string, unknown>, now: number): void {
  const nbf = numeric(claims.nbf);
  const exp = numeric(claims.exp);
  const iat = numeric(claims.iat);
  if (nbf !== undefined && now + leewaySeconds < nbf) throw new TokenInvalid('service account token is not valid yet');
  if (exp !== undefined && now - leewaySeconds > exp) throw new TokenInvalid('service account token has expired');
  if (iat !== undefined && now + leewaySeconds < iat) throw new TokenInvalid('service account token is issued in the future');
}

/** A getter's failure as the validator passes it on (the getter's own error). */
async function fetchOr<T>(get: () => Promise<T>, invalidated?: string): Promise<T> {
  try {
    return await get();
  } catch (e) {
    if (invalidated !== undefined) throw new TokenInvalid(invalidated);
    throw new TokenInvalid(e instanceof Error ? e.message : String(e));
  }
}

/** validator.Validate: a bound token's times, then its ServiceAccount and bound objects as they are now. */
export async function validateBound(claims: Record<string, unknown>, getter: ServiceAccountTokenGetter, now: number): Promise<ServiceAccountInfo> {
  checkTimes(claims, now);
  const invalidIfDeletedBefore = now - leewaySeconds;
  const k8s = rec(claims['kubernetes.io']);
  const namespace = str(k8s.namespace);
  const saref = refOf(k8s.serviceaccount) ?? { name: '', uid: '' };
  const podref = refOf(k8s.pod);
  const secref = refOf(k8s.secret);
  const noderef = refOf(k8s.node);
  const sa = await fetchOr(() => getter.getServiceAccount(namespace, saref.name));
  if (deletedBefore(sa, invalidIfDeletedBefore)) throw new TokenInvalid(`service account ${namespace}/${saref.name} has been deleted`);
  if (uidOf(sa) !== saref.uid) throw new TokenInvalid(`service account UID (${uidOf(sa)}) does not match claim (${saref.uid})`);
  if (secref) {
    const secret = await fetchOr(() => getter.getSecret(namespace, secref.name), 'service account token has been invalidated');
    if (deletedBefore(secret, invalidIfDeletedBefore)) throw new TokenInvalid('service account token has been invalidated');
    if (secref.uid !== uidOf(secret)) throw new TokenInvalid(`secret UID (${uidOf(secret)}) does not match service account secret ref claim (${secref.uid})`);
  }
  const info: ServiceAccountInfo = { namespace, name: saref.name, uid: saref.uid };
  if (podref) {
    const pod = await fetchOr(() => getter.getPod(namespace, podref.name), 'service account token has been invalidated');
    if (deletedBefore(pod, invalidIfDeletedBefore)) throw new TokenInvalid('service account token has been invalidated');
    if (podref.uid !== uidOf(pod)) throw new TokenInvalid(`pod UID (${uidOf(pod)}) does not match service account pod ref claim (${podref.uid})`);
    info.podName = podref.name;
    info.podUID = podref.uid;
  }
  if (noderef) {
    if (podref) {
      // A pod-bound token only carries its pod's node as information.
      info.nodeName = noderef.name;
      info.nodeUID = noderef.uid;
    } else {
      const node = await fetchOr(() => getter.getNode(noderef.name), 'service account token has been invalidated');
      if (noderef.uid !== uidOf(node)) throw new TokenInvalid(`node UID (${uidOf(node)}) does not match service account node ref claim (${noderef.uid})`);
      info.nodeName = noderef.name;
      info.nodeUID = noderef.uid;
    }
  }
  const jti = str(claims.jti);
  if (jti) info.credentialID = `JTI=${jti}`;
  return info;
}

/** legacyValidator.Validate: the claims present, the Secret still holding this very token, the ServiceAccount unchanged. */
export async function validateLegacy(token: string, claims: Record<string, unknown>, getter: ServiceAccountTokenGetter, lookup = true): Promise<ServiceAccountInfo> {
  const sub = str(claims.sub);
  if (!sub) throw new TokenInvalid('sub claim is missing');
  const namespace = str(claims['kubernetes.io/serviceaccount/namespace']);
  if (!namespace) throw new TokenInvalid('namespace claim is missing');
  const secretName = str(claims['kubernetes.io/serviceaccount/secret.name']);
  if (!secretName) throw new TokenInvalid('secretName claim is missing');
  const name = str(claims['kubernetes.io/serviceaccount/service-account.name']);
  if (!name) throw new TokenInvalid('serviceAccountName claim is missing');
  const uid = str(claims['kubernetes.io/serviceaccount/service-account.uid']);
  if (!uid) throw new TokenInvalid('serviceAccountUID claim is missing');
  if (sub !== makeUsername(namespace, name)) throw new TokenInvalid('sub claim is invalid');
  if (!lookup) return { namespace, name, uid };
  const secret = await fetchOr(() => getter.getSecret(namespace, secretName), 'token has been invalidated');
  if (meta(secret).deletionTimestamp !== undefined) throw new TokenInvalid('token has been invalidated');
  const stored = str(rec(secret.data).token);
  if (Buffer.from(stored, 'base64').toString('utf8') !== token) throw new TokenInvalid("token does not match server's copy");
  const sa = await fetchOr(() => getter.getServiceAccount(namespace, name));
  if (meta(sa).deletionTimestamp !== undefined) throw new TokenInvalid(`ServiceAccount ${namespace}/${name} has been deleted`);
  if (uidOf(sa) !== uid) throw new TokenInvalid(`ServiceAccount UID (${uidOf(sa)}) does not match claim (${uid})`);
  return { namespace, name, uid };
}
