/**
 * Request errors as `Status` objects, built exactly as k8s.io/apimachinery/pkg/api/errors builds
 * them (message, reason, code, details), plus the negotiation errors of
 * k8s.io/apiserver/pkg/endpoints/handlers/negotiation. The objects keep Go's JSON field order and
 * omit the fields Go's `omitempty` would omit, so `JSON.stringify(status)` prints what
 * kube-apiserver sends.
 */
import { aggregateString, errorBody, type FieldError } from './field/errors.ts';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** A resource qualified by its API group; prints as `crontabs.stable.example.com` or `namespaces`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A kind qualified by its API group; prints as `CronTab.stable.example.com` or `Namespace`. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** schema.GroupResource.String() */
export function groupResourceString(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/** schema.GroupKind.String() */
export function groupKindString(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

/** An error that carries the Status the server answers with; `message` is the Status message. */
export class StatusError extends Error {
  readonly status: Status;

  constructor(status: Status) {
    super(status.message ?? '');
    this.name = 'StatusError';
    this.status = status;
  }

  get code(): number {
    return this.status.code;
  }

  /** The StatusReason; '' is StatusReasonUnknown. */
  get reason(): string {
    return this.status.reason ?? '';
  }
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}

/** Go's `%q` of a string as fmt prints names in these messages. */
function q(s: string): string {
  // Names reaching these messages are usually plain; fall back to a Go-compatible quote otherwise.
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

function errText(err: Error | string): string {
  return typeof err === 'string' ? err : err.message;
}

/** Builds StatusDetails in Go's field order, dropping what `omitempty` drops. */
function details(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes && d.causes.length > 0) {
    out.causes = d.causes.map((c) => {
      const cc: StatusCause = {};
      if (c.reason) cc.reason = c.reason;
      if (c.message) cc.message = c.message;
      if (c.field) cc.field = c.field;
      return cc;
    });
  }
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

/** A Failure status in Go's field order; `message`/`reason` omitted when empty, as Go does. */
export function failureStatus(code: number, reason: string, message: string, d?: StatusDetails): Status {
  // Wire order: kind, apiVersion, metadata, status, message, reason, details, code.
  const ordered = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' } as Status;
  if (message) ordered.message = message;
  if (reason) ordered.reason = reason;
  if (d !== undefined) ordered.details = details(d);
  ordered.code = code;
  return ordered;
}

function fail(code: number, reason: string, message: string, d?: StatusDetails): StatusError {
  return new StatusError(failureStatus(code, reason, message, d));
}

/** NewNotFound: 404 NotFound, `crontabs.stable.example.com "x" not found`. */
export function newNotFound(gr: GroupResource, name: string): StatusError {
  return fail(404, 'NotFound', `${groupResourceString(gr)} ${q(name)} not found`, {
    group: gr.group,
    kind: gr.resource,
    name,
  });
}

/** NewAlreadyExists: 409 AlreadyExists. */
export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return fail(409, 'AlreadyExists', `${groupResourceString(gr)} ${q(name)} already exists`, {
    group: gr.group,
    kind: gr.resource,
    name,
  });
}

/** NewGenerateNameConflict: 409 AlreadyExists with retryAfterSeconds. */
export function newGenerateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): StatusError {
  return fail(
    409,
    'AlreadyExists',
    `${groupResourceString(gr)} ${q(name)} already exists, the server was not able to generate a unique name for the object`,
    { group: gr.group, kind: gr.resource, name, retryAfterSeconds },
  );
}

/** NewUnauthorized: 401 Unauthorized; an empty reason reads `not authorized`. */
export function newUnauthorized(reason: string): StatusError {
  return fail(401, 'Unauthorized', reason === '' ? 'not authorized' : reason);
}

/** NewForbidden: 403 Forbidden; the message form depends on whether resource and name are known. */
export function newForbidden(gr: GroupResource, name: string, err: Error | string): StatusError {
  const e = errText(err);
  let message: string;
  if (gr.group === '' && gr.resource === '') message = `forbidden: ${e}`;
  else if (name === '') message = `${groupResourceString(gr)} is forbidden: ${e}`;
  else message = `${groupResourceString(gr)} ${q(name)} is forbidden: ${e}`;
  return fail(403, 'Forbidden', message, { group: gr.group, kind: gr.resource, name });
}

/** NewConflict: 409 Conflict, `Operation cannot be fulfilled on <gr> "<name>": <err>`. */
export function newConflict(gr: GroupResource, name: string, err: Error | string): StatusError {
  return fail(409, 'Conflict', `Operation cannot be fulfilled on ${groupResourceString(gr)} ${q(name)}: ${errText(err)}`, {
    group: gr.group,
    kind: gr.resource,
    name,
  });
}

/** NewApplyConflict: 409 Conflict carrying the server-side-apply conflict causes. */
export function newApplyConflict(causes: StatusCause[], message: string): StatusError {
  return fail(409, 'Conflict', message, { causes });
}

/** NewGone: 410 Gone (deprecated upstream in favour of NewResourceExpired, still used for watch). */
export function newGone(message: string): StatusError {
  return fail(410, 'Gone', message);
}

/** NewResourceExpired: 410 Expired (e.g. a continue token or resourceVersion too old). */
export function newResourceExpired(message: string): StatusError {
  return fail(410, 'Expired', message);
}

/** etcd3's messages for 410 Expired on lists, watches and pages (k8s.io/apiserver storage/etcd3/errors.go). */
export const ExpiredListMessage = 'The resourceVersion for the provided list is too old.';
export const ExpiredWatchMessage = 'The resourceVersion for the provided watch is too old.';
export const ExpiredContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';
export const InconsistentContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without ' +
  'the continue parameter, or use the continue token in this response to retrieve the remainder of the results. ' +
  'Continuing with the provided token results in an inconsistent list - objects that were created, modified, or ' +
  'deleted between the time the first chunk was returned and now may show up in the list.';

/**
 * The 410 for a page whose snapshot was compacted (handleCompactedErrorForPaging): with a fresh
 * token (continuing at the latest revision, rv -1) in the Status's metadata.continue, or without.
 */
export function newContinueExpired(inconsistentToken?: string): StatusError {
  if (inconsistentToken === undefined) return newResourceExpired(ExpiredContinueMessage);
  const e = newResourceExpired(InconsistentContinueMessage);
  e.status.metadata = { continue: inconsistentToken };
  return e;
}

/** The watch cache's 410 for a watch from a compacted revision: `too old resource version: N (oldest)`. */
export function newTooOldResourceVersion(requested: number, oldest: number): StatusError {
  return newResourceExpired(`too old resource version: ${requested} (${oldest})`);
}

/**
 * NewInvalid: 422 Invalid, `CronTab.stable.example.com "x" is invalid: <aggregate>`, one cause per
 * field error (reason = error type, message = ErrorBody, field = path).
 */
export function newInvalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
  // An empty field is a nil *Path upstream, whose String() is `<nil>`.
  const causes: StatusCause[] = errs.map((e) => ({
    reason: e.type,
    message: errorBody(e),
    field: e.field === '' ? '<nil>' : e.field,
  }));
  const prefix = `${groupKindString(gk)} ${q(name)} is invalid`;
  const message = errs.length === 0 ? prefix : `${prefix}: ${aggregateString(errs)}`;
  return fail(422, 'Invalid', message, { group: gk.group, kind: gk.kind, name, causes });
}

