/**
 * The admission layer's public face: the chain and its plugins. NamespaceLifecycle (first in
 * every chain), ServiceAccount, MutatingAdmissionPolicy, MutatingAdmissionWebhook, ValidatingAdmissionPolicy,
 * ValidatingAdmissionWebhook.
 */
export { admissionChain, type Plugin } from './chain.ts';
export {
  cachedNamespaceLifecycle,
  immortalNamespaces,
  namespaceLifecycle,
  type CachedNamespaceLifecycle,
  type NamespaceGate,
} from './namespace-lifecycle.ts';
export {
  validatingAdmissionPolicy,
  mutatingAdmissionPolicy,
  allowAllAuthorizer,
  withAuditAnnotations,
  type AnnotationSink,
  type ValidatingAdmissionPolicyPlugin,
  type MutatingAdmissionPolicyPlugin,
} from './policy/index.ts';
export { cachedServiceAccountAdmission, serviceAccountAdmission, tokenVolumeSource, type ServiceAccountPluginOptions } from './serviceaccount/index.ts';
export { fixedServiceResolver, WebhookClients, mutatingWebhooks, validatingWebhooks, type ServiceResolver, type WebhookPlugin, type WebhookPluginOptions } from './webhook/index.ts';
