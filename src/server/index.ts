/**
 * The server layer's public face: the HTTP API server and the backend it runs on.
 */
export { openBackend, type AdmissionChoice, type StorageChoice } from './backend.ts';
export { ApiServer } from './server.ts';
export { audited, loadPolicyFile, logBackend, logFormats, PolicyError, RotatingFile, type LogFormat, type Policy } from './audit/index.ts';
export { auditFilter, defaultAuditOptions, setAuditFlag, validateAuditOptions, type AuditOptions } from './audit/options.ts';
export { defaultInflightLimits, type InflightLimits } from './filters/inflight.ts';
export { defaultRequestTimeoutMs } from './filters/timeout.ts';
export { defaultLimitOptions, setLimitFlag, validateLimitOptions, type LimitOptions } from './filters/options.ts';
export { type ServingTLS } from './server.ts';
export { ensureServerPKI, pkiFiles, type ServerPKI } from './tls/pki.ts';
export { servingNames } from './tls/serving-names.ts';
