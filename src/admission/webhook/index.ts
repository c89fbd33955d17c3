/**
 * Admission webhooks: the ValidatingAdmissionWebhook and MutatingAdmissionWebhook plugins over
 * the webhook configurations in the store, and how `clientConfig.service` webhooks are found.
 */
export { validatingWebhooks, type WebhookPlugin } from './validating.ts';
export { mutatingWebhooks } from './mutating.ts';
export type { WebhookPluginOptions } from './dispatch-context.ts';
export { fixedServiceResolver, WebhookClients, type ServiceResolver } from './client.ts';
