/**
 * AdmissionReview requests and responses (k8s.io/apiserver pkg/admission/plugin/webhook/request
 * admissionreview.go): the request in the first version the webhook accepts (admission.k8s.io/v1,
 * else v1beta1) with a fresh uid and every field upstream sends, in Go's field order and omitempty
 * rules; the response checked as VerifyAdmissionResponse checks it (present, same uid, v1's kind,
 * a patch only from a mutating webhook and only with its type).
 */
import { randomUUID } from 'node:crypto';
import type { Status } from '../../apimachinery/index.ts';
import type { AdmissionAttributes, Obj } from '../../registry/index.ts';
import type { WebhookInvocation } from './matching.ts';

export type ReviewVersion = 'v1' | 'v1beta1';

/** CreateAdmissionObjects: the version to speak, or upstream's error when none is known. */
export function reviewVersion(admissionReviewVersions: unknown): ReviewVersion | { error: string } {
  for (const v of Array.isArray(admissionReviewVersions) ? admissionReviewVersions : []) if (v === 'v1' || v === 'v1beta1') return v;
  return { error: 'webhook does not accept known AdmissionReview versions (v1, v1beta1)' };
}

/** The AdmissionReview sent to the webhook (both versions carry the same request fields). */
export function admissionReview(version: ReviewVersion, uid: string, a: AdmissionAttributes, inv: WebhookInvocation): Obj {
  const userInfo: Obj = {};
  if (a.user.username) userInfo.username = a.user.username;
  if (a.user.uid) userInfo.uid = a.user.uid;
  if (a.user.groups.length > 0) userInfo.groups = a.user.groups;
  if (a.user.extra && Object.keys(a.user.extra).length > 0) userInfo.extra = a.user.extra;
  const request: Obj = { uid, kind: inv.kind, resource: inv.resource };
  if (a.subresource) request.subResource = a.subresource;
  request.requestKind = a.kind;
  request.requestResource = a.resource;
  if (a.subresource) request.requestSubResource = a.subresource;
  if (a.name) request.name = a.name;
  if (a.namespace) request.namespace = a.namespace;
  request.operation = a.operation;
  request.userInfo = userInfo;
  const versioned = inv.versioned ?? a;
  request.object = versioned.object ?? null;
  request.oldObject = versioned.oldObject ?? null;
  request.dryRun = a.dryRun;
  request.options = Object.keys(a.options).length > 0 ? a.options : null;
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request };
}

/** A fresh request uid. */
export const newUID = (): string => randomUUID();

/** What the dispatchers read of a verified response (AdmissionResponse). */
export interface AdmissionResponse {
  allowed: boolean;
  auditAnnotations: Record<string, string>;
  /** The patch's text (base64-decoded), when one was returned. */
  patch?: string;
  patchType: string;
  result?: Partial<Status>;
  warnings: string[];
}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const gvkString = (apiVersion: unknown, kind: unknown) => {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
};

/** Go's base64 decoding of a []byte field, with its error. */
function decodeBytes(v: unknown): Buffer | { error: string } {
  if (v === undefined || v === null) return Buffer.alloc(0);
  if (typeof v !== 'string') return { error: `json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go struct field AdmissionResponse.response.patch of type []uint8` };
  const bad = /[^A-Za-z0-9+/=]/.exec(v);
  if (bad || v.length % 4 !== 0) return { error: `illegal base64 data at input byte ${bad ? bad.index : v.length - (v.length % 4)}` };
  return Buffer.from(v, 'base64');
}

/**
 * VerifyAdmissionResponse over the decoded body: the response, or the error text upstream reports
 * after `received invalid webhook response: ` (decode errors come back as `decode` instead, since
 * upstream meets them while reading the body).
 */
export function verifyAdmissionResponse(version: ReviewVersion, uid: string, mutating: boolean, review: unknown): AdmissionResponse | { error: string } | { decode: string } {
  if (!isObject(review)) return { decode: `json: cannot unmarshal ${Array.isArray(review) ? 'array' : review === null ? 'null' : typeof review} into Go value of type ${version}.AdmissionReview` };
  const r = review.response;
  if (r !== undefined && r !== null && !isObject(r)) return { decode: `json: cannot unmarshal ${typeof r} into Go struct field AdmissionReview.response of type ${version}.AdmissionResponse` };
  const patchBytes = decodeBytes(isObject(r) ? r.patch : undefined);
  if (!Buffer.isBuffer(patchBytes)) return { decode: patchBytes.error };
  if (!isObject(r)) return { error: 'webhook response was absent' };
  const responseUID = typeof r.uid === 'string' ? r.uid : '';
  const hasPatchType = r.patchType !== undefined && r.patchType !== null;
  let patchType = '';
  if (version === 'v1') {
    if (responseUID !== uid) return { error: `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(responseUID)}` };
    const got = gvkString(review.apiVersion, review.kind);
    if (got !== 'admission.k8s.io/v1, Kind=AdmissionReview') return { error: `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${got}` };
    if (mutating) {
      if (patchBytes.length > 0 && !hasPatchType) return { error: 'webhook returned response.patch but not response.patchType' };
      if (patchBytes.length === 0 && hasPatchType) return { error: 'webhook returned response.patchType but not response.patch' };
      if (hasPatchType) {
        patchType = String(r.patchType);
        if (patchType === '') return { error: `webhook returned invalid response.patchType of ${JSON.stringify(patchType)}` };
      }
    } else {
      if (patchBytes.length > 0) return { error: 'validating webhook may not return response.patch' };
      if (hasPatchType) return { error: 'validating webhook may not return response.patchType' };
    }
  } else if (mutating && patchBytes.length > 0) {
    // v1beta1 webhooks may omit the patch type: it can only be JSONPatch.
    patchType = 'JSONPatch';
  }
  const out: AdmissionResponse = {
    allowed: r.allowed === true,
    auditAnnotations: isObject(r.auditAnnotations) ? (r.auditAnnotations as Record<string, string>) : {},
    patchType,
    warnings: Array.isArray(r.warnings) ? r.warnings.filter((w): w is string => typeof w === 'string') : [],
  };
  if (isObject(r.status)) out.result = r.status as Partial<Status>;
  if (mutating && patchBytes.length > 0) out.patch = patchBytes.toString('utf8');
  return out;
}
