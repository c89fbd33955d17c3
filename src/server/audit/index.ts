/**
 * Auditing: the audit policy (`--audit-policy-file`), the filter that evaluates it per request and
 * emits the stages' Events, and the log backend (`--audit-log-*`: json or legacy lines, rotation).
 */
export { audited, auditAnnotation, auditImpersonatedUser, auditRequestUser, logBackend, logFormats, type AuditSink, type LogFormat } from './audit-log.ts';
export { loadPolicyFile, parsePolicy, PolicyError, validatePolicy, type Policy } from './policy.ts';
export { policyRuleEvaluator, type AuditAttributes } from './checker.ts';
export { RotatingFile, type RotationOptions } from './rotating-file.ts';
export type { AuditEvent } from './event.ts';