/** NewBadRequest: 400 BadRequest with the message as given. */
export function newBadRequest(message: string): StatusError {
  return fail(400, 'BadRequest', message);
}

/** NewTooManyRequests: 429 TooManyRequests with retryAfterSeconds. */
export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return fail(429, 'TooManyRequests', message, { retryAfterSeconds });
}

/** NewTooManyRequestsError: 429, `Too many requests: <message>`, no details. */
export function newTooManyRequestsError(message: string): StatusError {
  return fail(429, 'TooManyRequests', `Too many requests: ${message}`);
}

/** NewServiceUnavailable: 503 ServiceUnavailable. */
export function newServiceUnavailable(message: string): StatusError {
  return fail(503, 'ServiceUnavailable', message);
}

/** NewMethodNotSupported: 405 MethodNotAllowed, `<action> is not supported on resources of kind "<gr>"`. */
export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  return fail(405, 'MethodNotAllowed', `${action} is not supported on resources of kind ${q(groupResourceString(gr))}`, {
    group: gr.group,
    kind: gr.resource,
  });
}

/** NewServerTimeout: 500 ServerTimeout. */
export function newServerTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  return fail(
    500,
    'ServerTimeout',
    `The ${operation} operation against ${groupResourceString(gr)} could not be completed at this time, please try again.`,
    { group: gr.group, kind: gr.resource, name: operation, retryAfterSeconds },
  );
}

/** NewInternalError: 500 InternalError, `Internal error occurred: <err>`, the error as the one cause. */
export function newInternalError(err: Error | string): StatusError {
  const e = errText(err);
  return fail(500, 'InternalError', `Internal error occurred: ${e}`, { causes: [{ message: e }] });
}

/** NewTimeoutError: 504 Timeout, `Timeout: <message>`; details always present (maybe `{}`). */
export function newTimeout(message: string, retryAfterSeconds: number): StatusError {
  return fail(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds });
}

