/** Auditing: the audit log of `serve --audit-log-path`. */
export { auditLogged } from './audit-log.ts';
