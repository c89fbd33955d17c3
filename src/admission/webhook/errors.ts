/**
 * The errors of calling an admission webhook (k8s.io/apiserver pkg/util/webhook error.go and
 * pkg/admission/plugin/webhook/errors): a failed call (`failed calling webhook "x": <reason>`),
 * which the failure policy may ignore, and a webhook's refusal (`admission webhook "x" denied the
 * request: ...`, with the code and reason of the Status it answered), which it may not.
 */
import { newBadRequest, StatusError, type Status } from '../../apimachinery/index.ts';

/** ErrCallingWebhook: the call failed (unreachable, slow, an invalid response). */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhookName: string,
    readonly reason: string,
  ) {
    super(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
  }
}

/** ErrWebhookRejection: the webhook answered allowed: false. */
export class WebhookRejection extends Error {
  constructor(readonly status: StatusError) {
    super(status.message);
  }
}

/** ToStatusErr: the webhook's result as the refusal, its code at least 400, its message prefixed. */
export function toStatusError(webhookName: string, result: Partial<Status> | undefined): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const r: Partial<Status> = { ...(result ?? {}) };
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const message = r.message ? `${deniedBy}: ${r.message}` : r.reason ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  // A Success (or no) status becomes Failure; any other is kept, as upstream keeps it.
  const state = !r.status || r.status === 'Success' ? 'Failure' : r.status;
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: state, message, code } as Status;
  if (r.reason) status.reason = r.reason;
  if (r.details) status.details = r.details;
  return new StatusError(status);
}

/** NewDryRunUnsupportedErr: a dry run reached a webhook that may have side effects. */
export function dryRunUnsupported(webhookName: string): StatusError {
  return newBadRequest(`admission webhook ${JSON.stringify(webhookName)} does not support dry run`);
}