/** NewRequestEntityTooLargeError: 413, `Request entity too large: <message>`. */
export function newRequestEntityTooLarge(message: string): StatusError {
  return fail(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

/**
 * 415 UnsupportedMediaType as negotiation.NewUnsupportedMediaTypeError builds it: the argument is
 * the list of media types the endpoint accepts (a string is taken as an already-joined list), not
 * the rejected content type — upstream's message names only the accepted ones.
 */
export function newUnsupportedMediaType(accepted: string | readonly string[]): StatusError {
  const list = typeof accepted === 'string' ? accepted : accepted.join(', ');
  return fail(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${list}`,
  );
}

/** 406 NotAcceptable with the message as given (handlers' newNotAcceptableError). */
export function newNotAcceptable(message: string): StatusError {
  return fail(406, 'NotAcceptable', message);
}

/** 406 NotAcceptable as negotiation.NewNotAcceptableError builds it from the supported media types. */
export function newNotAcceptableMediaTypes(accepted: readonly string[]): StatusError {
  return fail(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** 405 MethodNotAllowed for an HTTP verb a path does not serve (no details, as upstream's generic form). */
export function newMethodNotAllowed(message: string): StatusError {
  return fail(405, 'MethodNotAllowed', message);
}

const genericMessages: Record<number, [string, string]> = {
  400: ['BadRequest', 'the server rejected our request for an unknown reason'],
  401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
};

/**
 * NewGenericServerResponse: the Status for a bare HTTP code. kube-apiserver uses it to answer a
 * JSON patch that fails to apply: `newGenericServerResponse(422, '', {group:'',resource:''}, '',
 * err, 0, false)` — the message is the generic one; the library's error text is not shown.
 */
export function newGenericServerResponse(
  code: number,
  verb: string,
  gr: GroupResource,
  name: string,
  serverMessage: string,
  retryAfterSeconds: number,
  isUnexpectedResponse: boolean,
): StatusError {
  let reason = '';
  let message = `the server responded with the status code ${code} but did not return more information`;
  const known = genericMessages[code];
  if (known) [reason, message] = known;
  switch (code) {
    case 409:
      reason = verb === 'POST' ? 'AlreadyExists' : 'Conflict';
      message = 'the server reported a conflict';
      break;
    case 403:
      reason = 'Forbidden';
      message = serverMessage;
      break;
    case 406:
      reason = 'NotAcceptable';
      message =
        serverMessage === '' || serverMessage === 'unknown'
          ? 'the server was unable to respond with a content type that the client supports'
          : serverMessage;
      break;
    case 415:
      reason = 'UnsupportedMediaType';
      message = serverMessage;
      break;
    default:
      if (!known && code >= 500) {
        reason = 'InternalError';
        message = `an error on the server (${q(serverMessage)}) has prevented the request from succeeding`;
      }
  }
  const grEmpty = gr.group === '' && gr.resource === '';
  if (!grEmpty && name !== '') message = `${message} (${verb.toLowerCase()} ${groupResourceString(gr)} ${name})`;
  else if (!grEmpty) message = `${message} (${verb.toLowerCase()} ${groupResourceString(gr)})`;
  const causes = isUnexpectedResponse ? [{ reason: 'UnexpectedServerResponse', message: serverMessage }] : undefined;
  return fail(code, reason, message, { group: gr.group, kind: gr.resource, name, causes, retryAfterSeconds });
}

/** A Success status (as DELETE returns when it does not return the object). */
export function successStatus(d?: StatusDetails): Status {
  const s = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' } as Status;
  if (d !== undefined) s.details = details(d);
  s.code = 200;
  return s;
}

/**
 * responsewriters.ErrorToAPIStatus: the Status a thrown value is answered with. A StatusError gives
 * its own; anything else becomes a 500 with reason Unknown (omitted) and the error's text.
 */
export function errorToStatus(e: unknown): Status {
  if (e instanceof StatusError) return e.status;
  const message = e instanceof Error ? e.message : String(e);
  return failureStatus(500, '', message);
}

/** ReasonForError: the reason of a StatusError, '' otherwise. */
export function reasonForError(e: unknown): string {
  return e instanceof StatusError ? e.reason : '';
}

export function isNotFound(e: unknown): boolean {
  return reasonForError(e) === 'NotFound';
}

export function isAlreadyExists(e: unknown): boolean {
  return reasonForError(e) === 'AlreadyExists';
}

export function isConflict(e: unknown): boolean {
  return reasonForError(e) === 'Conflict';
}

export function isInvalid(e: unknown): boolean {
  return reasonForError(e) === 'Invalid';
}
