/**
 * managedFields after mutating admission (apiserver `handlers/fieldmanager/admission.go`): a
 * mutating step that leaves them undecodable has them put back as they were, with a warning.
 */
import { decodeManagedFields, type ManagedFieldsEntry } from './entries.ts';
import { getManagedFields, setManagedFields, type Obj } from './manager.ts';

export const invalidManagedFieldsAfterMutatingAdmissionWarning = (err: string) =>
  `.metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: ${err}`;

/**
 * Checks obj's managedFields after a mutating admission step; when they do not decode, restores
 * `before` (mutating obj) and returns the warning to send. Undefined when they are valid.
 */
export function checkManagedFieldsAfterAdmission(obj: Obj, before: ManagedFieldsEntry[] | null | undefined): string | undefined {
  try {
    decodeManagedFields(getManagedFields(obj));
    return undefined;
  } catch (e) {
    setManagedFields(obj, before ?? undefined);
    return invalidManagedFieldsAfterMutatingAdmissionWarning((e as Error).message);
  }
}
