/**
 * The ValidatingAdmissionWebhook plugin (k8s.io/apiserver pkg/admission/plugin/webhook/validating
 * dispatcher.go): every matching webhook of the ValidatingWebhookConfigurations is called at once;
 * the request is refused by the first refusal in webhook order — a webhook's denial
 * (`admission webhook "x" denied the request: ...` with its Status's code and reason), a dry run
 * to a webhook with side effects (400), or, under failurePolicy Fail, a failed call as a 500
 * (`failed calling webhook "x": ...`). Under Ignore a failed call is recorded in the
 * `failed-open.validating.webhook.admission.k8s.io/round_0_index_<i>` audit annotation.
 */
import { newInternalError, StatusError } from '../../apimachinery/index.ts';
import type { Store } from '../../storage/index.ts';
import type { Plugin } from '../chain.ts';
import { addAuditAnnotation } from '../policy/audit-annotations.ts';
import { callWebhook } from './call.ts';
import { DispatchContext, type WebhookPluginOptions } from './dispatch-context.ts';
import { CallingWebhookError, WebhookRejection } from './errors.ts';

const FAILED_OPEN_PREFIX = 'failed-open.validating.webhook.admission.k8s.io/';

export interface WebhookPlugin extends Plugin {
  /** Resolves once configurations, namespaces and CRDs are listed. */
  readonly synced: Promise<void>;
  stop(): void;
}

/** The plugin over the ValidatingWebhookConfigurations in `store`. */
export function validatingWebhooks(store: Store, opts: WebhookPluginOptions = {}): WebhookPlugin {
  const ctx = new DispatchContext(store, 'validatingwebhookconfigurations', opts);
  return {
    name: 'ValidatingAdmissionWebhook',
    synced: ctx.synced,
    handles: () => true,
    async validate(a) {
      const invocations = await ctx.invocations(a);
      if (invocations.length === 0) return;
      const outcomes = await Promise.all(
        invocations.map(async (inv, i): Promise<StatusError | undefined> => {
          try {
            await callWebhook(ctx.clients, inv, a, false);
            return undefined;
          } catch (e) {
            if (e instanceof CallingWebhookError) {
              if (inv.webhook.hook.failurePolicy === 'Ignore') {
                addAuditAnnotation(`${FAILED_OPEN_PREFIX}round_0_index_${i}`, inv.webhook.name);
                return undefined;
              }
              return newInternalError(e.message);
            }
            if (e instanceof WebhookRejection) return e.status;
            if (e instanceof StatusError) return e;
            return newInternalError(`ValidatingAdmissionWebhook/${inv.webhook.name} has panicked: ${e instanceof Error ? e.message : String(e)}`);
          }
        }),
      );
      const refusal = outcomes.find((o) => o !== undefined);
      if (refusal !== undefined) throw refusal;
    },
    stop: () => ctx.stop(),
  };
}
