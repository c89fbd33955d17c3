/**
 * Reading the options of each verb from the query (and, for DELETE, the body), validated by
 * apimachinery's meta/v1 options validation; `fieldValidation` defaults to Warn as upstream.
 */
import { newBadRequest } from '../../apimachinery/index.ts';
import {
  newInvalidOptions,
  validateCreateOptions,
  validateDeleteOptions,
  validatePatchOptions,
  validateUpdateOptions,
} from '../../apimachinery/index.ts';
import type { DeleteOptions, FieldValidation, ListOptions, WatchOptions } from '../../registry/index.ts';
import type { Query } from '../http/query.ts';

export interface WriteOptions {
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation: FieldValidation;
}

/**
 * CreateOptions / UpdateOptions / PatchOptions from the query, validated by apimachinery (422
 * `CreateOptions.meta.k8s.io "" is invalid: ...` on bad values). `patchType` is the PATCH media type.
 */
export function writeOptions(q: Query, kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', patchType = ''): WriteOptions {
  const dryRun = q.params.getAll('dryRun');
  const fieldValidation = q.str('fieldValidation') ?? '';
  const fieldManager = q.str('fieldManager');
  const o = { dryRun, fieldValidation, ...(fieldManager !== undefined ? { fieldManager } : {}) };
  const errs =
    kind === 'CreateOptions'
      ? validateCreateOptions(o)
      : kind === 'UpdateOptions'
        ? validateUpdateOptions(o)
        : validatePatchOptions({ ...o, ...(q.has('force') ? { force: q.bool('force') ?? false } : {}) }, patchType);
  if (errs.length > 0) throw newInvalidOptions(kind, errs);
  const out: WriteOptions = { dryRun: dryRun.length > 0, fieldValidation: (fieldValidation || 'Warn') as FieldValidation };
  if (fieldManager) out.fieldManager = fieldManager;
  return out;
}

/** ListOptions from the query. */
export function listOptions(q: Query): ListOptions {
  const o: ListOptions = {};
  const ls = q.str('labelSelector');
  if (ls) o.labelSelector = ls;
  const fs = q.str('fieldSelector');
  if (fs) o.fieldSelector = fs;
  const limit = q.int('limit');
  if (limit !== undefined && limit > 0) o.limit = limit;
  const cont = q.str('continue');
  if (cont) o.continue = cont;
  const rv = q.str('resourceVersion');
  if (rv !== undefined) o.resourceVersion = rv;
  const rvm = q.str('resourceVersionMatch');
  if (rvm) o.resourceVersionMatch = rvm;
  return o;
}

/** Kube-apiserver's default watch length when the client sets none: between 30 and 60 minutes. */
const minRequestTimeoutSeconds = 1800;
/** The longest timer Node can set (2^31-1 ms); a longer timeoutSeconds would fire at once. */
const maxTimerSeconds = Math.floor((2 ** 31 - 1) / 1000);

/** WatchOptions from the query. */
export function watchOptions(q: Query): WatchOptions {
  const o: WatchOptions = listOptions(q);
  delete o.limit;
  delete o.continue;
  const b = q.bool('allowWatchBookmarks');
  if (b) o.allowWatchBookmarks = true;
  const sie = q.bool('sendInitialEvents');
  if (sie !== undefined) o.sendInitialEvents = sie;
  const t = q.int('timeoutSeconds');
  o.timeoutSeconds = t !== undefined && t > 0 ? Math.min(t, maxTimerSeconds) : Math.floor(minRequestTimeoutSeconds * (1 + Math.random()));
  return o;
}

/** DeleteOptions from the body (JSON DeleteOptions, may be empty) and the query. */
export function deleteOptions(q: Query, body: unknown): DeleteOptions {
  const b: Record<string, unknown> = {};
  if (body !== undefined && body !== null) {
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw newBadRequest(`json: cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into Go value of type v1.DeleteOptions`);
    }
    Object.assign(b, body);
  }
  const o: DeleteOptions = {};
  let dryRun = Array.isArray(b.dryRun) ? (b.dryRun as string[]) : [];
  const qd = q.params.getAll('dryRun');
  if (qd.length > 0) dryRun = qd;
  let gracePeriodSeconds = typeof b.gracePeriodSeconds === 'number' ? b.gracePeriodSeconds : undefined;
  const gp = q.int('gracePeriodSeconds');
  if (gp !== undefined) gracePeriodSeconds = gp;
  let propagationPolicy = typeof b.propagationPolicy === 'string' ? b.propagationPolicy : undefined;
  const pp = q.str('propagationPolicy');
  if (pp) propagationPolicy = pp;
  const orphanDependents = typeof b.orphanDependents === 'boolean' ? b.orphanDependents : q.bool('orphanDependents');
  const errs = validateDeleteOptions({
    dryRun,
    ...(propagationPolicy !== undefined ? { propagationPolicy } : {}),
    ...(orphanDependents !== undefined ? { orphanDependents } : {}),
    ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}),
    preconditions: b.preconditions,
  });
  if (errs.length > 0) throw newInvalidOptions('DeleteOptions', errs);
  if (dryRun.length > 0) o.dryRun = true;
  if (gracePeriodSeconds !== undefined) o.gracePeriodSeconds = gracePeriodSeconds;
  if (propagationPolicy !== undefined) o.propagationPolicy = propagationPolicy;
  if (orphanDependents !== undefined) o.orphanDependents = orphanDependents;
  if (b.preconditions !== null && typeof b.preconditions === 'object') {
    const p = b.preconditions as Record<string, unknown>;
    o.preconditions = {};
    if (typeof p.uid === 'string') o.preconditions.uid = p.uid;
    if (typeof p.resourceVersion === 'string') o.preconditions.resourceVersion = p.resourceVersion;
  }
  return o;
}
