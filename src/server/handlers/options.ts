/**
 * Reading the options of each verb from the query (and, for DELETE, the body) and validating
 * them as k8s.io/apimachinery's meta/v1 validation does: `dryRun` must be `All`,
 * `fieldValidation` one of Ignore/Warn/Strict (default Warn), list options well-formed.
 */
import { notSupported, type FieldError } from '../../apimachinery/field/errors.ts';
import { newBadRequest, newInvalid } from '../../apimachinery/status.ts';
import type { DeleteOptions, FieldValidation, ListOptions, WatchOptions } from '../../registry/rest.ts';
import type { Query } from '../http/query.ts';

function validateDryRun(values: string[], errs: FieldError[]): boolean {
  if (values.length === 0) return false;
  if (values.length === 1 && values[0] === 'All') return true;
  errs.push(notSupported('dryRun', values, ['All']));
  return false;
}

export interface WriteOptions {
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation: FieldValidation;
}

/** CreateOptions / UpdateOptions / PatchOptions from the query; 422 on bad values, as upstream. */
export function writeOptions(q: Query, kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions'): WriteOptions {
  const errs: FieldError[] = [];
  const dryRun = validateDryRun(q.params.getAll('dryRun'), errs);
  const fv = q.str('fieldValidation') ?? '';
  if (!['', 'Ignore', 'Warn', 'Strict'].includes(fv)) {
    errs.push(notSupported('fieldValidation', fv, ['Ignore', 'Strict', 'Warn']));
  }
  const fieldManager = q.str('fieldManager');
  if (fieldManager !== undefined && fieldManager.length > 128) {
    errs.push({ type: 'FieldValueTooLong', field: 'fieldManager', badValue: fieldManager, detail: 'must have at most 128 bytes' });
  }
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind }, '', errs);
  const out: WriteOptions = { dryRun, fieldValidation: (fv || 'Warn') as FieldValidation };
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
  o.timeoutSeconds = t !== undefined && t > 0 ? t : Math.floor(minRequestTimeoutSeconds * (1 + Math.random()));
  return o;
}

/** DeleteOptions from the body (JSON DeleteOptions, may be empty) and the query. */
export function deleteOptions(q: Query, body: unknown): DeleteOptions {
  const o: DeleteOptions = {};
  const errs: FieldError[] = [];
  if (body !== undefined && body !== null) {
    if (typeof body !== 'object' || Array.isArray(body)) throw newBadRequest('json: cannot unmarshal into Go value of type v1.DeleteOptions');
    const b = body as Record<string, unknown>;
    if (Array.isArray(b.dryRun)) o.dryRun = validateDryRun(b.dryRun as string[], errs);
    if (typeof b.gracePeriodSeconds === 'number') o.gracePeriodSeconds = b.gracePeriodSeconds;
    if (typeof b.propagationPolicy === 'string') o.propagationPolicy = b.propagationPolicy;
    if (b.preconditions !== null && typeof b.preconditions === 'object') {
      const p = b.preconditions as Record<string, unknown>;
      o.preconditions = {};
      if (typeof p.uid === 'string') o.preconditions.uid = p.uid;
      if (typeof p.resourceVersion === 'string') o.preconditions.resourceVersion = p.resourceVersion;
    }
  }
  const qd = q.params.getAll('dryRun');
  if (qd.length > 0) o.dryRun = validateDryRun(qd, errs);
  const gp = q.int('gracePeriodSeconds');
  if (gp !== undefined) o.gracePeriodSeconds = gp;
  const pp = q.str('propagationPolicy');
  if (pp) o.propagationPolicy = pp;
  if (o.propagationPolicy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(o.propagationPolicy)) {
    errs.push(notSupported('propagationPolicy', o.propagationPolicy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  return o;
}
