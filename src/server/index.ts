/**
 * The server layer's public face: the HTTP API server and the backend it runs on.
 */
export { openBackend, type AdmissionChoice, type StorageChoice } from './backend.ts';
export { decodeJSON, JSONSyntaxError } from './http/body.ts';
export { ApiServer } from './server.ts';
export { auditLogged } from './audit/index.ts';
export { type ServingTLS } from './server.ts';
export { ensureServerPKI, pkiFiles, type ServerPKI } from './tls/pki.ts';
export { servingNames } from './tls/serving-names.ts';
