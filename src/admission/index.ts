/**
 * The admission layer's public face: the chain and its plugins. Today: NamespaceLifecycle (first in
 * every chain), MutatingAdmissionPolicy, then ValidatingAdmissionPolicy; webhooks plug in here.
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
