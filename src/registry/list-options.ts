/**
 * Validation of list and watch options, as k8s.io/apimachinery's
 * `apis/meta/internalversion/validation` does it.
 * The handler answers with `ListOptions.meta.k8s.io "" is invalid: ...` (422); the WatchList
 * feature is taken as enabled (its default since Kubernetes 1.32).
 */
import { forbidden, notSupported, type FieldError } from '../apimachinery/index.ts';
import { newInvalid, type StatusError } from '../apimachinery/index.ts';
import type { ListOptions, WatchOptions } from './rest.ts';

/** ValidateListOptions for a list request. */
export function validateListOptions(opts: ListOptions & { sendInitialEvents?: boolean }): FieldError[] {
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch ?? '';
  if (match.length > 0) {
    if (!opts.resourceVersion) {
      errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    }
    if (opts.continue) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errs.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    }
    if (match === 'Exact' && opts.resourceVersion === '0') {
      errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (opts.sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

/** ValidateListOptions for a watch request. */
export function validateWatchOptions(opts: WatchOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch ?? '';
  if (opts.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match.length > 0) {
    if (opts.sendInitialEvents === undefined) {
      errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
    if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (opts.continue) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

/** The 422 the handler answers with for invalid list or watch options. */
export function invalidListOptions(errs: FieldError[]): StatusError {
  return newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
}
