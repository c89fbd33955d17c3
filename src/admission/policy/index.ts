/**
 * Admission policies: ValidatingAdmissionPolicy evaluated in the admission chain (matching, params,
 * validation outcomes), and the audit annotations a request collects.
 */
export { validatingAdmissionPolicy, allowAllAuthorizer, type ValidatingAdmissionPolicyPlugin } from './plugin.ts';
export { withAuditAnnotations, addAuditAnnotation, type AnnotationSink } from './audit-annotations.ts';
export { mutatingAdmissionPolicy, type MutatingAdmissionPolicyOptions, type MutatingAdmissionPolicyPlugin } from './mutating/index.ts';
