/**
 * One webhook call as both dispatchers make it (callHook / callAttrMutatingHook up to the
 * response): a dry run only reaches webhooks without side effects (None, NoneOnDryRun); the
 * AdmissionReview in the webhook's first known version; the POST within timeoutSeconds; the
 * response verified; its audit annotations recorded as `<webhook>/<key>` and its warnings
 * returned to the client; a refusal thrown as WebhookRejection. Failures of the call throw
 * CallingWebhookError, which the failure policy decides about.
 */
import type { AdmissionAttributes } from '../../registry/index.ts';
import { addAuditAnnotation } from '../policy/audit-annotations.ts';
import { CallFailure, type WebhookClients } from './client.ts';
import { CallingWebhookError, dryRunUnsupported, toStatusError, WebhookRejection } from './errors.ts';
import type { WebhookInvocation } from './matching.ts';
import { admissionReview, newUID, reviewVersion, verifyAdmissionResponse, type AdmissionResponse } from './review.ts';

/** Calls the invocation's webhook; resolves with its (allowed) response. */
export async function callWebhook(clients: WebhookClients, inv: WebhookInvocation, a: AdmissionAttributes, mutating: boolean): Promise<AdmissionResponse> {
  const h = inv.webhook.hook;
  const name = inv.webhook.name;
  if (a.dryRun) {
    if (h.sideEffects === undefined || h.sideEffects === null) throw new CallingWebhookError(name, 'Webhook SideEffects is nil');
    if (h.sideEffects !== 'None' && h.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(name);
  }
  const version = reviewVersion(h.admissionReviewVersions);
  if (typeof version !== 'string') throw new CallingWebhookError(name, `could not create admission objects: ${version.error}`);
  const uid = newUID();
  const timeout = typeof h.timeoutSeconds === 'number' ? h.timeoutSeconds : undefined;
  let body: unknown;
  try {
    body = await clients.post((h.clientConfig ?? {}) as Record<string, unknown>, timeout, admissionReview(version, uid, a, inv));
  } catch (e) {
    if (e instanceof CallFailure) throw new CallingWebhookError(name, e.message);
    throw e;
  }
  const r = verifyAdmissionResponse(version, uid, mutating, body);
  if ('decode' in r) throw new CallingWebhookError(name, `failed to call webhook: ${r.decode}`);
  if ('error' in r) throw new CallingWebhookError(name, `received invalid webhook response: ${r.error}`);
  for (const [k, v] of Object.entries(r.auditAnnotations)) addAuditAnnotation(`${name}/${k}`, String(v));
  a.warnings.push(...r.warnings);
  if (!r.allowed) throw new WebhookRejection(toStatusError(name, r.result));
  return r;
}
