/**
 * Apply conflicts as kube-apiserver answers them (managedfields/internal `conflict.go`): a 409
 * Conflict Status whose message names each manager as users know it (`"kubectl" using v1`,
 * `"ctl" with subresource "status"`) and whose causes list every path.
 */
import { goQuote } from '../field/govalue.ts';
import { newApplyConflict, type StatusError } from '../status.ts';
import { pathString } from '../smd/fieldpath/element.ts';
import { conflictsString, type Conflict } from '../smd/merge/conflict.ts';
import { parseManagerIdentifier } from './entries.ts';

/** printManager: a manager identifier as conflict messages print it. */
export function printManager(manager: string): string {
  let e;
  try {
    e = parseManagerIdentifier(manager);
  } catch {
    return goQuote(manager);
  }
  let s = goQuote(e.manager ?? '');
  if (e.subresource) s = `${s} with subresource ${goQuote(e.subresource)}`;
  if (e.operation === 'Update') {
    if (!e.time) return `${s} using ${e.apiVersion ?? ''}`;
    return `${s} using ${e.apiVersion ?? ''} at ${new Date(e.time).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
  }
  return s;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  const n = conflicts.length === 1 ? '1 conflict' : `${conflicts.length} conflicts`;
  return `Apply failed with ${n}: ${conflictsString(conflicts, printManager)}`;
}

/** NewConflictError: the 409 Status of an apply's conflicts. */
export function newConflictError(conflicts: readonly Conflict[]): StatusError {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  return newApplyConflict(causes, conflictMessage(conflicts));
}
